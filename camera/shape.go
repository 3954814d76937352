package camera

import (
	"math"

	"gocv.io/x/gocv"
)

// pipShape measures a pip's outline at the picture's own resolution or finer (in the face's
// patch a pip is only 4–8 pixels wide, too few for its shape): the pip is cut out of img
// enlarged to about 16 pixels across, in the die's axes, and the pixels contrasting with the
// face's colour (fL, fA, fB) more than half the pip's peak give its second moments. It
// returns the axis ratio (minor/major, 1 for a round pip) and the major axis's direction in
// the patch's axes (radians, within [0, π)); ok is false when the pip cannot be measured.
func pipShape(img gocv.Mat, c cand, k float64, p pip, fL, fA, fB float64) (q, dir float64, ok bool) {
	const P = 40
	dImg := p.d / k // the pip's diameter in picture pixels
	if dImg <= 0 {
		return 0, 0, false
	}
	k2 := 16 / dImg
	ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
	dx, dy := p.x/k, p.y/k
	rr := rotRect{cx: c.r.cx + ca*dx - sa*dy, cy: c.r.cy + sa*dx + ca*dy, ang: c.r.ang}
	lab, ok := warpFace(img, rr, k2, P)
	if !ok {
		return 0, 0, false
	}
	C := make([]float64, P*P)
	peak := 0.0
	for i := range C {
		dl, da, db := float64(lab[3*i])-fL, float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
		C[i] = math.Sqrt(dl*dl + 2*(da*da+db*db))
		x, y := float64(i%P)-P/2, float64(i/P)-P/2
		if x*x+y*y < 25 {
			peak = math.Max(peak, C[i])
		}
	}
	g := newGrid(P, P)
	for i, v := range C {
		g.b[i] = v > peak/2
	}
	// The component nearest the centre.
	var px []int
	best := math.Inf(1)
	for _, comp := range g.components4(1) {
		for _, i := range comp {
			if d := math.Sqrt(sq(float64(i%P)-P/2) + sq(float64(i/P)-P/2)); d < best {
				best, px = d, comp
			}
		}
	}
	if len(px) < 5 || best > 4 {
		return 0, 0, false
	}
	var m moments
	for _, i := range px {
		m.add(float64(i%P), float64(i/P))
	}
	_, _, l1, l2, ax, ay := m.axes()
	dir = math.Atan2(ay, ax)
	if dir < 0 {
		dir += math.Pi
	}
	if dir >= math.Pi {
		dir -= math.Pi
	}
	return math.Sqrt(math.Max(0, l2) / l1), dir, true
}

// shapeCache remembers the pips measured on one face: the pip thresholds find mostly the
// same pips.
type shapeCache []pip

// of returns p with its shape (see pipShape; zero when it cannot be measured), measured
// once for pips within a pixel and a half of each other.
func (sc *shapeCache) of(img gocv.Mat, c cand, k float64, p pip, fL, fA, fB float64) pip {
	for _, o := range *sc {
		if math.Hypot(o.x-p.x, o.y-p.y) < 1.5 {
			p.q, p.o = o.q, o.o
			return p
		}
	}
	p.q, p.o, _ = pipShape(img, c, k, p, fL, fA, fB)
	*sc = append(*sc, p)
	return p
}

// moments accumulates the second moments of a set of pixels.
type moments struct{ n, sx, sy, sxx, syy, sxy float64 }

func (m *moments) add(x, y float64) {
	m.n++
	m.sx += x
	m.sy += y
	m.sxx += x * x
	m.syy += y * y
	m.sxy += x * y
}

// axes returns the centroid, the variances along the major and minor axes (each pixel counted
// as a unit square) and the major axis's direction (ax, ay), not normalised.
func (m moments) axes() (mx, my, l1, l2, ax, ay float64) {
	mx, my = m.sx/m.n, m.sy/m.n
	cxx, cyy, cxy := m.sxx/m.n-mx*mx+1.0/12, m.syy/m.n-my*my+1.0/12, m.sxy/m.n-mx*my
	tr, det := cxx+cyy, cxx*cyy-cxy*cxy
	disc := math.Sqrt(math.Max(0, tr*tr/4-det))
	l1, l2 = tr/2+disc, tr/2-disc
	return mx, my, l1, l2, cxy, l1 - cxx
}
