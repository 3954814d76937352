package camera

import (
	"fmt"
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// Annotate returns a copy of frame with each die's box, its pips and its value drawn in, and the
// reading's status in the top-left corner. Read dice are green, unreadable ones red; a value
// read by the face network rather than from its pips is marked "net", one read with a glare
// streak taken out "glare". The caller closes the result.
func Annotate(frame gocv.Mat, rd Reading) gocv.Mat {
	out := frame.Clone()
	if out.Empty() {
		return out
	}
	green := color.RGBA{0, 200, 0, 255}
	red := color.RGBA{230, 0, 0, 255}
	yellow := color.RGBA{255, 220, 0, 255}
	scale := float64(max(out.Cols(), out.Rows())) / 800
	thick := max(1, int(scale*2))
	for _, d := range rd.Dice {
		c := green
		label := fmt.Sprint(d.Value)
		if d.Value == 0 {
			c, label = red, "?"
		} else if d.Net {
			label += " net"
		} else if d.Glare {
			label += " glare"
		}
		gocv.Rectangle(&out, d.Box, c, thick)
		for _, p := range d.Pips {
			gocv.Circle(&out, p, max(2, d.Box.Dx()/12), yellow, thick)
		}
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

// black is the border value for warps (unused with BorderReplicate, but required).
func black() color.RGBA { return color.RGBA{0, 0, 0, 255} }
