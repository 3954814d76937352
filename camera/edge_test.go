package camera

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestReadCutByEdge: a die cut by the picture's edge shows part of its face, and part of a
// face can fit a smaller one (the row of a 4 cut in half is two pips, a 2). Photos are cut
// through their dice; whatever the reader reports as read must be among the dice its
// labelled boxes say are still in the picture, whole or cut. IMG_20191209_095545 is cut two
// pixels at a time through the black 4 at its left edge and through the dice near its
// bottom. The others are cut where the reader once read the part of a die the cut left as a
// smaller face: its blob did not meet the edge, and the face fitted to its pips ran off the
// picture, or ran to its edge where no blob was found at all (see clearOfEdge).
func TestReadCutByEdge(t *testing.T) {
	type cut struct {
		file string
		keep image.Rectangle
	}
	cuts := []cut{
		{"matteop65/dice_42.jpg", image.Rect(290, 0, 640, 480)},
		{"nell-byler/IMG_20191209_100127.jpg", image.Rect(0, 0, 252, 640)},
		// Faces proposed from the pips a cut left (no blob found on the pale wood): the row
		// of a 4 read as a 2, the column of a 6 as a 3, running to the picture's edge.
		{"matteop65/four_19.jpg", image.Rect(0, 0, 223, 480)},
		{"matteop65/six_25.jpg", image.Rect(0, 0, 124, 480)},
		{"matteop65/six_25.jpg", image.Rect(233, 0, 640, 480)},
		// Half a 2 cut through its diagonal: one pip on a blob too narrow for a 1 (cutOne).
		{"matteop65/two_44.jpg", image.Rect(0, 0, 640, 153)},
		{"matteop65/two_44.jpg", image.Rect(361, 0, 640, 480)},
		// The same, read as a 1 by the face networks (netInside).
		{"matteop65/two_6.jpg", image.Rect(0, 0, 640, 187)},
		// A die whose top face is cut off, refused as ambiguous: the four pips of its side
		// face settle nothing (see pipDice).
		{"matteop65/two_35.jpg", image.Rect(135, 0, 640, 480)},
		// Cut below its dice: a speck voting alone for the die's size made them too big to
		// be dice, and the speck a 1 (minDieShare).
		{"nell-byler/IMG_20191208_112517.jpg", image.Rect(0, 0, 640, 423)},
		// Cut beside a laptop: two keys' letters, their strokes taken out as glare, leave
		// two spots read as a 2 (unglare's network check).
		{"matteop65/five_31.jpg", image.Rect(251, 0, 640, 480)},
		// Half a 3 or a 5 read as a 2 from the directed hue map (see readFaceShaped: it reads
		// only faces of three pips or more).
		{"nell-byler/IMG_20191208_112419.jpg", image.Rect(0, 253, 640, 640)},
		{"matteop65/five_31.jpg", image.Rect(236, 0, 640, 480)},
	}
	for x := 4; x <= 40; x += 2 {
		cuts = append(cuts, cut{"nell-byler/IMG_20191209_095545.jpg", image.Rect(x, 0, 640, 640)})
	}
	for y := 402; y <= 432; y += 2 {
		cuts = append(cuts, cut{"nell-byler/IMG_20191209_095545.jpg", image.Rect(0, 0, 640, y)})
	}
	boxes := map[string][]labelBox{}
	for _, set := range []string{"nell-byler", "matteop65"} {
		photos, err := loadLabels(filepath.Join("testdata", "dice", set))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range photos {
			boxes[set+"/"+p.file] = p.boxes
		}
	}
	imgs := map[string]gocv.Mat{}
	defer func() {
		for _, m := range imgs {
			m.Close()
		}
	}()
	r := NewReader(DefaultReaderOpts())
	refused := 0
	for _, c := range cuts {
		if len(boxes[c.file]) == 0 {
			t.Fatalf("%s: no labelled boxes", c.file)
		}
		var there []int // the values of the dice still in the picture, whole or cut
		for _, b := range boxes[c.file] {
			if b.r.Overlaps(c.keep) {
				there = append(there, b.value)
			}
		}
		img, ok := imgs[c.file]
		if !ok {
			img = testPhoto(t, c.file)
			imgs[c.file] = img
		}
		part := img.Region(c.keep)
		m := part.Clone()
		part.Close()
		rd := r.Read(m)
		m.Close()
		if rd.Status == StatusRead && intersect(there, rd.Values()) != len(rd.Values()) {
			t.Errorf("%s cut to %v: read %v, but the dice in it are %v", c.file, c.keep, rd.Values(), there)
		}
		for _, d := range rd.Dice {
			if strings.Contains(d.Why, "partly outside") {
				refused++
				break
			}
		}
	}
	if refused == 0 {
		t.Error("no cut holds a die refused as partly outside the picture: the test no longer cuts through dice")
	}
}

// TestReadShadowAtEdge: a die near the picture's edge whose shadow alone reaches it is read
// (wholeAtEdge). Both dice were refused as partly outside the picture, their photos unread:
// IMG_20191209_095545's black 4 with its shadow to the left, and IMG_20191209_095721's blue 3
// with its side face's 6 beside it. TestReadCutByEdge cuts the same 4 two pixels at a time,
// where it must be refused or read as a 4.
func TestReadShadowAtEdge(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		file string
		want string
		at   image.Point // the die at the edge
		v    int
	}{
		{"nell-byler/IMG_20191209_095545.jpg", "[4 4 4 5 5 5]", image.Pt(20, 431), 4},
		{"nell-byler/IMG_20191209_095721.jpg", "[1 1 2 3 3 5]", image.Pt(30, 220), 3},
	} {
		img := testPhoto(t, c.file)
		rd := r.Read(img)
		img.Close()
		if rd.Status != StatusRead || fmt.Sprint(rd.Values()) != c.want {
			t.Errorf("%s: %s %v (%s), want read %s", c.file, rd.Status, rd.Values(), rd.Why, c.want)
			continue
		}
		found := false
		for _, d := range rd.Dice {
			found = found || c.at.In(d.Box) && d.Value == c.v
		}
		if !found {
			t.Errorf("%s: no %d read at %v: %v", c.file, c.v, c.at, rd.Dice)
		}
	}
}

// TestBodyChord: along the picture's edge, a die's body is told from its shadow by colour.
// A black square on a grey tray meets the left edge along its side; the same square a few
// pixels in, its shadow (the tray 30 levels darker) running to the edge, meets it nowhere.
func TestBodyChord(t *testing.T) {
	const side = 30
	for _, c := range []struct {
		name     string
		x0       int // the square's left edge
		min, max float64
	}{
		{"cut by the edge", 0, side - 1, side + 1},
		{"shadow to the edge", 6, 0, 0},
	} {
		img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(190, 190, 190, 0), 100, 100, gocv.MatTypeCV8UC3)
		gocv.Rectangle(&img, image.Rect(0, 40, c.x0+side, 40+side), color.RGBA{160, 160, 160, 0}, -1)
		gocv.Rectangle(&img, image.Rect(c.x0, 40, c.x0+side, 40+side), color.RGBA{30, 30, 30, 0}, -1)
		r := rotRect{cx: float64(c.x0+side)/2 - 0.5, cy: 40 + side/2 - 0.5, w: float64(c.x0 + side), h: side}
		runs := edgesMet(r, img.Cols(), img.Rows())
		if len(runs) != 1 || runs[0].at.Min.X != 0 || runs[0].at.Dx() != 1 {
			t.Fatalf("%s: edges met %v, want the left edge only", c.name, runs)
		}
		got := bodyChord(img, runs[0])
		img.Close()
		if got < c.min || got > c.max {
			t.Errorf("%s: body along the edge %.0f px, want %.0f to %.0f", c.name, got, c.min, c.max)
		}
	}
}
