package preview

import (
	"fmt"
	"image"
	"strings"

	"gocv.io/x/gocv"
)

// ANSI draws a BGR frame as cols×rows terminal cells in 24-bit colour: each
// cell is an upper half block whose foreground is one pixel and background
// the pixel below, so the picture is cols×(2·rows) pixels, its aspect kept
// (terminal cells are about twice as tall as wide) and centred.
func ANSI(frame gocv.Mat, cols, rows int) string {
	if frame.Empty() || cols < 1 || rows < 1 {
		return ""
	}
	w, h := frame.Cols(), frame.Rows()
	pw, ph := cols, cols*h/w
	if ph > 2*rows {
		pw, ph = 2*rows*w/h, 2*rows
	}
	pw, ph = max(1, pw), max(2, ph&^1)
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(frame, &small, image.Pt(pw, ph), 0, 0, gocv.InterpolationArea)
	pad := strings.Repeat(" ", (cols-pw)/2)
	var b strings.Builder
	for y := 0; y < ph; y += 2 {
		b.WriteString(pad)
		for x := 0; x < pw; x++ {
			t, u := small.GetVecbAt(y, x), small.GetVecbAt(y+1, x)
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm▀", t[2], t[1], t[0], u[2], u[1], u[0])
		}
		b.WriteString("\x1b[0m\n")
	}
	return b.String()
}
