package camera

import (
	"image"
	"testing"
)

// TestReadPolarised: gold metallic dice whose glare touches their dark pips (IMG_20191209_100200:
// a 4's two left pips merge with the glare into one light blob; its 2s and a 3 show dark and
// light spots in no layout; 100150: a 4 and a 5 among patches of glare) are read from their
// darker spots alone, and a green die's yellow pips beside the dark red marbling of its edges
// (100337) from its lighter ones.
func TestReadPolarised(t *testing.T) {
	testReads(t, []readCase{
		{"nell-byler/IMG_20191209_100200.jpg", "[2 2 3 3 4 4]"},
		{"nell-byler/IMG_20191209_100150.jpg", "[1 4 4 5 5 5]"},
		{"nell-byler/IMG_20191209_100337.jpg", "[1 4 5 5 6 6]"},
	})
}

// TestReadPolarisedRefuses: a face read from one polarity only is a fallback, so it must be
// read at two pip thresholds (IMG_20191209_100602 darker: a translucent red 4 whose back
// pips show through as a light bar fits a 5 at one; dice_23 with gamma 1.5: a laptop key's
// lit symbol fits a 1 at one).
func TestReadPolarisedRefuses(t *testing.T) {
	testVaried(t, []variedCase{
		{"bright0.6", "nell-byler/IMG_20191209_100602.jpg", "[4 5 6]"},
		{"gamma1.5", "matteop65/dice_23.jpg", "[1 1 1]"},
	})
}

// TestReadPolarisedCentred: a face read from one polarity must lie at its candidate's centre.
// In IMG_20191208_111457 darkened, a 1 touching a 5 is a candidate whose patch holds the 5's
// white pips at its edge; read from them, it took the 5's place and the 1 went unreported.
func TestReadPolarisedCentred(t *testing.T) {
	rd := readVaried(t, NewReader(DefaultReaderOpts()), "bright0.6", "nell-byler/IMG_20191208_111457.jpg")
	one := image.Rect(393, 171, 431, 209) // boxes.csv
	for _, d := range rd.Dice {
		if c := d.Box.Min.Add(d.Box.Max).Div(2); c.In(one) {
			if d.Value != 0 && d.Value != 1 {
				t.Errorf("the 1 at %v read as %d", one, d.Value)
			}
			return
		}
	}
	t.Errorf("%s %v: no die reported at the 1 at %v", rd.Status, rd.Values(), one)
}
