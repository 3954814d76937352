package dicebench

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/dice"
)

func TestCutsOf(t *testing.T) {
	die := labelBox{value: 4, r: image.Rect(40, 40, 60, 60)}
	cuts := cutsOf([]labelBox{die}, 100, 100)
	if len(cuts) != 12 {
		t.Fatalf("%d cuts of one die, want 4 sides × 3 fractions", len(cuts))
	}
	want := map[string]image.Rectangle{
		"left 0.5":   image.Rect(50, 0, 100, 100),
		"right 0.3":  image.Rect(0, 0, 54, 100),
		"top 0.7":    image.Rect(0, 54, 100, 100),
		"bottom 0.5": image.Rect(0, 0, 100, 50),
	}
	for _, c := range cuts {
		k := fmt.Sprintf("%s %.1f", c.side, c.frac)
		if w, ok := want[k]; ok && c.keep != w {
			t.Errorf("%s: keep %v, want %v", k, c.keep, w)
		}
		delete(want, k)
	}
	for k := range want {
		t.Errorf("no cut %s", k)
	}
	// A die at the picture's left edge: cutting it from the right leaves too thin a strip
	// (6 px at 0.7, 14 at 0.3) to read.
	edge := cutsOf([]labelBox{{value: 2, r: image.Rect(0, 40, 20, 60)}}, 100, 100)
	for _, c := range edge {
		if c.side == "right" {
			t.Errorf("cut %s %.1f keeps %v: narrower than %d px", c.side, c.frac, c.keep, minCutSide)
		}
	}
	if len(edge) != 9 {
		t.Errorf("%d cuts of a die at the edge, want 9", len(edge))
	}
}

func TestWrongValue(t *testing.T) {
	there := []labelBox{
		{value: 4, r: image.Rect(0, 0, 30, 30)},
		{value: 2, r: image.Rect(50, 0, 80, 30)},
	}
	die := func(v int, x, y int) dice.Die {
		return dice.Die{Value: v, Box: image.Rect(x-10, y-10, x+10, y+10)}
	}
	// A die centred at (30, 30), outside the 4's box, holding that box's centre.
	big := func(v int) dice.Die { return dice.Die{Value: v, Box: image.Rect(10, 10, 50, 50)} }
	for _, c := range []struct {
		name string
		dice []dice.Die
		want bool
	}{
		{"both right", []dice.Die{die(4, 15, 15), die(2, 65, 15)}, false},
		{"one left out", []dice.Die{die(2, 65, 15)}, false},
		{"cut die refused", []dice.Die{die(4, 15, 15), die(0, 65, 15)}, false},
		{"values swapped", []dice.Die{die(2, 15, 15), die(4, 65, 15)}, true},
		{"a value no die has", []dice.Die{die(4, 15, 15), die(3, 65, 15)}, true},
		{"a die where none is", []dice.Die{die(4, 15, 15), die(2, 15, 80)}, true},
		// A box round part of a top face (matteop65's): the die read whole is centred outside it.
		{"box inside the die", []dice.Die{big(4), die(2, 65, 15)}, false},
		{"box inside a die of another value", []dice.Die{big(2), die(4, 65, 15)}, true},
		{"neither centre in the other's box", []dice.Die{die(4, 40, 40), die(2, 65, 15)}, true},
	} {
		if got := wrongValue(there, dice.Reading{Status: dice.StatusRead, Dice: c.dice}); got != c.want {
			t.Errorf("%s: wrongValue %v, want %v", c.name, got, c.want)
		}
	}
}

// cutSet is a folder holding testdata photos IMG_20191209_095545 (a 4 at its left edge, dice
// near its bottom) and dice_42 (five 1s) with their labels and boxes, and a photo listed
// without boxes, which BenchCuts leaves out.
func cutSet(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, c := range []struct{ set, file string }{
		{"nell-byler", "IMG_20191209_095545.jpg"},
		{"matteop65", "dice_42.jpg"},
	} {
		b, err := os.ReadFile(filepath.Join(photoDir, c.set, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	labels := "file,values\nIMG_20191209_095545.jpg,4 4 4 5 5 5\ndice_42.jpg,1 1 1 1 1\nno_boxes.jpg,3\n"
	boxes := `file,value,x0,y0,x1,y1
IMG_20191209_095545.jpg,5,212,399,247,434
IMG_20191209_095545.jpg,5,344,227,379,261
IMG_20191209_095545.jpg,5,393,235,429,272
IMG_20191209_095545.jpg,4,453,397,487,431
IMG_20191209_095545.jpg,4,248,195,283,229
IMG_20191209_095545.jpg,4,3,412,42,451
dice_42.jpg,1,443,91,478,108
dice_42.jpg,1,283,88,307,105
dice_42.jpg,1,157,167,198,186
dice_42.jpg,1,344,211,371,238
dice_42.jpg,1,231,336,264,369
`
	for name, text := range map[string]string{"labels.csv": labels, "boxes.csv": boxes} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBenchCuts cuts the photos of cutSet through each of their dice. Every cut must be
// refused or read right: before faces running off the picture were refused, cuts of both
// read part of a die as a smaller face, and before a face proposed from pips beside a die
// refused at the edge was left unread, dice_42 cut above its far 1s read a side face's 2.
func TestBenchCuts(t *testing.T) {
	dir := cutSet(t)
	failures := filepath.Join(t.TempDir(), "failures")
	rep, err := BenchCuts(context.Background(), []string{dir}, benchReader(t), BenchOpts{MaxDice: 6, Failures: failures})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Total
	t.Logf("%d cuts: %d refused, %d read, %d misread", s.Cuts, s.Refused, s.Read, s.Misread)
	// 11 dice × 12 cuts, less the 3 cuts from the right of the 4 at the left edge.
	if s.Cuts != 129 || s.Refused+s.Read+s.Misread != s.Cuts {
		t.Errorf("%d cuts: %d refused + %d read + %d misread; want 129 in all", s.Cuts, s.Refused, s.Read, s.Misread)
	}
	// The reader should refuse every die cut too far to read. It misreads none of the 129 cuts
	// (measured 2026-12-07; the networks before misread 2, part of dice_42's 1s read as other
	// faces): the ceiling of 1 leaves room for another CPU's rounding and keeps it from growing.
	if s.Misread > 1 {
		t.Errorf("%d cuts misread, want at most 1:\n%s", s.Misread, strings.Join(rep.Sets[0].Misreads, "\n"))
	}
	if s.Refused == 0 || s.Read == 0 {
		t.Errorf("refused %d, read %d: a die cut in half must be refused, one cut by a sliver of the picture read", s.Refused, s.Read)
	}
	if _, err := os.Stat(failures); (s.Misread == 0) != os.IsNotExist(err) {
		t.Errorf("failures folder with %d cuts misread: %v", s.Misread, err)
	}
	if _, err := BenchCuts(context.Background(), []string{filepath.Join(dir, "labels.csv")}, benchReader(t), BenchOpts{}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("file as folder: %v", err)
	}
}
