package camera

import (
	"math"
	"testing"
)

// place returns the canonical pips of layout l turned by ang, spaced a apart, centred at (cx,cy).
func place(l [][2]float64, cx, cy, ang, a float64) [][2]float64 {
	f := frame{cx: cx, cy: cy, ang: ang, a: a}
	var out [][2]float64
	for _, p := range l {
		x, y := f.at(p[0], p[1])
		out = append(out, [2]float64{x, y})
	}
	return out
}

func TestFitLayoutCanonical(t *testing.T) {
	for v := 1; v <= 6; v++ {
		for vi, l := range layouts(v) {
			for _, deg := range []float64{0, 10, 30, 44, 60, 89} {
				pts := place(l, 48, 48, deg*math.Pi/180, 13)
				ft, ok := fitLayout(pts, 48)
				if !ok || ft.value != v {
					t.Errorf("value %d variant %d turned %v°: got %d ok=%v", v, vi, deg, ft.value, ok)
					continue
				}
				if v > 1 && (ft.err > 1e-6 || math.Abs(ft.f.a-13) > 1e-6) {
					t.Errorf("value %d turned %v°: err %.3f spacing %.2f", v, deg, ft.err, ft.f.a)
				}
			}
		}
	}
}

// Pip counts that are right but in the wrong places must not fit. (Two pips side by side or a
// five as a cross are a 2 or a 5 turned 45°: only the die's own edges tell, see bestFit.)
func TestFitLayoutRejectsWrongPatterns(t *testing.T) {
	cases := map[string][][2]float64{
		"three in an L":       {{-1, -1}, {1, -1}, {1, 1}},
		"four in a row":       {{-1.5, 0}, {-0.5, 0}, {0.5, 0}, {1.5, 0}},
		"six as a triangle":   {{-1, -1}, {0, -1}, {1, -1}, {-0.5, 0}, {0.5, 0}, {0, 1}},
		"four as a rectangle": {{-1, -0.4}, {1, -0.4}, {-1, 0.4}, {1, 0.4}},
	}
	for name, l := range cases {
		ft, ok := fitLayout(place(l, 48, 48, 0.3, 12), 48)
		if ok && ft.err <= DefaultReaderOpts().MaxLayoutError {
			t.Errorf("%s fits value %d with error %.2f", name, ft.value, ft.err)
		}
	}
}

// Small errors in pip positions (a pip found a little off) still fit, within the limit.
func TestFitLayoutTolerance(t *testing.T) {
	pts := place(layouts(5)[0], 40, 40, 0.2, 12)
	pts[0][0] += 2
	pts[3][1] -= 2
	ft, ok := fitLayout(pts, 48)
	if !ok || ft.value != 5 || ft.err > DefaultReaderOpts().MaxLayoutError {
		t.Errorf("jittered five: %+v ok=%v", ft, ok)
	}
}

func TestMinRect(t *testing.T) {
	// A 20x10 rectangle turned by 30°.
	var xs, ys []float64
	a := 30 * math.Pi / 180
	for u := -10.0; u <= 10; u++ {
		for v := -5.0; v <= 5; v++ {
			xs = append(xs, 50+u*math.Cos(a)-v*math.Sin(a))
			ys = append(ys, 40+u*math.Sin(a)+v*math.Cos(a))
		}
	}
	r := minRect(xs, ys)
	if math.Abs(r.cx-50) > 1 || math.Abs(r.cy-40) > 1 || math.Abs(r.w*r.h-21*11) > 30 {
		t.Errorf("minRect: %+v", r)
	}
}

// TestReadSixConfidence: a 6's free places lie between its rows, where big pips' blur
// reaches, so its pips may stand out from them by a quarter only (bestFit); its confidence
// measures that margin against the quarter, not against the half the other faces need. A
// translucent purple 6 in nell-byler IMG_20191209_100304 stood out by about 30% and was
// refused for a confidence of 0.22.
func TestReadSixConfidence(t *testing.T) {
	testReads(t, []readCase{{"nell-byler/IMG_20191209_100304.jpg", "[1 3 3 5 6 6]"}})
}

// TestReadGlareStreak: light glancing off a translucent die draws a streak as bright as its
// pips across the face, through a free place. A face of three or more pips is then read again
// through an opening by a disc a quarter of its pips' width across, which the thinner streak
// does not survive: the blue 4 of
// nell-byler IMG_20191209_100229 was refused for the contrast a streak put on a free place.
// The pips must survive the opening too: at 0.6 of its size, the translucent red 4 of
// IMG_20191209_100602 shows a streak whose end, at the face's centre, made it a 5.
func TestReadGlareStreak(t *testing.T) {
	testReads(t, []readCase{{"nell-byler/IMG_20191209_100229.jpg", "[1 3 3 3 4 6]"}})
	testVaried(t, []variedCase{{"scale0.6", "nell-byler/IMG_20191209_100602.jpg", "[4 5 6]"}})
}

// TestOpenings: a grey opening by a disc keeps a spot as wide as a pip and takes away a
// streak thinner than the disc.
func TestOpenings(t *testing.T) {
	const P = 32
	C := make([]float64, P*P)
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			if math.Hypot(float64(x-8), float64(y-8)) <= 3.5 || y == 20 && x >= 4 && x < 28 {
				C[y*P+x] = 100
			}
		}
	}
	o := &openings{C: C, P: P}
	m := o.at(1.5)
	if m[8*P+8] != 100 || m[8*P+10] != 100 {
		t.Errorf("pip-sized spot opened away: centre %.0f, edge %.0f", m[8*P+8], m[8*P+10])
	}
	if m[20*P+16] != 0 {
		t.Errorf("streak one pixel wide survived the opening: %.0f", m[20*P+16])
	}
	if len(o.by) != 1 || &o.at(1.5)[0] != &m[0] {
		t.Error("the opening is not made once per radius")
	}
}
