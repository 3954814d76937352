package dice

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// readPhoto reads a photo under testdata.
func readPhoto(t testing.TB, file string) gocv.Mat {
	t.Helper()
	m := gocv.IMRead(filepath.Join("testdata", file), gocv.IMReadColor)
	if m.Empty() {
		m.Close()
		t.Fatalf("cannot read testdata/%s", file)
	}
	return m
}

// labelled is a photo and its dice's values, sorted.
type labelled struct {
	file   string // under testdata
	values []int
}

// readLabels reads testdata/photos/RIG/labels.csv.
func readLabels(t testing.TB, rig string) []labelled {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "photos", rig, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []labelled
	for _, r := range rows[1:] {
		var v []int
		for _, s := range strings.Fields(r[1]) {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("%s: %v", rig, err)
			}
			v = append(v, n)
		}
		sort.Ints(v)
		out = append(out, labelled{filepath.Join("photos", rig, r[0]), v})
	}
	return out
}

// floors are what each rig's labelled photos (at most six dice) must reach: the share read
// exactly, the most photos read with a die missed (values right, one too few: the companion,
// which expects four dice, refuses those) and the most read with a wrong value. They sit a
// little below what the built-in networks measure with model.json's thresholds (peak 0.5,
// face 0.85, doubt 0.8, look 0.97, no spot rule), measured 2026-12-07 night: matteop65 70 of 80
// exact, none with a die missed, none wrong; nell-byler 34 of 48, 1 with a die missed, none wrong;
// tai-studio 15 of 18 (its one die, big and close, is mostly found by the look farther away).
// Re-measure them whenever dice/model changes.
var floors = map[string]struct {
	exact           float64
	missed, misread int
}{
	"matteop65":  {exact: 0.8, missed: 2},
	"nell-byler": {exact: 0.6, missed: 2},
	"tai-studio": {exact: 0.75, missed: 0},
}

// TestReadPhotos reads every labelled photo of the three rigs. The matteop65 and nell-byler
// photos were in the networks' training set (held-out figures are in model.json's held_out),
// so this checks the Go reader end to end, not how well it generalises; tai-studio has no
// boxes and was never trained on. No photo may be read with a wrong value: the reader must say
// unreadable rather than guess.
func TestReadPhotos(t *testing.T) {
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, rig := range []string{"matteop65", "nell-byler", "tai-studio"} {
		t.Run(rig, func(t *testing.T) {
			photos := readLabels(t, rig)
			exact, missed, misread, n := 0, 0, 0, 0
			for _, p := range photos {
				if len(p.values) > 6 {
					continue
				}
				n++
				f := readPhoto(t, p.file)
				rd := r.Read(f)
				f.Close()
				switch {
				case rd.Status == StatusRead && reflect.DeepEqual(rd.Values(), p.values):
					exact++
				case rd.Status == StatusRead && subset(rd.Values(), p.values):
					missed++
					t.Logf("%s: read %v, a die missed of %v", p.file, rd.Values(), p.values)
				case rd.Status == StatusRead:
					misread++
					t.Logf("%s: misread %v, labelled %v", p.file, rd.Values(), p.values)
				default:
					t.Logf("%s: %v %v (%s), labelled %v", p.file, rd.Status, rd.Values(), rd.Why, p.values)
				}
			}
			t.Logf("%s: %d photos, %d read exactly, %d with a die missed", rig, n, exact, missed)
			if n == 0 {
				t.Fatal("no labelled photos")
			}
			f := floors[rig]
			if float64(exact) < f.exact*float64(n) {
				t.Errorf("%d of %d photos read exactly, want at least %.0f%%", exact, n, 100*f.exact)
			}
			if missed > f.missed {
				t.Errorf("%d photos read with a die missed, want at most %d", missed, f.missed)
			}
			if misread > f.misread {
				t.Errorf("%d photos read with a wrong value, want at most %d", misread, f.misread)
			}
		})
	}
}

// subset says whether the sorted values got are all among the sorted values want.
func subset(got, want []int) bool {
	i := 0
	for _, v := range want {
		if i < len(got) && got[i] == v {
			i++
		}
	}
	return i == len(got)
}

// TestReadOpts: the tray leaves out dice outside it, Expect asks for a count, and a frame
// that is not a colour picture is refused.
func TestReadOpts(t *testing.T) {
	f := readPhoto(t, "photos/matteop65/four_17.jpg")
	defer f.Close()
	all, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	rd := all.Read(f)
	if rd.Status != StatusRead || len(rd.Dice) < 2 {
		t.Fatalf("whole frame: %v %v (%s)", rd.Status, rd.Values(), rd.Why)
	}
	// A tray holding only the leftmost die.
	d0, d1 := rd.Dice[0].Box, rd.Dice[1].Box
	tray := d0.Union(d0)
	tray.Max.X = (d0.Max.X + d1.Min.X) / 2
	if tray.Max.X <= (d0.Min.X+d0.Max.X)/2 {
		tray.Max.X = (d0.Min.X+d0.Max.X)/2 + 1
	}
	for _, tc := range []struct {
		o      Opts
		status Status
		dice   int
	}{
		{Opts{Tray: tray}, StatusRead, 1},
		{Opts{Expect: len(rd.Dice)}, StatusRead, len(rd.Dice)},
		{Opts{Expect: len(rd.Dice) + 1}, StatusWrongCount, len(rd.Dice)},
	} {
		r, err := NewReader(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Read(f)
		r.Close()
		if got.Status != tc.status || len(got.Dice) != tc.dice {
			t.Errorf("%+v: %v with %d dice (%s), want %v with %d", tc.o, got.Status, len(got.Dice), got.Why, tc.status, tc.dice)
		}
	}
	grey := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC1)
	defer grey.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	for _, m := range []gocv.Mat{grey, empty} {
		if got := all.Read(m); got.Status != StatusUnreadable {
			t.Errorf("%dx%d %d channels: %v", m.Cols(), m.Rows(), m.Channels(), got.Status)
		}
	}
}

// BenchmarkRead reads a 640x480 photo (matteop65, four dice) and a 640x640 one (nell-byler,
// six dice). OpenCV's dnn uses every core unless run under taskset.
func BenchmarkRead(b *testing.B) {
	r, err := NewReader(Opts{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for _, file := range []string{"photos/matteop65/dice_40.jpg", "photos/nell-byler/IMG_20191208_111816.jpg"} {
		f := readPhoto(b, file)
		b.Run(fmt.Sprintf("%dx%d", f.Cols(), f.Rows()), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r.Read(f)
			}
		})
		f.Close()
	}
}
