package camera

import "testing"

// TestReadSidePips: ivory dice on pale wood seen by another rig (smaller, bluer, darker or
// brighter pictures), where a face's fit took in a side face's pips. A side face's pips are
// lit from another angle and seen more obliquely than the top face's: they contrast less
// (five_44: a 5 and its side face's column read as a 6; two_34: a 2 and a side face's pip
// read as a 3; four_44: a 4's pips and a side face's read as a 5), are flatter and smaller (four_45: a 4 and a side face's pip read as a 5),
// and the face around them is lit differently (dice_22: a 1 and the pip of the side face
// below it read as a 2). The dice must be read right or refused, never read as such a mix.
func TestReadSidePips(t *testing.T) {
	testVaried(t, []variedCase{
		{"scale0.6", "matteop65/five_44.jpg", "[5 5 5 5 5]"}, // the mix reads 6
		{"blue0.8", "matteop65/five_44.jpg", "[5 5 5 5 5]"},  // 6
		{"scale0.6", "matteop65/two_34.jpg", "[2 2 2 2]"},    // 3
		{"blue0.8", "matteop65/four_44.jpg", "[4 4 4 4 4]"},  // 5
		{"gamma1.5", "matteop65/four_45.jpg", "[4 4 4 4 4]"}, // 5
		{"bright1.4", "matteop65/dice_22.jpg", "[1 1 1]"},    // 2
	})
}
