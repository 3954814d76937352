package camera

import (
	"fmt"
	"image"
	"path"
	"path/filepath"
	"testing"
)

// TestShadowless: IMG_20191208_112447's small dark 2, whose blob holds its shadow, is read
// only once the photo is read again at the size of the dice with the tray in shade taken
// out, and so is matteop65/five_34.jpg's 5 under gamma1.5, refused by stable in the first
// reading (it reads 6 in a wider and a narrower square) and passed by it in the second; and that second reading must never misread what the first refused. Each photo cut
// below (as the cut bench does) is misread by the second reading under looser rules than
// completes': five_34, a cut 5 read as a 1 where the second reading loses dice (without
// the one-to-one rule); two_35, a 2 cut by the picture's left edge read as a 4 (without
// the edge rule); three_36, a cut 3 read as the 2 that netConfirm refused (without the
// sureness rule); IMG_20191209_095929, a cut 2 read as a 5 with
// confidence 0.42 (without the sureness rule).
func TestShadowless(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	rd := readPhoto(t, r, "nell-byler/IMG_20191208_112447.jpg")
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != "[2 3 5 6 6]" {
		t.Errorf("IMG_20191208_112447: %s %s (%s), want read [2 3 5 6 6]", rd.Status, got, rd.Why)
	}
	rd = readVaried(t, r, "gamma1.5", "matteop65/five_34.jpg")
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != "[5 5 5 5]" {
		t.Errorf("five_34 under gamma1.5: %s %s (%s), want read [5 5 5 5]", rd.Status, got, rd.Why)
	}
	for _, c := range []struct {
		file string
		keep image.Rectangle
	}{
		{"matteop65/five_34.jpg", image.Rect(0, 0, 640, 187)},
		{"matteop65/two_35.jpg", image.Rect(135, 0, 640, 480)},
		{"matteop65/three_36.jpg", image.Rect(0, 0, 640, 239)},
		{"nell-byler/IMG_20191209_095929.jpg", image.Rect(0, 274, 640, 640)},
	} {
		there := keptBoxes(labelledBoxes(t, c.file), c.keep)
		img := testPhoto(t, c.file)
		part := img.Region(c.keep)
		cut := part.Clone()
		part.Close()
		img.Close()
		rd := r.Read(cut)
		cut.Close()
		if rd.Status == StatusRead && wrongValue(there, rd) {
			t.Errorf("%s cut to %v: read %v, dice there %v", c.file, c.keep, rd.Values(), boxValues(there))
		}
	}
}

// labelledBoxes returns the labelled boxes of a testdata photo ("set/file").
func labelledBoxes(t *testing.T, file string) []labelBox {
	t.Helper()
	ls, err := loadLabels(filepath.Join("testdata", "dice", path.Dir(file)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		if l.file == path.Base(file) {
			if len(l.boxes) == 0 {
				t.Fatalf("%s: no boxes in boxes.csv", file)
			}
			return l.boxes
		}
	}
	t.Fatalf("%s: not in labels.csv", file)
	return nil
}

// TestCompletes: the second reading stands for the first only where it reads the same dice,
// keeps every value read, and reads each die refused surely, away from the picture's edge.
func TestCompletes(t *testing.T) {
	die := func(v, x int, conf float64) Die {
		return Die{Value: v, Box: image.Rect(x, 0, x+20, 20), Confidence: conf}
	}
	refused := die(0, 100, 0)
	doubted := refused
	doubted.doubted = 3
	atEdge := refused
	atEdge.src.edge = true
	readAtEdge := die(3, 102, 0.9)
	readAtEdge.src.edge = true
	first := []Die{die(4, 0, 0.8), refused}
	for _, c := range []struct {
		name  string
		first []Die
		alt   []Die
		want  bool
	}{
		{"refused die read surely", first, []Die{die(4, 2, 0.5), die(3, 102, 0.9)}, true},
		{"read die changed", first, []Die{die(5, 2, 0.9), die(3, 102, 0.9)}, false},
		{"refused die read unsurely", first, []Die{die(4, 2, 0.5), die(3, 102, 0.6)}, false},
		{"still refused", first, []Die{die(4, 2, 0.5), die(0, 102, 0.9)}, false},
		{"die lost", first, []Die{die(3, 102, 0.9)}, false},
		{"die lost, another added", first, []Die{die(4, 2, 0.5), die(3, 200, 0.9)}, false},
		{"die added", first, []Die{die(4, 2, 0.5), die(3, 102, 0.9), die(2, 300, 0.9)}, false},
		{"one die for two", []Die{refused, die(0, 104, 0)}, []Die{die(3, 102, 0.9), die(5, 300, 0.9)}, false},
		{"read as the value a check refused", []Die{die(4, 0, 0.8), doubted}, []Die{die(4, 2, 0.5), die(3, 102, 0.9)}, true},
		{"refused at the edge", []Die{die(4, 0, 0.8), atEdge}, []Die{die(4, 2, 0.5), die(3, 102, 0.9)}, false},
		{"read at the edge", first, []Die{die(4, 2, 0.5), readAtEdge}, false},
	} {
		if got := completes(c.first, c.alt); got != c.want {
			t.Errorf("%s: completes %v, want %v", c.name, got, c.want)
		}
	}
}
