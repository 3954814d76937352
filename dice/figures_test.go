package dice

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestReadmeFigures checks that the README's table of held-out figures is the one model.json
// holds (train.py writes it beside the weights), so the README says what the shipped networks
// measure after every retraining.
func TestReadmeFigures(t *testing.T) {
	var m struct {
		HeldOut map[string]struct {
			Photos                           int
			Exact, Wrong, Missed, Unreadable float64
		} `json:"held_out"`
	}
	b, err := os.ReadFile("model/model.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "<!-- dice-figures -->")
	if !ok {
		t.Fatal("README.md has no <!-- dice-figures --> table")
	}
	rows := map[string]string{}
	for _, line := range strings.Split(table, "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if rig, _, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "`"); ok {
			rows[rig] = line
		}
	}
	// 90% and 90.0% read the same.
	norm := func(s string) string { return strings.Replace(s, ".0%", "%", 1) }
	pct := func(x float64) string { return norm(fmt.Sprintf("%.1f%%", 100*x)) }
	for _, rig := range []string{"nell-byler", "matteop65", "epanemu"} {
		h, ok := m.HeldOut[rig]
		if !ok {
			t.Fatalf("model.json has no held_out figures for %s", rig)
		}
		cells := strings.Split(rows[rig], "|")
		if len(cells) < 8 {
			t.Errorf("README.md has no row of 6 figures for %s: %q", rig, rows[rig])
			continue
		}
		got := make([]string, 5)
		for i := range got {
			got[i] = norm(strings.TrimSpace(cells[i+2]))
		}
		want := []string{fmt.Sprint(h.Photos), pct(h.Exact), pct(h.Wrong), pct(h.Missed), pct(h.Unreadable)}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("README.md's %s row says %v, model.json %v", rig, got, want)
		}
	}
}
