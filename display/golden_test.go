package display

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden draws every sample screen in every language and compares it
// with testdata/golden/<lang>/<screen>.png. It fails on text wider than the
// screen, a body that does not fit, a rune the font lacks, or any changed pixel.
func TestGolden(t *testing.T) {
	for _, l := range Languages() {
		dir := filepath.Join("testdata", "golden", string(l))
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, sm := range samples() {
			t.Run(string(l)+"/"+sm.name, func(t *testing.T) {
				img, err := Render(sm.s, l)
				if err != nil {
					t.Errorf("layout: %v", err)
				}
				path := filepath.Join(dir, sm.name+".png")
				if *update {
					if err := WritePNG(path, img, 1); err != nil {
						t.Fatal(err)
					}
					return
				}
				f, err := os.Open(path)
				if err != nil {
					t.Fatalf("%v (run go test ./display -update to create it)", err)
				}
				defer f.Close()
				want, err := png.Decode(f)
				if err != nil {
					t.Fatalf("decode %s: %v", path, err)
				}
				got := ToPaletted(img, 1)
				if want.Bounds() != got.Bounds() {
					t.Fatalf("%s: golden is %v, got %v", path, want.Bounds(), got.Bounds())
				}
				diff := 0
				for y := 0; y < Height; y++ {
					for x := 0; x < Width; x++ {
						wr, _, _, _ := want.At(x, y).RGBA()
						gr, _, _, _ := got.At(x, y).RGBA()
						if (wr >= 0x8000) != (gr >= 0x8000) {
							diff++
						}
					}
				}
				if diff > 0 {
					// Kept after the test so the change can be looked at.
					out := filepath.Join(os.TempDir(), "cantstop-"+string(l)+"-"+sm.name+".png")
					_ = WritePNG(out, img, 4)
					t.Errorf("%s: %d pixels differ; got %s (×4); if the change is meant, run go test ./display -update", path, diff, out)
				}
			})
		}
	}
}

// TestGoldenCoversEveryKind makes sure no screen kind escapes the golden tests.
func TestGoldenCoversEveryKind(t *testing.T) {
	seen := map[Kind]bool{}
	for _, sm := range samples() {
		seen[sm.s.Kind] = true
	}
	for _, k := range Kinds() {
		if !seen[k] {
			t.Errorf("no sample screen of kind %s", k)
		}
	}
}

// TestTerminalGolden compares the terminal text of every sample in every
// language with testdata/golden/<lang>/terminal.txt.
func TestTerminalGolden(t *testing.T) {
	for _, l := range Languages() {
		var buf bytes.Buffer
		term := NewTerminal(&buf, l)
		var all strings.Builder
		for _, sm := range samples() {
			buf.Reset()
			if err := term.Show(sm.s); err != nil {
				t.Errorf("%s/%s: %v", l, sm.name, err)
			}
			out := buf.String()
			if !strings.HasPrefix(out, clear) {
				t.Errorf("%s/%s: output does not start by clearing the screen: %q", l, sm.name, out)
			}
			if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
				t.Errorf("%s/%s: a bare \\n (raw-mode terminals need \\r\\n)", l, sm.name)
			}
			fmt.Fprintf(&all, "=== %s\n%s", sm.name, strings.ReplaceAll(strings.TrimPrefix(out, clear), "\r\n", "\n"))
		}
		path := filepath.Join("testdata", "golden", string(l), "terminal.txt")
		if *update {
			if err := os.WriteFile(path, []byte(all.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./display -update to create it)", err)
		}
		if got := all.String(); got != string(want) {
			t.Errorf("%s differs from the terminal output:\n%s", path, firstDiff(string(want), got))
		}
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n want %q\n got  %q", i+1, a, b)
		}
	}
	return "(same lines)"
}

// TestNoStaleGolden: every golden PNG belongs to a sample still drawn.
func TestNoStaleGolden(t *testing.T) {
	names := map[string]bool{"terminal.txt": true}
	for _, sm := range samples() {
		names[sm.name+".png"] = true
	}
	for _, l := range Languages() {
		entries, err := os.ReadDir(filepath.Join("testdata", "golden", string(l)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !names[e.Name()] {
				t.Errorf("%s/%s: no sample draws it; delete it", l, e.Name())
			}
		}
	}
}

// TestGoldenCoversEveryReason: each engine reason is explained on a golden screen.
func TestGoldenCoversEveryReason(t *testing.T) {
	seen := map[engine.Reason]bool{}
	for _, sm := range samples() {
		for _, r := range sm.s.Refusals {
			seen[r.Reason] = true
		}
	}
	for r := engine.ReasonClaimed; r <= engine.ReasonNoRunnersToStop; r++ {
		if !seen[r] {
			t.Errorf("no sample explains reason %d", r)
		}
	}
}
