package camera

import "testing"

// TestNetDoubt: a 1 read from its pip that both face networks see as another value is
// refused. Brightened or recompressed, the glare streak over one pip of
// nell-byler/IMG_20191208_112510's green 2 takes that pip with it, and the other, a little
// off the face's centre, reads as a 1 at every pip threshold; with sensor noise, the lowest
// pip of matteop65/four_3's 4, turned 45°, sits in an outline like a 1's. Both networks see
// the 2 and the 4. Each photo was read with the wrong value before netDoubt.
func TestNetDoubt(t *testing.T) {
	testVaried(t, []variedCase{
		{"bright1.4", "nell-byler/IMG_20191208_112510.jpg", "[1 2 3 4 5]"},
		{"jpeg40", "nell-byler/IMG_20191208_112510.jpg", "[1 2 3 4 5]"},
		{"noise8", "matteop65/four_3.jpg", "[4]"},
	})
}
