package camera

import (
	"image"
	"testing"
)

// TestNegativePips: the matteop65 photos as their negative show brown dice with white pips on
// grey wood, as pale as the dice: the tray model finds no die and pipDice proposes none from
// dark pips, so only negativePipDice reads them (before it, each read as no dice at all or
// refused).
func TestNegativePips(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"invert", "matteop65/dice_12.jpg", "[1 1]"},
		{"invert", "matteop65/dice_8.jpg", "[1]"},
		{"invert", "matteop65/three_2.jpg", "[3]"},
		{"invert", "matteop65/three_3.jpg", "[3]"},
		{"invert", "matteop65/six_18.jpg", "[6 6]"},
		{"invert", "matteop65/four_40.jpg", "[4 4 4 4]"},
	})
}

// TestLightPipsSideFace: the checks that a face is no side face of a die whose top face lies
// beyond it look for that top face's pips as dark spots; on a dark die with light pips they
// look for light ones. In the negatives of these photos a die's top face (a 2, a 6) shows
// beside its side face's 6, which reads as a 4 or a 6 of its own; both were read so before
// (two_26 as [2 2 4], six_25 as [3 6 6 6]). six_25 still finds its 3, but the reading is
// refused.
func TestLightPipsSideFace(t *testing.T) {
	testVaried(t, []variedCase{{"invert", "matteop65/two_26.jpg", "[2 2 2]"}})
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	if rd := readVaried(t, r, "invert", "matteop65/six_25.jpg"); rd.Status == StatusRead {
		t.Errorf("negative of six_25: read %v, want it refused (its side face's 6 beside a top face)", rd.Values())
	}
}

// TestNegativeLabelIsNoOne: matteop65/two_9.jpg cut below its 2 (as the cut bench cuts it)
// keeps no die, only a cable's label whose printed dark square has a paler centre: the
// negative pass read it as a 1 before negativeOneSure (at 0.55).
func TestNegativeLabelIsNoOne(t *testing.T) {
	img := testPhoto(t, "matteop65/two_9.jpg")
	defer img.Close()
	top := img.Region(image.Rect(0, 0, img.Cols(), 272))
	defer top.Close()
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	if rd := r.Read(top); rd.Status == StatusRead && len(rd.Values()) > 0 {
		t.Errorf("two_9 above its dice: read %v, want no die", rd.Values())
	}
}
