package camera

import (
	"math"
	"testing"
)

// drawPatch draws a P×P Lab patch (L only varies) of a pale shape on a dark ground, given the
// signed distance from each pixel to the shape's outline (negative inside); the outline is a
// ramp 3 pixels wide, as a camera's lens and pixels soften it.
func drawPatch(P int, dist func(x, y float64) float64) []byte {
	lab := make([]byte, 3*P*P)
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			in := math.Min(1, math.Max(0, 0.5-dist(float64(x), float64(y))/3))
			i := 3 * (y*P + x)
			lab[i], lab[i+1], lab[i+2] = byte(50+150*in), 128, 128
		}
	}
	return lab
}

// TestEdgeTurn checks the die's turn read from its edges on drawn squares turned from -40° to
// 40°, and that a disc, which has no edges to speak of, is far less square than any of them.
func TestEdgeTurn(t *testing.T) {
	const P, S = 96, 48.0
	var bufs floats
	half := float64(P) / 2
	leastSquare := math.Inf(1)
	for deg := -40; deg <= 40; deg += 10 {
		a := float64(deg) * math.Pi / 180
		c, s := math.Cos(a), math.Sin(a)
		lab := drawPatch(P, func(x, y float64) float64 {
			dx, dy := x-half, y-half
			return math.Max(math.Abs(c*dx+s*dy), math.Abs(-s*dx+c*dy)) - 0.4*S
		})
		// Central differences on an outline this sharp overstate the turn by up to about 5%.
		turn, square, _ := edgeTurn(lab, P, S, &bufs)
		if math.Abs(turn-a) > 1.5*math.Pi/180 {
			t.Errorf("square turned %d°: edgeTurn says %.1f°", deg, turn*180/math.Pi)
		}
		leastSquare = math.Min(leastSquare, square)
	}
	disc := drawPatch(P, func(x, y float64) float64 { return math.Hypot(x-half, y-half) - 0.45*S })
	_, square, _ := edgeTurn(disc, P, S, &bufs)
	if square > leastSquare/3 {
		t.Errorf("a disc is %.3f square, the turned squares at least %.3f", square, leastSquare)
	}
}
