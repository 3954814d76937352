package camera

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// diceSets are the labelled photo folders: the testdata subset always, the shared photos when present.
func diceSets(t *testing.T) []string {
	t.Helper()
	sets, err := filepath.Glob(filepath.Join("testdata", "dice", "*", "labels.csv"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no testdata/dice/*/labels.csv: %v", err)
	}
	var dirs []string
	for _, s := range sets {
		dirs = append(dirs, filepath.Dir(s))
	}
	return dirs
}

func sharedSets() []string {
	var dirs []string
	for _, s := range []string{"nell-byler", "matteop65", "tai-studio"} {
		d := filepath.Join("..", "..", "shared", "dice-photos", s)
		if _, err := os.Stat(filepath.Join(d, "labels.csv")); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// TestReadTestdata holds the reader to the accuracy it reaches on the testdata photos (measured
// when the floors were set, minus a margin), and to its promise: a reading with StatusRead is
// right, or rare enough to count on one hand.
func TestReadTestdata(t *testing.T) {
	rep, err := Bench(context.Background(), diceSets(t), NewReader(DefaultReaderOpts()), BenchOpts{MaxDice: 6})
	if err != nil {
		t.Fatal(err)
	}
	floors := map[string]struct{ exact, dice float64 }{
		"nell-byler<=6": {55, 78}, // measured 66.7, 85.4 (the 328 build)
		"matteop65<=6":  {75, 88}, // measured 87.1, 94.7
		"tai-studio<=6": {99, 99}, // measured 100 (eyes_1_1: a stain beside a 1; eyes_3_1: a halo's thread to the edge)
		"nell-byler>6":  {99, 99}, // two photos of seven and nine dice (IMG_20191208_112219 for TestNetReadNotTwice, 111858 for TestReadStripNoRow): measured 100
	}
	for _, s := range rep.Sets {
		f, ok := floors[s.Name]
		if !ok {
			t.Errorf("unexpected set %q", s.Name)
			continue
		}
		t.Logf("%s: %d photos, exact %.1f%%, dice %.1f%%, misread %d, unreadable %d, failed %v",
			s.Name, s.Photos, s.ExactPct(), s.DicePct(), s.Misread, s.Unreadable, s.Failed)
		if s.ExactPct() < f.exact || s.DicePct() < f.dice {
			t.Errorf("%s: exact %.1f%% (floor %.0f), dice %.1f%% (floor %.0f)", s.Name, s.ExactPct(), f.exact, s.DicePct(), f.dice)
		}
	}
	// Measured: 0 (an earlier build read a side face in matteop65/five_26.jpg as a fourth 5).
	if rep.Total.Misread > 1 {
		t.Errorf("%d photos reported read with a wrong value", rep.Total.Misread)
	}
}

// TestReadHardFaces: photos, one per rule, that a reader without it refuses.
func TestReadHardFaces(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		file string
		want string
		why  string
	}{
		{"matteop65/three_1.jpg", "[3]",
			"the die's turn from its straight edges, not from the outlines of a diagonal 3's pips"},
		{"nell-byler/IMG_20191209_100553.jpg", "[1 1 3]",
			"a 1 whose pip sits in the middle of its own face, the blob being wider (side faces)"},
		{"nell-byler/IMG_20191209_095948.jpg", "[2 5 5 5 6]",
			"a 5's centre pip, alone at one threshold, is no vote for a 1 against that 5"},
		{"nell-byler/IMG_20191209_095944.jpg", "[1 3 3 4 6]",
			"a 6 whose big pips, in rows of three, blur into the gap between the rows"},
		{"nell-byler/IMG_20191209_095958.jpg", "[2 3 3 3 5]",
			"a 3 whose two merged pips are split by the size of its one single pip"},
		{"nell-byler/IMG_20191208_111816.jpg", "[2 3 4 4 4 6]",
			"a dark 3 whose blob holds its shadow, read again at the size of the face itself"},
		{"matteop65/four_41.jpg", "[4 4 4 4 4]",
			"touching 4s read whole as one 4, and split as two at the same places"},
		{"matteop65/four_36.jpg", "[4 4 4 4]",
			"two touching 4s read whole as a 2 of two pips of one of them: that 4 seen in part"},
		{"matteop65/four_43.jpg", "[4 4 4 4 4]",
			"a pip beside a whole 4 is on a side face, not left over from a cut through a face"},
		{"matteop65/six_60.jpg", "[1 2 3 3 5]",
			"a 3 read at another turn as a 2 of a strong pip and a weak one, two strong pips left out"},
		{"nell-byler/IMG_20191209_100645.jpg", "[1 2 2 3 4 5]",
			"a 3's corner pip, with the middle pip diagonally beside it, is no vote for a 1"},
		{"matteop65/three_50.jpg", "[3 3 3 3 3]",
			"a 3 whose corner pip one threshold loses: a 2 inside the 3, at half its spacing"},
		{"matteop65/dice_11.jpg", "[1 1]",
			"1s seen obliquely: their side faces' pips, flatter and flattened across the line to the 1, are no partners of it"},
		{"matteop65/five_12.jpg", "[5 5]",
			"a side face cut off a 5 reads no 2 of its own: a rounder pip, the 5's, lies beside its flatter pips"},
		{"matteop65/five_26.jpg", "[5 5 5]",
			"a die's shadow on the desk is no die: its colour is that of its surroundings"},
		{"matteop65/five_4.jpg", "[5]",
			"the desk beside a die's side face is no die: its colour runs on beyond where a face would end"},
		{"matteop65/six_7.jpg", "[6]",
			"a laptop's corner cut by the picture's edge, longer than a die, is no die"},
		{"matteop65/six_17.jpg", "[6 6]",
			"6s never segmented, whose pips cluster with their side faces' and each other's: the faces inside the cluster"},
		{"matteop65/four_22.jpg", "[4 4 4]",
			"a 4 in a cluster with a side face's pip, foreshortened: the whole 4, not a 2 of two of its pips"},
		{"matteop65/dice_15.jpg", "[1 1]",
			"ivory 1s on pale wood that the finder does not see, proposed from a lone pip centred on a blank square face"},
		{"matteop65/dice_34.jpg", "[1 1 1 1]",
			"a 1 found from its lone pip where the finder saw only clutter"},
		{"matteop65/dice_18.jpg", "[1 1]",
			"a 1 found from its lone pip replaces the unreadable blob of its top and side faces"},
		{"matteop65/five_30.jpg", "[5 5 5]",
			"laptop keys among ivory dice are no die: their colour is far from that of every die read"},
		{"matteop65/six_29.jpg", "[6 6 6]",
			"a cable's ferrite bead among ivory dice is no die: its colour is far from that of every die read"},
		{"nell-byler/IMG_20191209_100525.jpg", "[1 1 3 5]",
			"dice huddled in one blob outvote the lone die's size by area: each blob voting once gives it"},
		{"matteop65/two_25.jpg", "[2 2 2]",
			"two touching 2s, one blob twice a die's size by area, cut at the size the lone dice give"},
		{"nell-byler/IMG_20191208_112902.jpg", "[5]",
			"a die against a box's wall, peeled out of the blob of the frame and the wall in shade"},
		{"nell-byler/IMG_20191208_112847.jpg", "[1 3 5]",
			"two dice beside a box's wall in shade, peeled out of the blob of the frame and the wall"},
		{"matteop65/four_17.jpg", "[4 4]",
			"a side face's 2 that a split reads over a 4, read alike uncut, is that 4's side face, no rival die"},
		{"matteop65/three_33.jpg", "[3 3 3 3]",
			"a side face's 1 that a split reads over a 3, read alike uncut, is that 3's side face, no rival die"},
		{"matteop65/dice_8.jpg", "[1]",
			"a 1 whose outline is seen all round: a side face's pip beyond it is no partner in a 2 at any pip threshold"},
		{"matteop65/two_35.jpg", "[2 2 2 2]",
			"a 2 proposed from its pips inside the unreadable blob of its own top and side faces replaces that blob"},
		{"matteop65/dice_13.jpg", "[1 1]",
			"a 1 seen obliquely, its face foreshortened and its near side running into its pale side face: outlined on three sides, centred on the pip"},
		{"matteop65/dice_27.jpg", "[1 1 1]",
			"a foreshortened 1 whose walk towards the camera runs past its top face onto its side face"},
		{"matteop65/dice_12.jpg", "[1 1]",
			"a 1 seen by a camera a little flatter than 45°: its face outlined all round, 1.42 times as long as wide"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Errorf("%s %s (%s), want read %s: %s", rd.Status, got, rd.Why, c.want, c.why)
			}
		})
	}
}

// TestWallPeeledDie: a smoky 4 at the foot of a box's wall, peeled off the blob of the wall
// 26 px wide where the dice are 37, fits no layout at that size; it is read again at the
// picture's die size instead of being left out as what is left of the wall: the photo is read
// [1 4 5 6], not [1 5 6] with the die missing. (The face networks, asked because they read
// another die of the photo, do not both see that 4; a 4 needs no such confirmation: see
// netConfirm.)
func TestWallPeeledDie(t *testing.T) {
	rd := readPhoto(t, NewReader(DefaultReaderOpts()), "nell-byler/IMG_20191208_112857.jpg")
	found := false
	for _, d := range rd.Dice {
		found = found || image.Pt(303, 471).In(d.Box) && d.Value == 4
	}
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != "[1 4 5 6]" || !found {
		t.Errorf("%s %s (%s): want read [1 4 5 6], the 4 at (303,471)", rd.Status, got, rd.Why)
	}
}

// readPhoto reads a photo of testdata/dice (set/file).
func readPhoto(t *testing.T, r *Reader, file string) Reading {
	t.Helper()
	img := testPhoto(t, file)
	defer img.Close()
	return r.Read(img)
}

// readVaried reads a testdata photo changed by the named variation (see VariationNamed).
func readVaried(t *testing.T, r *Reader, vary, file string) Reading {
	t.Helper()
	v, err := VariationNamed(vary)
	if err != nil {
		t.Fatal(err)
	}
	img := testPhoto(t, file)
	defer img.Close()
	changed := v(img)
	defer changed.Close()
	return r.Read(changed)
}

// TestReadSideFaces: in oblique views a die's side face shows pips too; a side face's pip
// taken for a 1's partner (dice_9: read as a 2 when the die's turn is measured from its
// edges alone) or a side face split off as a die of its own (four_17: a 4 and the 2 below
// it, closer than a die's side) or read from other pips at another turn (dice_27: a side
// face's 2 read where the blob holds no top face) must leave the photo unread or its dice
// missed, never misread: every die read is one of the labelled ones.
func TestReadSideFaces(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct{ file, want string }{
		{"matteop65/dice_9.jpg", "[1]"},
		{"matteop65/four_17.jpg", "[4 4]"},
		{"matteop65/dice_27.jpg", "[1 1 1]"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			if got := fmt.Sprint(rd.Values()); rd.Status == StatusRead && !subOf(rd.Values(), c.want) {
				t.Errorf("read %s, want %s or some of it, or unreadable", got, c.want)
			}
		})
	}
}

// TestReadWallOnes: a die peeled off a box's wall and read as a 1 or 2 is refused (a side face's
// pip or half a face makes those values there), but it is a die: the reading must say so, not
// leave it out as clutter and report the other dice read. IMG_20191208_111304 has two such 1s
// among 22 dice; the build before this test reported it read with 8 dice.
func TestReadWallOnes(t *testing.T) {
	rd := readPhoto(t, NewReader(DefaultReaderOpts()), "nell-byler/IMG_20191208_111304.jpg")
	walls := 0
	for _, d := range rd.Dice {
		if d.Value == 0 && strings.Contains(d.Why, "against the tray's wall") {
			walls++
		}
	}
	if rd.Status != StatusUnreadable || walls == 0 {
		t.Errorf("%s %v (%s), %d dice refused at the wall: want unreadable, a die refused at the wall", rd.Status, rd.Values(), rd.Why, walls)
	}
}

// TestReadNoFalseValue: faces that used to be read as a value the photo does not hold. Every
// value read must be one of the labelled ones (a die may be refused, or even missed, but never
// read wrong), whatever the photo's status.
func TestReadNoFalseValue(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct{ file, labels, why string }{
		{"nell-byler/IMG_20191209_100602.jpg", "4 5 6",
			"a red 4 read as a small 2 from a pip and a glare streak, its other pips left out; a black 5 whose red pips merge into one blob in the hue map, read as a 1"},
		{"nell-byler/IMG_20191208_111833.jpg", "1 4 5 5 6 6",
			"a black 5 whose red pips merge into one blob a third of the die wide, read as a 1"},
		{"matteop65/three_3.jpg", "3",
			"a pip of an ivory die on pale wood, found as a die of its own with its halo, read as a 1"},
		{"matteop65/two_9.jpg", "2",
			"the two pips of an ivory 2 on pale wood, each found as a die with its halo, read as two 1s"},
		{"matteop65/dice_42.jpg", "1 1 1 1 1",
			"a 1's pip with a side face's pip read as a 2, and a side face's 4 cut apart read as a 1, once the foreshortened 1s beside them are read"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			if !subOf(rd.Values(), c.labels) {
				t.Errorf("%s %v (%s): values not among the labels %s: %s", rd.Status, rd.Values(), rd.Why, c.labels, c.why)
			}
		})
	}
}

// TestReadShared scores the full shared photo sets when they are present (the figures in
// BENCHMARKS-dice.md, minus a margin).
func TestReadShared(t *testing.T) {
	dirs := sharedSets()
	if len(dirs) == 0 || testing.Short() {
		t.Log("../shared/dice-photos not present (or -short): only the testdata subset is checked")
		return
	}
	rep, err := Bench(context.Background(), dirs, NewReader(DefaultReaderOpts()), BenchOpts{MaxDice: 6})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(rep.Sets, rep.Total) {
		t.Logf("%s: %d photos, exact %.1f%%, dice %.1f%%, misread %d, median %.1f ms", s.Name, s.Photos, s.ExactPct(), s.DicePct(), s.Misread, s.MedianMS)
	}
	if rep.Total.DicePct() < 86 || rep.Total.ExactPct() < 71 || rep.Total.Misread > 5 {
		t.Errorf("total: exact %.1f%% (floor 71), dice %.1f%% (floor 86), misread photos %d (at most 5)", rep.Total.ExactPct(), rep.Total.DicePct(), rep.Total.Misread)
	}
}

func TestReadBadFrames(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	empty := gocv.NewMat()
	defer empty.Close()
	tiny := gocv.NewMatWithSize(4, 4, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	grey := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV8U)
	defer grey.Close()
	for name, m := range map[string]gocv.Mat{"empty": empty, "tiny": tiny, "grey": grey} {
		rd := r.Read(m)
		if rd.Status != StatusUnreadable || rd.Why == "" || len(rd.Dice) != 0 {
			t.Errorf("%s frame: got %+v, want unreadable with a reason", name, rd)
		}
	}
	// A blank tray: no dice, and with Expect 4 a wrong count that says so.
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 200, 200, 0), 240, 320, gocv.MatTypeCV8UC3)
	defer blank.Close()
	if rd := r.Read(blank); rd.Status != StatusRead || len(rd.Dice) != 0 {
		t.Errorf("blank tray: %+v", rd)
	}
	o := DefaultReaderOpts()
	o.Expect = 4
	if rd := NewReader(o).Read(blank); rd.Status != StatusWrongCount || !strings.Contains(rd.Why, "expected 4") {
		t.Errorf("blank tray, expect 4: %+v", rd)
	}
	o = DefaultReaderOpts()
	o.Tray = image4(1000, 1000, 1100, 1100)
	if rd := NewReader(o).Read(blank); rd.Status != StatusUnreadable || !strings.Contains(rd.Why, "tray") {
		t.Errorf("tray outside the frame: %+v", rd)
	}
}

func TestBenchBadInput(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	dir := t.TempDir()
	if _, err := Bench(context.Background(), []string{dir}, r, BenchOpts{}); err == nil || !strings.Contains(err.Error(), "labels.csv") {
		t.Errorf("folder without labels.csv: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("file,values\nbroken.jpg,1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.jpg"), []byte("not a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Bench(context.Background(), []string{dir}, r, BenchOpts{}); err == nil || !strings.Contains(err.Error(), "cannot decode broken.jpg") {
		t.Errorf("undecodable photo: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("file,values\nbroken.jpg,1 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Bench(context.Background(), []string{dir}, r, BenchOpts{}); err == nil || !strings.Contains(err.Error(), "not 1-6") {
		t.Errorf("bad value: %v", err)
	}
	if _, err := Bench(context.Background(), []string{filepath.Join(dir, "labels.csv")}, r, BenchOpts{}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("file as folder: %v", err)
	}
}

func TestBenchFailuresAndBoxes(t *testing.T) {
	out := t.TempDir()
	dirs := diceSets(t)
	rep, err := Bench(context.Background(), dirs, NewReader(DefaultReaderOpts()), BenchOpts{Failures: out})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(out)
	failed := 0
	for _, s := range rep.Sets {
		failed += len(s.Failed)
		if s.Photos > 0 && (s.MedianMS <= 0 || s.P95MS < s.MedianMS) {
			t.Errorf("%s: median %.2f ms, p95 %.2f ms", s.Name, s.MedianMS, s.P95MS)
		}
		if strings.HasPrefix(s.Name, "nell") && (s.Boxes == 0 || s.BoxesHit == 0) {
			t.Errorf("%s: boxes.csv not used: %d/%d", s.Name, s.BoxesHit, s.Boxes)
		}
	}
	if len(files) != failed {
		t.Errorf("%d annotated failures written, %d photos failed", len(files), failed)
	}
	// Every labelled die lands in exactly one confusion cell.
	n := 0
	for v := 1; v <= 6; v++ {
		for _, c := range rep.Total.Confusion[v] {
			n += c
		}
	}
	if n != rep.Total.Dice {
		t.Errorf("confusion holds %d true dice, labels %d", n, rep.Total.Dice)
	}
}

func TestAnnotate(t *testing.T) {
	img := gocv.IMRead(filepath.Join("testdata", "dice", "tai-studio", "eyes_1_1.jpg"), gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatal("testdata photo missing")
	}
	rd := NewReader(DefaultReaderOpts()).Read(img)
	a := Annotate(img, rd)
	defer a.Close()
	if a.Rows() != img.Rows() || a.Cols() != img.Cols() {
		t.Fatalf("annotated %dx%d, frame %dx%d", a.Cols(), a.Rows(), img.Cols(), img.Rows())
	}
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(img, a, &diff)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(diff, &grey, gocv.ColorBGRToGray)
	if gocv.CountNonZero(grey) == 0 {
		t.Error("nothing drawn")
	}
	empty := gocv.NewMat()
	defer empty.Close()
	e := Annotate(empty, Reading{})
	e.Close()
}

// BenchmarkRead reads every shared photo in turn (the testdata photos when ../shared is absent), so
// its figure is the mean over the sets the bench command reports.
func BenchmarkRead(b *testing.B) {
	dirs := sharedSets()
	if len(dirs) == 0 {
		dirs = []string{filepath.Join("testdata", "dice", "nell-byler")}
	}
	var mats []gocv.Mat
	for _, d := range dirs {
		photos, err := loadLabels(d)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range photos {
			m := gocv.IMRead(filepath.Join(d, p.file), gocv.IMReadColor)
			defer m.Close()
			mats = append(mats, m)
		}
	}
	r := NewReader(DefaultReaderOpts())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Read(mats[i%len(mats)])
	}
}

func image4(x0, y0, x1, y1 int) image.Rectangle { return image.Rect(x0, y0, x1, y1) }

// TestBetterSize pins how the readings made with two guesses of the die's size are weighed.
func TestBetterSize(t *testing.T) {
	die := func(v int, conf float64) Die { return Die{Value: v, Confidence: conf} }
	tests := []struct {
		name string
		a, b []Die
		want bool
	}{
		{"fewer unreadable wins", []Die{die(5, 0.9)}, []Die{die(0, 0), die(1, 0.9)}, true},
		{"more unreadable loses", []Die{die(0, 0), die(2, 0.9)}, []Die{die(2, 0.9)}, false},
		{"a face's pips are not dice", []Die{die(2, 0.9)}, []Die{die(1, 0.9), die(1, 0.9)}, true},
		{"tie keeps the first", []Die{die(3, 0.9)}, []Die{die(3, 0.9)}, false},
		{"sure dice where none were found", []Die{die(3, 0.96)}, nil, true},
		{"unsure dice where none were found", []Die{die(4, 0.30)}, nil, false},
		{"nothing never beats dice", nil, []Die{die(4, 0.9)}, false},
	}
	for _, tc := range tests {
		if got := better(tc.a, tc.b, 0.5); got != tc.want {
			t.Errorf("%s: better(%v, %v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
	if settled(nil) || settled([]Die{die(2, 0.9), die(0, 0)}) || !settled([]Die{die(2, 0.9)}) {
		t.Error("settled: want true only when dice were found and all read")
	}
}

// subOf says whether values are some of the labelled ones (a multiset written as "[1 1 3]").
func subOf(values []int, labels string) bool {
	var want []int
	for _, f := range strings.Fields(strings.Trim(labels, "[]")) {
		var v int
		fmt.Sscan(f, &v)
		want = append(want, v)
	}
	return intersect(want, values) == len(values)
}

// testPhoto reads testdata/dice/FILE, failing the test when it cannot.
func testPhoto(t *testing.T, file string) gocv.Mat {
	t.Helper()
	img := gocv.IMRead(filepath.Join("testdata", "dice", file), gocv.IMReadColor)
	if img.Empty() {
		img.Close()
		t.Fatalf("cannot read testdata/dice/%s", file)
	}
	return img
}

// readCase is a testdata photo with the values it must be read as.
type readCase struct{ file, want string }

// testReads reads each photo and wants it read, exactly as its values.
func testReads(t *testing.T, cases []readCase) {
	t.Helper()
	r := NewReader(DefaultReaderOpts())
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			img := testPhoto(t, c.file)
			defer img.Close()
			rd := r.Read(img)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Errorf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
			}
		})
	}
}

// TestBenchMisreadPhotos: a photo labelled with a value it does not show is listed as misread,
// with both multisets, so a bench run says which photos to look at; it is silent when it has
// as many dice as labelled, as no expected count would catch it.
func TestBenchMisreadPhotos(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "dice", "tai-studio", "eyes_3_2.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "three.jpg"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pair.jpg"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("file,values\nthree.jpg,4\npair.jpg,4 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Bench(context.Background(), []string{dir}, NewReader(DefaultReaderOpts()), BenchOpts{})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Sets[0]
	want := []string{"three.jpg: true [4] read [3]", "pair.jpg: true [4 4] read [3]"} // in labels.csv order
	if s.Misread != 2 || fmt.Sprint(s.MisreadPhotos) != fmt.Sprint(want) {
		t.Errorf("misread %d %q, want 2 %q", s.Misread, s.MisreadPhotos, want)
	}
	// Only three.jpg has as many dice as labelled: pair.jpg's count alone would refuse it.
	if s.Silent != 1 || rep.Total.Silent != 1 {
		t.Errorf("silent %d (total %d), want 1", s.Silent, rep.Total.Silent)
	}
}

// TestReadCloseUp: tai-studio's close-ups show one die filling much of the picture. Brightened
// 1.4 times, as an overexposed camera shows it, the die's face is a uniform white that the
// tray model takes for a second surface, and the face is a hole in the foreground bigger than
// a sixth of the picture: left open, the die was lost and its pips taken for two blank dice,
// and the photo was reported read with no dice at all.
func TestReadCloseUp(t *testing.T) {
	v, err := VariationNamed("bright1.4")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{"tai-studio/eyes_1_1.jpg", "[1]"},
		{"tai-studio/eyes_3_1.jpg", "[3]"},
	} {
		plain := testPhoto(t, c.file)
		img := v(plain)
		plain.Close()
		rd := NewReader(DefaultReaderOpts()).Read(img)
		img.Close()
		if rd.Status != StatusRead || fmt.Sprint(rd.Values()) != c.want {
			t.Errorf("%s brightened: %s %v (%s), want read %s", c.file, rd.Status, rd.Values(), rd.Why, c.want)
		}
	}
}
