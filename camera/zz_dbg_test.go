package camera

import (
	"fmt"
	"image"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

func TestZZDbg(t *testing.T) {
	m := gocv.IMRead(os.Getenv("IMG"), gocv.IMReadColor)
	defer m.Close()
	o := DefaultReaderOpts()
	o.Expect = 4
	var x0, y0 int
	fmt.Sscan(os.Getenv("TRAY"), &x0, &y0)
	o.Tray = image.Rect(x0, y0, m.Cols()-x0, m.Rows()-y0)
	rd := NewReader(o).Read(m)
	for _, d := range rd.Dice {
		fmt.Println(d.Value, d.Box, d.Pips, d.Confidence, d.Why)
	}
	fmt.Println(rd.Status, rd.Why)
}
