package camera

import (
	"fmt"
	"math"
	"testing"
)

// huePatch is a P×P Lab patch of a face of colour (a, b), lightness 100, with pips of colour
// (pa, pb) on a 2×2 grid (a 4's corners) and, when vein is not zero, stripes of the face's
// colour shifted by vein along b (a marbled die).
func huePatch(P int, a, b, pa, pb, vein float64) []byte {
	lab := make([]byte, 3*P*P)
	c := float64(P) / 2
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := 3 * (y*P + x)
			la, lb := a, b
			if vein != 0 && (x+y)%6 < 2 {
				lb += vein
			}
			for _, q := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
				if math.Hypot(float64(x)-c-q[0]*float64(P)/8, float64(y)-c-q[1]*float64(P)/8) < float64(P)/20 {
					la, lb = pa, pb
				}
			}
			lab[i], lab[i+1], lab[i+2] = 100, byte(la), byte(lb)
		}
	}
	return lab
}

// TestPipHue: the pips' hue is found on a marbled face whose veins differ in another hue
// (magenta pips on blue), and on a grey face (red pips on smoky); pips that only lose the
// face's hue (white on red, as glare does) give no direction.
func TestPipHue(t *testing.T) {
	const P = 64
	inFace := func(x, y int) bool { return math.Abs(float64(x)-P/2) < 0.38*P/2 && math.Abs(float64(y)-P/2) < 0.38*P/2 }
	for _, c := range []struct {
		name               string
		a, b, pa, pb, vein float64
		ok                 bool
	}{
		{"magenta on marbled blue", 133, 88, 173, 108, 30, true},
		{"red on smoky grey", 128, 128, 168, 148, 0, true},
		{"white on red", 178, 158, 128, 128, 0, false},
		{"pale pink on red", 178, 158, 150, 140, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			lab := huePatch(P, c.a, c.b, c.pa, c.pb, c.vein)
			M := make([]float64, P*P)
			inner := hueMap(M, lab, P, inFace, c.a, c.b, 0, 0, nil)
			ua, ub, ok := pipHue(M, lab, P, inFace, quantile(inner, 0.9), c.a, c.b)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			want := math.Atan2(c.pb-c.b, c.pa-c.a)
			if d := math.Abs(math.Atan2(ub, ua) - want); d > 5*math.Pi/180 {
				t.Errorf("direction (%.2f, %.2f), %.1f° from the pips' hue", ua, ub, d*180/math.Pi)
			}
			// Along that hue the pips keep their contrast and the veins lose most of theirs.
			D := make([]float64, P*P)
			hueMap(D, lab, P, inFace, c.a, c.b, ua, ub, nil)
			pip := (P/2-P/8)*P + P/2 - P/8 // a pip's centre
			if D[pip] < 0.95*M[pip] {
				t.Errorf("directed map: pip %.0f, plain %.0f", D[pip], M[pip])
			}
			if vein := (P/2)*P + P/2 - 3; c.vein != 0 && D[vein] > M[vein]/2 { // (x+y)%6 < 2
				t.Errorf("directed map: vein %.0f, plain %.0f", D[vein], M[vein])
			}
		})
	}
}

// TestReadDirectedHue: a marbled blue 4 with magenta pips, whose plain hue map is as strong in
// its veins as at its pips, is read from the directed map; a translucent red 4's glare streak,
// white like its pips, makes no fifth pip there (IMG_20191209_100602 under gamma0.7, its
// midtones lifted: read as a 5 while pipHue took any direction).
func TestReadDirectedHue(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	rd := readPhoto(t, r, "nell-byler/IMG_20191208_112451.jpg")
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != "[1 2 3 4 6]" {
		t.Errorf("IMG_20191208_112451: %s %s (%s), want read [1 2 3 4 6]", rd.Status, got, rd.Why)
	}
	testVaried(t, []variedCase{{"gamma0.7", "nell-byler/IMG_20191209_100602.jpg", "[4 5 6]"}})
}
