package camera

import "testing"

// TestReadLostPips holds varied photos in which a pip of a face was lost (in glare, blur or a
// darker picture) or a speck was taken for one, so that the pips left fit a smaller or another
// value: each must be read right, in part, or refused, never read as a wrong value.
func TestReadLostPips(t *testing.T) {
	testVaried(t, []variedCase{
		// A 3's corner pip lost in glare: its centre and other corner read as a 2 of half
		// the spacing, pips wider than √2 spacings.
		{"bright0.6", "nell-byler/IMG_20191209_100006.jpg", "[1 2 3 3 6]"},
		{"bright0.6", "nell-byler/IMG_20191209_100645.jpg", "[1 2 2 3 4 5]"},
		// The other turn of a die read 2 saw such a half-spaced layout: a bigger face.
		{"gamma1.5", "matteop65/dice_12.jpg", "[1 1]"},
		// A dark die's 1: its glossy pip, lighter than the face, and a bevel's dark spot
		// (pips darker and lighter than the face).
		{"scale0.6", "nell-byler/IMG_20191209_100127.jpg", "[1 2 2 4 6]"},
		// A marbled 2 whose speck between its pips, off their line, was taken for a 3's
		// middle pip (more than six dice: no row in labels.csv).
		{"gamma1.5", "nell-byler/IMG_20191209_095735.jpg", "[1 2 2 4 5 5 6 6 6]"},
	})
}

// TestBent checks the measure of a 3's pips off their line.
func TestBent(t *testing.T) {
	for _, c := range []struct {
		pts  [][2]float64
		want float64
	}{
		{[][2]float64{{0, 0}, {5, 5}, {10, 10}}, 0},
		{[][2]float64{{10, 0}, {0, 0}, {5, 2}}, 0.2}, // the middle one listed last
		{[][2]float64{{461, 387}, {454, 390}, {453, 396}}, 0.27},
	} {
		if got := bent(c.pts); got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("bent(%v) = %.3f, want %.2f", c.pts, got, c.want)
		}
	}
}
