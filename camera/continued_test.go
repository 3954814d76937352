package camera

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestReadPartOfAFace: ivory dice on pale wood, their colour changed a little (a bluer light,
// a brighter exposure), so that the die's body no longer stands out and the face is fitted to
// part of its pips: two pips of a 4's side read as a 2 (four_3, blue × 0.8), the middle pips
// of a 6's columns read as a 2 (six_3, all channels × 1.4), one pip of a 4 read as a 1
// (four_43, all channels × 1.4), two pips of a 5 whose other pips are lost in glare read as
// a 2 a quarter of its size (five_30, all channels × 1.4: no die of the game is that much
// smaller than another). The face's pips run on beyond the part: the die must be refused,
// never read as the part's value.
func TestReadPartOfAFace(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		file    string
		gain    [3]float64 // per channel, BGR
		labels  string
		partial int // the value the part reads
	}{
		{"matteop65/four_3.jpg", [3]float64{0.8, 1, 1}, "[4]", 2},
		{"matteop65/six_3.jpg", [3]float64{1.4, 1.4, 1.4}, "[6]", 2},
		{"matteop65/four_43.jpg", [3]float64{1.4, 1.4, 1.4}, "[4 4 4 4 4]", 1},
		{"matteop65/five_30.jpg", [3]float64{1.4, 1.4, 1.4}, "[5 5 5]", 2},
	} {
		t.Run(c.file, func(t *testing.T) {
			img := testPhoto(t, c.file)
			defer img.Close()
			lut := gocv.NewMatWithSize(1, 256, gocv.MatTypeCV8UC3)
			defer lut.Close()
			for i := 0; i < 256; i++ {
				for ch := 0; ch < 3; ch++ {
					lut.SetUCharAt(0, i*3+ch, uint8(math.Min(255, math.Round(c.gain[ch]*float64(i)))))
				}
			}
			changed := gocv.NewMat()
			defer changed.Close()
			gocv.LUT(img, lut, &changed)
			rd := r.Read(changed)
			if !subOf(rd.Values(), c.labels) {
				t.Errorf("%s %v (%s): want %s, some of it or unreadable (part of the face reads %d)", rd.Status, rd.Values(), rd.Why, c.labels, c.partial)
			}
		})
	}
}
