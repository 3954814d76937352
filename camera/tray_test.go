package camera

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// TestSurfaceRow checks the row-at-a-time form of the tray's quadratic surface against the
// surface's six terms, 1, fx, fy, fx², fy² and fx·fy, as fitBackground fits them.
func TestSurfaceRow(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		var model [3][6]float64
		for c := range model {
			for k := range model[c] {
				model[c][k] = rng.Float64()*200 - 100
			}
		}
		w, h := 17+rng.Intn(300), 17+rng.Intn(300)
		for _, y := range []int{0, h / 3, h - 1} {
			s := surface(model, y, h)
			for _, x := range []int{0, w / 2, w - 1} {
				fx, fy := 2*float64(x)/float64(w)-1, 2*float64(y)/float64(h)-1
				basis := [6]float64{1, fx, fy, fx * fx, fy * fy, fx * fy}
				got := s.at(x, w)
				for c := 0; c < 3; c++ {
					var want float64
					for k := range basis {
						want += model[c][k] * basis[k]
					}
					if math.Abs(got[c]-want) > 1e-9 {
						t.Fatalf("model %v, %dx%d at (%d,%d), channel %d: %g, want %g", model[c], w, h, x, y, c, got[c], want)
					}
				}
			}
		}
	}
}

// TestRing checks ring against a scan of the whole grid that tests every point.
func TestRing(t *testing.T) {
	for _, c := range []struct{ w, h, bw, x0, y0, x1, y1, step int }{
		{256, 192, 7, 0, 0, 256, 192, 1},
		{256, 192, 7, 1, 1, 255, 191, 1},
		{640, 480, 19, 0, 0, 640, 480, 3},
		{641, 479, 19, 0, 0, 641, 479, 4},
		{20, 20, 11, 0, 0, 20, 20, 1}, // border wider than half the picture
		{30, 17, 2, 1, 1, 29, 16, 5},
	} {
		var got, want [][2]int
		ring(c.w, c.h, c.bw, c.x0, c.y0, c.x1, c.y1, c.step, func(x, y int) { got = append(got, [2]int{x, y}) })
		for y := c.y0; y < c.y1; y += c.step {
			for x := c.x0; x < c.x1; x += c.step {
				if x < c.bw || y < c.bw || x >= c.w-c.bw || y >= c.h-c.bw {
					want = append(want, [2]int{x, y})
				}
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%+v: %d points, want %d", c, len(got), len(want))
		}
	}
}
