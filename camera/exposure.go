package camera

import "gocv.io/x/gocv"

// clipLevel is the level, of 255, that all three channels of a pixel clipped white reach.
const clipLevel = 250

// overShare is the share of a picture's pixels clipped white from which it counts as
// overexposed (see Overexposed). No shared photo reaches a fiftieth of it (0.02% at most);
// brightened 1.4 times, as `dice bench --vary bright1.4` does, ivory dice on pale wood clip
// white with the wood.
const overShare = 0.01

// Overexposed returns the share of a BGR picture's pixels clipped white and whether it
// reaches overShare. A white die on a pale tray then has no edge left against it: calibration
// and cantstop doctor say so, and what to change. It looks at every other row and every third
// column.
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
