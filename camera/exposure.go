package camera

import (
	"fmt"

	"gocv.io/x/gocv"
)

const (
	// dimLevel is the level, of 255, below which a picture's highlights (see highlights) say
	// it is underexposed. The reader's contrasts are in absolute levels (MinContrast, the
	// pips' and the free places' contrasts), set on photos whose highlights lie at 190 to 255;
	// a dim rig's picture is stretched up to this level first, so the same dice read alike.
	// No shared photo lies below it, so their readings do not change.
	dimLevel = 190
	// maxGain bounds the stretch: a picture darker than that holds too few levels, and too
	// much noise, to make up.
	maxGain = 3
	// highShare is the share of pixels brighter than a picture's highlights level.
	highShare = 0.005
)

// clipLevel is the level, of 255, that all three channels of a pixel clipped white reach.
const clipLevel = 250

// overShare is the share of a picture's pixels clipped white from which it counts as
// overexposed (see Overexposed). No shared photo reaches a fiftieth of it (0.02% at most);
// brightened 1.4 times, as `dice bench --vary bright1.4` does, 96 of the 98 photos that
// are then no longer read exactly do, their ivory dice on pale wood clipped white with it.
const overShare = 0.01

// pixels returns a BGR picture's bytes, a copy's when it is a region of a bigger one (a
// calibrated tray's), with the function that frees that copy; false when it is not 8-bit.
func pixels(img gocv.Mat) ([]byte, func(), bool) {
	done := func() {}
	if !img.IsContinuous() {
		c := img.Clone()
		img, done = c, func() { c.Close() }
	}
	b, err := img.DataPtrUint8()
	if err != nil {
		done()
		return nil, nil, false
	}
	return b, done, true
}

// highlights is the level, 0-255, that the brightest highShare of a BGR picture's pixels
// reach in their brightest channel, over every other row and every third column.
func highlights(img gocv.Mat) int {
	b, done, ok := pixels(img)
	if !ok {
		return 255 // not 8-bit: leave the picture alone
	}
	defer done()
	w, h := img.Cols(), img.Rows()
	var hist [256]int
	n := 0
	for y := 0; y < h; y += 2 {
		row := b[3*y*w : 3*(y+1)*w]
		for x := 0; x+2 < len(row); x += 6 {
			hist[max(row[x], row[x+1], row[x+2])]++
			n++
		}
	}
	c := 0
	for v := 255; v > 0; v-- {
		if c += hist[v]; float64(c) >= highShare*float64(n) {
			return v
		}
	}
	return 0
}

// Overexposed returns the share of a BGR picture's pixels clipped white and whether it
// reaches overShare. A white die on a pale tray then has no edge left against it, and
// Read's refusals say so (a die the reader does not find is no refusal: with Expect set,
// the count is wrong). It walks the pixels as highlights does, in a loop of its own: one
// shared through a callback per pixel made highlights, run on every frame, 2.6× slower.
func Overexposed(img gocv.Mat) (float64, bool) {
	b, done, ok := pixels(img)
	if !ok {
		return 0, false
	}
	defer done()
	w, h := img.Cols(), img.Rows()
	n, c := 0, 0
	for y := 0; y < h; y += 2 {
		row := b[3*y*w : 3*(y+1)*w]
		for x := 0; x+2 < len(row); x += 6 {
			n++
			if min(row[x], row[x+1], row[x+2]) >= clipLevel {
				c++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	share := float64(c) / float64(n)
	return share, share >= overShare
}

// overexposedHint is what Read adds to the reason for a reading it could not give, of a
// picture with share of it clipped white.
func overexposedHint(share float64) string {
	return fmt.Sprintf("the picture is overexposed (%.0f%% of it clipped white), which hides white dice on a pale tray: lower the camera's exposure (cantstop calibrate --exposure, or --shutter and --gain for a Pi camera)", 100*share)
}

// brightened returns a copy of img stretched so its highlights reach dimLevel (at most
// maxGain times), and true; or img itself and false when it is not underexposed. A
// calibrated rig keeps its pictures as they are: its exposure is fixed, and its profile's
// colours and contrasts were measured on them.
func brightened(img gocv.Mat) (gocv.Mat, bool) {
	hi := highlights(img)
	if hi >= dimLevel {
		return img, false
	}
	gain := min(float64(dimLevel)/float64(max(hi, 1)), maxGain)
	out := gocv.NewMat()
	img.ConvertToWithParams(&out, gocv.MatTypeCV8UC3, float32(gain), 0)
	return out, true
}
