package dice

import (
	"encoding/csv"
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// readBoxes reads testdata/photos/RIG/boxes.csv: each photo's dice boxes, and the photos in
// name order.
func readBoxes(t testing.TB, rig string) (map[string][]image.Rectangle, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "photos", rig, "boxes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	boxes := map[string][]image.Rectangle{}
	for _, r := range rows[1:] {
		var v [4]int
		for i := range v {
			x, err := strconv.ParseFloat(r[2+i], 64)
			if err != nil {
				t.Fatalf("%s boxes.csv: %v", rig, err)
			}
			v[i] = int(x)
		}
		file := filepath.Join("photos", rig, r[0])
		boxes[file] = append(boxes[file], image.Rect(v[0], v[1], v[2], v[3]))
	}
	files := make([]string, 0, len(boxes))
	for f := range boxes {
		files = append(files, f)
	}
	slices.Sort(files)
	return boxes, files
}

// rigBackground makes a rig's background from its first n photos by name, their dice masked
// by the labels' boxes (as dice bench --adapt does), and returns the photos left.
func rigBackground(t testing.TB, rig string, n int) (*Background, map[string][]image.Rectangle, []string) {
	t.Helper()
	boxes, files := readBoxes(t, rig)
	var m BackgroundMaker
	for _, f := range files[:n] {
		img := readPhoto(t, f)
		err := m.Add(img, boxes[f])
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	bg, err := m.Make()
	if err != nil {
		t.Fatal(err)
	}
	return bg, boxes, files[n:]
}

// dieAt is a candidate on a labelled die's box.
func dieAt(b image.Rectangle) cand {
	return cand{peak: 1, x: float64(b.Min.X+b.Max.X) / 2, y: float64(b.Min.Y+b.Max.Y) / 2, side: float64(b.Dx()+b.Dy()) / 2}
}

// nell-byler's camera stood still through a session: the two grey screw heads at the board's
// bottom corners are in every photo of it, and the detector's peaks on them (0.2-0.5) made
// frames unreadable. With the background of the session's first eight photos they are the rig's own in the
// session's later photos; no die of any later photo is, the next day's (camera moved) included.
func TestBackgroundSpotsOfTheRig(t *testing.T) {
	bg, boxes, rest := rigBackground(t, "nell-byler", 8)
	rigSpots(t, bg, boxes, rest)
}

// rigSpots checks a background of nell-byler's first eight photos on the photos after them:
// it knows 95% of the view, takes the screw heads for the rig's own in the three later photos
// of the first session, and no labelled die.
func rigSpots(t *testing.T, bg *Background, boxes map[string][]image.Rectangle, rest []string) {
	t.Helper()
	if k := bg.KnownShare(); k < 0.95 {
		t.Errorf("eight photos leave %.1f%% of the view unseen", 100*(1-k))
	}
	// The screw heads where a detector trained without nell-byler peaks on them.
	screws := []cand{{peak: 0.4, x: 580, y: 589, side: 30}, {peak: 0.3, x: 52, y: 595, side: 37}}
	session := 0
	dice := 0
	for _, f := range rest {
		img := readPhoto(t, f)
		if strings.Contains(f, "IMG_20191208_1125") || strings.Contains(f, "IMG_20191208_1126") || strings.Contains(f, "IMG_20191208_1127") {
			session++
			for _, s := range screws {
				if corr, spread, _ := bg.compare(img, s); !bg.static(img, s) {
					t.Errorf("%s: the screw head at (%.0f,%.0f) not taken for the rig's own (correlation %.2f, spread %.1f)", f, s.x, s.y, corr, spread)
				}
			}
		}
		for _, b := range boxes[f] {
			dice++
			if bg.static(img, dieAt(b)) {
				corr, spread, _ := bg.compare(img, dieAt(b))
				t.Errorf("%s: the die at %v taken for the rig's own (correlation %.2f, spread %.1f)", f, b, corr, spread)
			}
		}
		img.Close()
	}
	if session != 3 {
		t.Errorf("%d photos of the first session after the eight, want 3", session)
	}
	t.Logf("%d photos, %d dice", len(rest), dice)
}

// matteop65's photos were taken by hand: the camera moved from one to the next, so the
// background of the first ten is a blur of several tables, and no die may match it.
func TestBackgroundMovingCamera(t *testing.T) {
	bg, boxes, rest := rigBackground(t, "matteop65", 10)
	for _, f := range rest {
		img := readPhoto(t, f)
		if img.Cols() == bg.Frame.X && img.Rows() == bg.Frame.Y {
			for _, b := range boxes[f] {
				if bg.static(img, dieAt(b)) {
					t.Errorf("%s: the die at %v taken for the table's own", f, b)
				}
			}
		}
		img.Close()
	}
}

// The reader with nell-byler's background reads the photos after its first eight at least as
// well as without: never a die less read, never a value more wrong.
func TestReaderBackground(t *testing.T) {
	bg, _, rest := rigBackground(t, "nell-byler", 8)
	truth := map[string][]int{}
	for _, l := range readLabels(t, "nell-byler") {
		truth[l.file] = l.values
	}
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var plain, with []Reading
	for _, f := range rest {
		img := readPhoto(t, f)
		plain = append(plain, r.Read(img))
		img.Close()
	}
	if err := r.SetBackground(bg); err != nil {
		t.Fatal(err)
	}
	for _, f := range rest {
		img := readPhoto(t, f)
		with = append(with, r.Read(img))
		img.Close()
	}
	exact := func(rd Reading, f string) bool {
		return rd.Status == StatusRead && slices.Equal(rd.Values(), truth[f])
	}
	np, nw := 0, 0
	for i, f := range rest {
		if exact(plain[i], f) {
			np++
		}
		if exact(with[i], f) {
			nw++
			continue
		}
		// Only a reading the background made exact may differ.
		if with[i].Status != plain[i].Status || !slices.Equal(with[i].Values(), plain[i].Values()) {
			t.Errorf("%s: read %v %v without the background, %v %v with it (truth %v)", f, plain[i].Status, plain[i].Values(), with[i].Status, with[i].Values(), truth[f])
		}
	}
	t.Logf("%d photos: %d exact without the background, %d with", len(rest), np, nw)
	if err := r.SetBackground(&Background{Frame: image.Pt(640, 640)}); err == nil {
		t.Error("a background without pixels accepted")
	}
}

func TestBackgroundJSON(t *testing.T) {
	bg, _, _ := rigBackground(t, "nell-byler", 3)
	data, err := json.Marshal(bg)
	if err != nil {
		t.Fatal(err)
	}
	var back Background
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, bg) {
		t.Error("the background changed in JSON")
	}
	t.Logf("%d bytes of JSON", len(data))
	if len(data) > 400<<10 {
		t.Errorf("%d bytes of JSON: a profile holds at most 2 MB", len(data))
	}
	var j map[string]any
	json.Unmarshal(data, &j)
	edit := func(k string, v any) []byte {
		m := map[string]any{}
		for a, b := range j {
			m[a] = b
		}
		m[k] = v
		b, _ := json.Marshal(m)
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a PNG", edit("png", "aGVsbG8="), "background picture"},
		{"another frame", edit("frame", []int{640, 480}), "want (320,240)"},
		{"no frame", edit("frame", []int{0, 0}), "want positive sizes"},
		{"huge frame", edit("frame", []int{1 << 20, 1 << 20}), "at most"},
	} {
		var b Background
		err := json.Unmarshal(c.data, &b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestBackgroundMaker(t *testing.T) {
	var m BackgroundMaker
	if _, err := m.Make(); err == nil {
		t.Error("a background of no frames")
	}
	a := readPhoto(t, "photos/nell-byler/IMG_20191208_111304.jpg")
	defer a.Close()
	b := readPhoto(t, "photos/matteop65/dice_1.jpg")
	defer b.Close()
	if err := m.Add(a, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(b, nil); err == nil || !strings.Contains(err.Error(), "one camera, one size") {
		t.Errorf("a frame of another size: %v", err)
	}
	if err := m.Add(gocv.NewMat(), nil); err == nil {
		t.Error("an empty frame added")
	}
	// A die in every frame leaves its pixels unknown; a background seen whole knows them all.
	whole := image.Rect(0, 0, 640, 640)
	var covered BackgroundMaker
	covered.Add(a, []image.Rectangle{whole})
	bg, err := covered.Make()
	if err != nil || bg.KnownShare() != 0 {
		t.Errorf("covered whole: %v known, %v", bg.KnownShare(), err)
	}
	if bg.static(a, cand{peak: 1, x: 52, y: 595, side: 20}) {
		t.Error("a spot of unknown pixels taken for the rig's own")
	}
	if bg, _ := m.Make(); bg.KnownShare() != 1 || bg.Frame != image.Pt(640, 640) || bg.Size != image.Pt(320, 320) {
		t.Errorf("one frame, no dice: %v known, frame %v, size %v", bg.KnownShare(), bg.Frame, bg.Size)
	}
}

// BenchmarkBackgroundSpot is the cost of comparing one detector peak (a die of nell-byler's
// size) with the background; Read compares each of its peaks.
func BenchmarkBackgroundSpot(b *testing.B) {
	bg, boxes, rest := rigBackground(b, "nell-byler", 8)
	img := readPhoto(b, rest[0])
	defer img.Close()
	k := dieAt(boxes[rest[0]][0])
	b.ResetTimer()
	for range b.N {
		bg.static(img, k)
	}
}

// TestHidFaces: a spot the background drops asks the look threshold of the frame's faces only
// where it could have hidden a misread: a spot as strong as a die that the network reads as a
// die, not one it calls bare, and not a weak one.
func TestHidFaces(t *testing.T) {
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	boxes, files := readBoxes(t, "nell-byler")
	img := readPhoto(t, files[0])
	defer img.Close()
	die := dieAt(boxes[files[0]][0])
	// A patch of bare tray, die-sized, as far from every die as the photo allows.
	bare, far := die, -1.0
	for y := 60; y < img.Rows()-60; y += 20 {
		for x := 60; x < img.Cols()-60; x += 20 {
			near := math.Inf(1)
			for _, b := range boxes[files[0]] {
				d := dieAt(b)
				near = min(near, math.Hypot(float64(x)-d.x, float64(y)-d.y))
			}
			if near > far {
				far, bare.x, bare.y = near, float64(x), float64(y)
			}
		}
	}
	th := r.m.th
	weak := die
	weak.peak = th.Peak / 2
	for _, tc := range []struct {
		name  string
		spots []cand
		want  bool
	}{
		{"none", nil, false},
		{"a die", []cand{die}, true},
		{"a die under the peak threshold", []cand{weak}, false},
		{"bare tray", []cand{bare}, false},
		{"bare tray and a die", []cand{bare, die}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.m.hidFaces(img, tc.spots, th)
			if err != nil || got != tc.want {
				t.Errorf("hidFaces = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
