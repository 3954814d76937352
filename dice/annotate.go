package dice

import (
	"fmt"
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// Annotate returns a copy of frame with each die's box and value drawn in, and the reading's
// status in the top-left corner. Read dice are green with their value; unread ones red, marked
// "?". The caller closes the result.
func Annotate(frame gocv.Mat, rd Reading) gocv.Mat {
	out := frame.Clone()
	if out.Empty() {
		return out
	}
	green := color.RGBA{0, 200, 0, 255}
	red := color.RGBA{230, 0, 0, 255}
	scale := float64(max(out.Cols(), out.Rows())) / 800
	thick := max(1, int(scale*2))
	for _, d := range rd.Dice {
		c := green
		label := fmt.Sprint(d.Value)
		if d.Value == 0 {
			c, label = red, "?"
		}
		gocv.Rectangle(&out, d.Box, c, thick)
		org := image.Pt(d.Box.Min.X, d.Box.Min.Y-3)
		if org.Y < 12 {
			org.Y = d.Box.Max.Y + int(14*scale+4)
		}
		gocv.PutText(&out, label, org, gocv.FontHersheySimplex, 0.6*scale+0.2, c, thick)
	}
	msg := rd.Status.String()
	if v := rd.Values(); len(v) > 0 {
		msg += fmt.Sprint(" ", v)
	}
	if rd.Why != "" {
		msg += ": " + rd.Why
	}
	sc := green
	if rd.Status != StatusRead {
		sc = red
	}
	gocv.PutText(&out, msg, image.Pt(8, int(20*scale+8)), gocv.FontHersheySimplex, 0.5*scale+0.15, sc, thick)
	return out
}
