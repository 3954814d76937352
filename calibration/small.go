package calibration

import "fmt"

// MinSidePx is the smallest die side, in pixels, at which the reader is measured to read about
// as well as on the shared photos' own sizes (dice about 37 px wide, as calibration measures
// them; 86.7% of the photos read exactly, none misread but two with wrong labels). Shrunk to
// 0.6 (dice about 22 px) they read 82.5%, none misread; shrunk to 0.5 and below (19 px and
// less, pips of 3–4 px) 80% to 73%, and up to 3 of 445 misread (BENCHMARKS-dice.md, "How
// small dice may be").
const MinSidePx = 20

// Small says, when the dice are smaller in the picture than MinSidePx, what is wrong and how to
// fix it, or "" when they are not: the rig, not the reader, must change, and calibration (or
// cantstop doctor) is when to say so.
func (d Dice) Small() (problem, fix string) {
	if d.SidePx <= 0 || d.SidePx >= MinSidePx {
		return "", ""
	}
	return fmt.Sprintf("the dice are %.0f pixels wide in the picture, under the %d the reader needs to tell pips apart reliably",
			d.SidePx, MinSidePx),
		"lower the camera, zoom in, or give the camera a higher resolution (for example --camera rpicam:1280x960), then calibrate again"
}
