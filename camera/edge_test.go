package camera

import (
	"image"
	"strings"
	"testing"
)

// TestReadCutByEdge: a die cut by the picture's edge shows part of its face, and part of a
// face can fit a smaller one (the column of a 4 cut in half is two pips in a row). The
// photo is cut, two pixels at a time, through the black 4 at its left edge and through the
// 5 and the 4 at its bottom; whatever the reader reports as read must be among the dice
// still whole. Reading a die whose blob meets the picture's edge when the face read lies
// inside it was tried (the die here lies whole inside, 3 px from the edge, and is refused):
// cut 10 and 12 px in, this 4 was read as a 2.
func TestReadCutByEdge(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	img := testPhoto(t, "nell-byler/IMG_20191209_095545.jpg")
	defer img.Close()
	const all = "[4 4 4 5 5 5]" // the 4 at x 3-42, y 412-451; the 5 at x 212-247, y 399-434
	type cut struct {
		name string
		keep image.Rectangle
		left string // the dice wholly inside
	}
	var cuts []cut
	for x := 4; x <= 40; x += 2 {
		cuts = append(cuts, cut{"left", image.Rect(x, 0, img.Cols(), img.Rows()), "[4 4 5 5 5]"})
	}
	for y := 402; y <= 432; y += 2 {
		cuts = append(cuts, cut{"bottom", image.Rect(0, 0, img.Cols(), y), "[4 4 5 5]"})
	}
	refused := 0
	for _, c := range cuts {
		part := img.Region(c.keep)
		m := part.Clone()
		part.Close()
		rd := r.Read(m)
		m.Close()
		if rd.Status == StatusRead && !subOf(rd.Values(), c.left) {
			t.Errorf("cut at the %s to %v: read %v, but only %s are whole (%s before the cut)", c.name, c.keep, rd.Values(), c.left, all)
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
