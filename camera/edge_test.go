package camera

import (
	"image"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadCutByEdge: a die cut by the picture's edge shows part of its face, and part of a
// face can fit a smaller one (the column of a 4 cut in half is two pips in a row). The
// photo is cut, two pixels at a time, through the black 4 at its left edge and through the
// dice near its bottom; whatever the reader reports as read must be among the dice its
// labelled boxes say are still whole. Reading a die whose blob meets the picture's edge when the face read lies
// inside it was tried (the die here lies whole inside, 3 px from the edge, and is refused):
// cut 10 and 12 px in, this 4 was read as a 2.
func TestReadCutByEdge(t *testing.T) {
	const file = "IMG_20191209_095545.jpg"
	photos, err := loadLabels(filepath.Join("testdata", "dice", "nell-byler"))
	if err != nil {
		t.Fatal(err)
	}
	var boxes []labelBox
	for _, p := range photos {
		if p.file == file {
			boxes = p.boxes
		}
	}
	if len(boxes) != 6 {
		t.Fatalf("%s: %d labelled boxes, want 6", file, len(boxes))
	}
	r := NewReader(DefaultReaderOpts())
	img := testPhoto(t, "nell-byler/"+file)
	defer img.Close()
	var keeps []image.Rectangle // through the 4 at x 3-42, y 412-451; the 5 and the 4 above it
	for x := 4; x <= 40; x += 2 {
		keeps = append(keeps, image.Rect(x, 0, img.Cols(), img.Rows()))
	}
	for y := 402; y <= 432; y += 2 {
		keeps = append(keeps, image.Rect(0, 0, img.Cols(), y))
	}
	refused := 0
	for _, keep := range keeps {
		var whole []int // the values of the dice wholly inside
		for _, b := range boxes {
			if b.r.In(keep) {
				whole = append(whole, b.value)
			}
		}
		part := img.Region(keep)
		m := part.Clone()
		part.Close()
		rd := r.Read(m)
		m.Close()
		if rd.Status == StatusRead && intersect(whole, rd.Values()) != len(rd.Values()) {
			t.Errorf("cut to %v: read %v, but the dice whole inside are %v", keep, rd.Values(), whole)
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
