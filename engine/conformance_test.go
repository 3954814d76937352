package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// confCase is one case in the format of ../shared/rules/cases/README.md.
type confCase struct {
	Name    string        `json:"name"`
	Source  string        `json:"source"`
	Rules   *Rules        `json:"rules"`
	Players int           `json:"players"`
	Turn    int           `json:"turn"`
	Pieces  []map[int]int `json:"pieces"`
	Runners map[int]int   `json:"runners"`
	Dice    *Dice         `json:"dice"`
	Choices []map[int]int `json:"choices"`
	Stop    *struct {
		Allowed bool          `json:"allowed"`
		Pieces  []map[int]int `json:"pieces"`
		Winner  *int          `json:"winner"`
	} `json:"stop"`
}

// repoRoot walks up from the test's directory to the one holding go.mod.
func repoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = up
	}
}

// caseDirs lists the directories of cases, by a short label for subtest
// names: the copies in testdata, the shared folder when present, and each
// directory in CANTSTOP_CASES (relative to engine/ or to the repository root).
func caseDirs(t *testing.T) [][2]string {
	root := repoRoot(t)
	dirs := [][2]string{{"testdata", filepath.Join(root, "engine", "testdata", "cases")}}
	if shared := filepath.Join(root, "..", "shared", "rules", "cases"); isDir(shared) {
		dirs = append(dirs, [2]string{"shared", shared})
	}
	for i, d := range strings.Split(os.Getenv("CANTSTOP_CASES"), ":") {
		if d != "" {
			if !filepath.IsAbs(d) && !isDir(d) {
				d = filepath.Join(root, d) // relative to the repository root
			}
			if !isDir(d) {
				t.Errorf("CANTSTOP_CASES: %s is not a directory", d)
				continue
			}
			dirs = append(dirs, [2]string{fmt.Sprintf("env%d", i), d})
		}
	}
	return dirs
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func TestConformance(t *testing.T) {
	n := 0
	for _, ld := range caseDirs(t) {
		files, err := filepath.Glob(filepath.Join(ld[1], "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var cases []confCase
			if err := json.Unmarshal(b, &cases); err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			t.Run(ld[0]+":"+filepath.Base(f), func(t *testing.T) {
				for _, c := range cases {
					n++
					t.Run(c.Name, func(t *testing.T) { runCase(t, c) })
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no conformance cases found (engine/testdata/cases should hold copies)")
	}
}

func (c confCase) position(t *testing.T) Position {
	t.Helper()
	rules := DefaultRules()
	if c.Rules != nil {
		rules = *c.Rules
		if rules.WinColumns == 0 {
			rules.WinColumns = 3
		}
	}
	p, err := assemble(c.Players, c.Turn, rules, c.Pieces, c.Runners)
	if err != nil {
		t.Fatalf("case position: %v", err)
	}
	// The notation and JSON must carry the case's position exactly.
	if q, err := ParsePosition(p.String()); err != nil || q != p {
		t.Fatalf("notation %q does not round-trip: %v", p.String(), err)
	}
	return p
}

func runCase(t *testing.T, c confCase) {
	p := c.position(t)
	switch {
	case c.Dice != nil:
		got := runnerSet(Legal(p, *c.Dice))
		want := []string{}
		for _, m := range c.Choices {
			var r Runners
			for col, s := range m {
				r[col] = s
			}
			want = append(want, r.String())
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s dice %v: choices\n got  %v\n want %v", p, *c.Dice, got, want)
		}
		a := Explain(p, *c.Dice)
		if !slices.Equal(runnerSet(a.Choices), want) {
			t.Errorf("Explain disagrees with Legal: %v", runnerSet(a.Choices))
		}
		if len(want) == 0 && len(a.Refusals) == 0 {
			t.Errorf("a bust must come with refusals")
		}
	case c.Stop != nil:
		ok, why := p.CanStop()
		if ok != c.Stop.Allowed {
			t.Fatalf("%s: CanStop = %v (%v), want %v", p, ok, why.Reason, c.Stop.Allowed)
		}
		q, _, err := p.Stop()
		if !ok {
			if err == nil {
				t.Fatal("Stop succeeded though CanStop refused")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for pl, want := range c.Stop.Pieces {
			got := map[int]int{}
			for col := MinColumn; col <= MaxColumn; col++ {
				if s := q.Piece(pl, col); s > 0 {
					got[col] = s
				}
			}
			if !maps.Equal(got, want) {
				t.Errorf("player %d pieces after stop: got %v, want %v", pl, got, want)
			}
		}
		wantWinner := -1
		if c.Stop.Winner != nil {
			wantWinner = *c.Stop.Winner
		}
		if q.Winner() != wantWinner {
			t.Errorf("winner %d, want %d", q.Winner(), wantWinner)
		}
	default:
		t.Fatal("case has neither dice nor stop")
	}
}

// runnerSet is the sorted list of outcomes, each as its runners' notation.
func runnerSet(cs []Choice) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Runners.String())
	}
	slices.Sort(out)
	return out
}
