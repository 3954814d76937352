package camera

import "testing"

// TestReadTopBeyond: ivory dice on pale wood seen by another rig, where a die's side face
// was read as a die while its top face was not read at all (two_26 at JPEG 40: four pips of
// a side face read as a 4; two_35 bluer: a side face's 4; two_20 at JPEG 40: a side face's
// 3). Beyond one edge of that face lies its own top face: pips as big and round, as pale
// around them or paler, and no seam between. Refused, with every variation's photo read
// with some of its labels or unreadable.
func TestReadTopBeyond(t *testing.T) {
	testVaried(t, []variedCase{
		{"jpeg40", "matteop65/two_26.jpg", "[2 2 2]"},
		{"blue0.8", "matteop65/two_35.jpg", "[2 2 2 2]"},
		{"jpeg40", "matteop65/two_20.jpg", "[2 2]"},
	})
}

// TestReadPrintedAlike: a laptop key's light symbol on its dark cap read as a 1 beside a die
// of dark pips on a pale face (three_2 smaller and larger). The dice of one game are printed
// alike, so the 1 is refused.
func TestReadPrintedAlike(t *testing.T) {
	testVaried(t, []variedCase{
		{"scale0.6", "matteop65/three_2.jpg", "[3]"},
		{"scale1.5", "matteop65/three_2.jpg", "[3]"},
	})
}
