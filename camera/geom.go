package camera

import "math"

// rotRect is a rotated rectangle: centre, side lengths along its own axes, and the angle
// (radians) of its first axis.
type rotRect struct {
	cx, cy, w, h, ang float64
}

func (r rotRect) side() float64 { return math.Sqrt(r.w * r.h) }

// inPicture says whether the corners of r lie inside a w×h picture.
func inPicture(r rotRect, w, h int) bool {
	ca, sa := math.Cos(r.ang), math.Sin(r.ang)
	for _, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		dx, dy := s[0]*r.w/2, s[1]*r.h/2
		x, y := r.cx+ca*dx-sa*dy, r.cy+sa*dx+ca*dy
		if x < 0 || y < 0 || x > float64(w-1) || y > float64(h-1) {
			return false
		}
	}
	return true
}

// sidesInPicture says whether the middles of r's sides, moved d further out, lie inside a
// w×h picture: where a walk from r's centre along its axes ends.
func sidesInPicture(r rotRect, d float64, w, h int) bool {
	ca, sa := math.Cos(r.ang), math.Sin(r.ang)
	for _, s := range [4][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		dx, dy := s[0]*(r.w/2+d), s[1]*(r.h/2+d)
		x, y := r.cx+ca*dx-sa*dy, r.cy+sa*dx+ca*dy
		if x < 0 || y < 0 || x > float64(w-1) || y > float64(h-1) {
			return false
		}
	}
	return true
}

// bounds returns the upright box around r: its least and greatest x and y.
func (r rotRect) bounds() (x0, y0, x1, y1 float64) {
	hw := (math.Abs(r.w*math.Cos(r.ang)) + math.Abs(r.h*math.Sin(r.ang))) / 2
	hh := (math.Abs(r.w*math.Sin(r.ang)) + math.Abs(r.h*math.Cos(r.ang))) / 2
	return r.cx - hw, r.cy - hh, r.cx + hw, r.cy + hh
}

// grown is r with d added beyond each of its sides.
func (r rotRect) grown(d float64) rotRect {
	r.w, r.h = r.w+2*d, r.h+2*d
	return r
}

func (r rotRect) aspect() float64 {
	if r.w <= 0 || r.h <= 0 {
		return math.Inf(1)
	}
	return math.Max(r.w, r.h) / math.Min(r.w, r.h)
}

// minRect returns the smallest-area rectangle around pts, searching angles in 2° steps
// (plenty for a die, and without the integer rounding of gocv.MinAreaRect).
func minRect(xs, ys []float64) rotRect {
	best := rotRect{w: math.Inf(1), h: 1}
	for deg := 0; deg < 90; deg += 2 {
		a := float64(deg) * math.Pi / 180
		c, s := math.Cos(a), math.Sin(a)
		u0, u1, v0, v1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i := range xs {
			u := c*xs[i] + s*ys[i]
			v := -s*xs[i] + c*ys[i]
			u0, u1 = min(u0, u), max(u1, u)
			v0, v1 = min(v0, v), max(v1, v)
		}
		w, h := u1-u0+1, v1-v0+1
		if w*h < best.w*best.h {
			uc, vc := (u0+u1)/2, (v0+v1)/2
			best = rotRect{cx: c*uc - s*vc, cy: s*uc + c*vc, w: w, h: h, ang: a}
		}
	}
	return best
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	n := len(s)
	m := nth(s, n/2)
	if n%2 == 1 {
		return m
	}
	lo := s[0] // nth leaves the n/2 smallest values first
	for _, x := range s[1 : n/2] {
		lo = math.Max(lo, x)
	}
	return (lo + m) / 2
}

// byteHist counts byte values (a patch's Lab channels). Its median is median's of the same
// values, found without copying or reordering them: the face's colour is the median of a
// few hundred pixels, taken for every candidate, turn and size.
type byteHist struct {
	n int
	c [256]int
}

func (h *byteHist) add(v byte) {
	h.c[v]++
	h.n++
}

// nth returns the k-th smallest value counted (from 0).
func (h *byteHist) nth(k int) float64 {
	for v, c := range h.c {
		if k < c {
			return float64(v)
		}
		k -= c
	}
	return 255
}

func (h *byteHist) median() float64 {
	if h.n == 0 {
		return 0
	}
	m := h.nth(h.n / 2)
	if h.n%2 == 1 {
		return m
	}
	return (h.nth(h.n/2-1) + m) / 2
}

func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	return nth(s, int(q*float64(len(s)-1)))
}

// nth returns the k-th smallest value of s (from 0), reordering s so that the values before
// it are no larger and those after it no smaller (Hoare's selection: the faces' medians are
// taken many times per frame, and a full sort costs several times more).
func nth(s []float64, k int) float64 {
	lo, hi := 0, len(s)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		p := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < p {
				i++
			}
			for p < s[j] {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	return s[k]
}

// otsu returns the threshold that best splits v into two classes.
func otsu(v []float64, lo, hi float64) float64 {
	const bins = 64
	if hi <= lo || len(v) == 0 {
		return lo
	}
	var h [bins]float64
	for _, x := range v {
		b := int((x - lo) / (hi - lo) * bins)
		if b < 0 {
			b = 0
		} else if b >= bins {
			b = bins - 1
		}
		h[b]++
	}
	total := float64(len(v))
	var sum float64
	for i, c := range h {
		sum += float64(i) * c
	}
	var wB, sumB, best float64
	bt := 0
	for i, c := range h {
		wB += c
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(i) * c
		mB, mF := sumB/wB, (sum-sumB)/wF
		if b := wB * wF * (mB - mF) * (mB - mF); b > best {
			best, bt = b, i
		}
	}
	return lo + (float64(bt)+1)*(hi-lo)/bins
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// sq is x². Hot loops compare squared distances (math.Hypot's care for overflow costs there).
func sq(x float64) float64 { return x * x }
