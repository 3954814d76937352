package calibration

import "fmt"

// MinSidePx is the smallest die side, in pixels, a rig should give. The face network reads a
// square of 1.25 die sides resampled to 40 px, so a 20-px die's pips are 3 px across before
// it is enlarged; the smallest dice in the training photos are about 12 px (epanemu), but
// few, and the held-out rigs' dice are 25-60 px.
const MinSidePx = 20

// Small says, when the dice are smaller in the picture than MinSidePx, what is wrong and how to
// fix it, or "" when they are not: the rig, not the reader, must change, and calibration (or
// cantstop doctor) is when to say so.
func (d Dice) Small() (problem, fix string) {
	if d.SidePx <= 0 || d.SidePx >= MinSidePx {
		return "", ""
	}
	return fmt.Sprintf("the dice are %.0f pixels wide in the picture, under the %d the reader needs to read their faces reliably",
			d.SidePx, MinSidePx),
		"lower the camera, zoom in, or give the camera a higher resolution (for example --camera rpicam:1280x960), then calibrate again"
}
