package camera

import "gocv.io/x/gocv"

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

// highlights is the level, 0-255, that the brightest highShare of a BGR picture's pixels
// reach in their brightest channel, over every other row and column.
func highlights(img gocv.Mat) int {
	if !img.IsContinuous() { // a calibrated tray's region of the frame
		c := img.Clone()
		defer c.Close()
		img = c
	}
	b, err := img.DataPtrUint8()
	if err != nil {
		return 255 // not 8-bit: leave the picture alone
	}
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
