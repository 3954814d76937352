package camera

import (
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
