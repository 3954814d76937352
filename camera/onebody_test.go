package camera

import (
	"fmt"
	"strings"
	"testing"
)

// TestReadOneBody: ivory dice on pale wood seen by another rig, where a die's side face was
// read as a die of its own beside its top face, from pips or a blob of its own (two_26
// upside down: a 2 and four pips of its side face's 6 read as a 4; dice_13: a 1 and its
// side face's 3; four_3: half of a 4 read as a 2 beside a 1; dice_42: a 1 and its side
// face read as a 2). No seam parts the two faces, so they are one die, and refused.
func TestReadOneBody(t *testing.T) {
	testVaried(t, []variedCase{
		{"rot180", "matteop65/two_26.jpg", "[2 2 2]"},
		{"gamma1.5", "matteop65/dice_13.jpg", "[1 1]"},
		{"scale0.6", "matteop65/dice_13.jpg", "[1 1]"},
		{"gamma0.7", "matteop65/four_3.jpg", "[4]"},
		{"bright0.6", "matteop65/dice_42.jpg", "[1 1 1 1 1]"},
	})
}

// TestReadSidePipsBeside: a side face's pips boxed as a die of their own, less than half as
// wide as the die they touch with no seam between (dice_13 blurred: a 1 and its side face's
// 3 read as a 2 beside it), are that die's side face and no die.
func TestReadSidePipsBeside(t *testing.T) {
	testVaried(t, []variedCase{
		{"blur", "matteop65/dice_13.jpg", "[1 1]"},
	})
}

// TestReadSideOneBelow: a 1 cut from one die's blob is boxed no bigger than its side face,
// so whether it lies within 1.2 die sides of the face beside it is measured by that face's
// box, not the mean of the two (two_9 blurred: a 2 and the 1 of its own side face, their
// centres 1.06 of the 2's side apart but 1.4 of the mean box).
func TestReadSideOneBelow(t *testing.T) {
	testVaried(t, []variedCase{
		{"blur", "matteop65/two_9.jpg", "[2]"},
	})
}

// TestReadSideFaceBelow: of a top face and its own side face with no seam between, the side
// face is the smaller one below (sideBelow): a camera over a tray sees the side faces turned
// towards it below the top faces. three_5 and four_43 blurred (a 3 over its side face's 3, a
// 4 over a 3), dice_13 brighter in the midtones (a 1 over a 3): the top face is read. Turned
// upside down, the side face lies above: nothing then says which is the top face, and the
// pair stays refused (dice_13; the other two are then read otherwise, never wrong).
func TestReadSideFaceBelow(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		vary, file, want string
		pairUpsideDown   bool // turned upside down, the pair is still seen and refused
	}{
		{"blur", "matteop65/three_5.jpg", "[3]", false},
		{"blur", "matteop65/four_43.jpg", "[4 4 4 4 4]", false},
		{"gamma1.5", "matteop65/dice_13.jpg", "[1 1]", true},
	} {
		t.Run(c.vary+"/"+c.file, func(t *testing.T) {
			rd := readVaried(t, r, c.vary, c.file)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Errorf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
			}
			flipped := readVariedTwice(t, r, c.vary, "rot180", c.file)
			if !subOf(flipped.Values(), c.want) || c.pairUpsideDown && !strings.Contains(flipped.Why, "no seam between them") {
				t.Errorf("upside down: %s %v (%s), want %s or some of it, the pair refused: %v", flipped.Status, flipped.Values(), flipped.Why, c.want, c.pairUpsideDown)
			}
		})
	}
}

// readVariedTwice reads a testdata photo changed by two named variations, a then b.
func readVariedTwice(t *testing.T, r *Reader, a, b, file string) Reading {
	t.Helper()
	va, err := VariationNamed(a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := VariationNamed(b)
	if err != nil {
		t.Fatal(err)
	}
	img := testPhoto(t, file)
	defer img.Close()
	once := va(img)
	defer once.Close()
	twice := vb(once)
	defer twice.Close()
	return r.Read(twice)
}
