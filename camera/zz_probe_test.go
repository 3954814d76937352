package camera

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestZZProbe(t *testing.T) {
	files := strings.Fields(os.Getenv("PROBE"))
	if len(files) == 0 {
		t.Skip()
	}
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	for _, f := range files {
		img := gocv.IMRead(f, gocv.IMReadColor)
		rd := r.Read(img)
		side := dieSide(rd.Dice)
		fmt.Printf("== %s side %.1f values %v\n", f, side, rd.Values())
		for _, d := range rd.Dice {
			if d.Value != 0 {
				continue
			}
			b := d.Box
			step := side / 6
			x0, y0 := float64(b.Min.X)-0.3*side, float64(b.Min.Y)-0.3*side
			x1, y1 := float64(b.Max.X)+0.3*side, float64(b.Max.Y)+0.3*side
			fmt.Printf("-- box %v why %s\n", b, d.Why)
			for y := y0; y <= y1; y += step {
				var line strings.Builder
				for x := x0; x <= x1; x += step {
					in, ok := netInput(img, x, y, netCrop*side)
					if !ok {
						line.WriteString(" ..")
						continue
					}
					p := r.nets[0].probs(in)
					q := r.nets[1].probs(in)
					v := argmax(p)
					w := argmax(q)
					s := 1 - (p[0]+q[0])/2
					c := byte('0' + int(s*9.99))
					if v != w {
						line.WriteString(fmt.Sprintf(" %c?", c))
					} else {
						line.WriteString(fmt.Sprintf(" %c%d", c, v))
					}
				}
				fmt.Println(line.String())
			}
		}
		img.Close()
	}
}
