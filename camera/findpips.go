package camera

import "math"

// insideFace keeps the pips (patch pixels from its centre) whose centres lie on the face,
// S wide: an outlined face's pips lie a fifth of a side inside its edges, a side face's
// beyond them.
func insideFace(ps []pip, S float64) []pip {
	in := ps[:0:0]
	for _, p := range ps {
		if math.Max(math.Abs(p.x), math.Abs(p.y)) <= S/2 {
			in = append(in, p)
		}
	}
	return in
}

// findPips returns compact blobs above the contrast threshold inside the die's neighbourhood.
func findPips(C []float64, P int, S, t float64) []pip {
	half := float64(P) / 2
	lim := 0.72 * S
	// The pixels within lim of the centre both ways: a square window from (lo, lo), n wide.
	lo, n := 0, 0
	for math.Abs(float64(lo)-half) >= lim {
		lo++
	}
	for lo+n < P && math.Abs(float64(lo+n)-half) < lim {
		n++
	}
	g := newGrid(n, n)
	for y := 0; y < n; y++ {
		row, out := C[(y+lo)*P+lo:][:n], g.b[y*n:][:n]
		for x, v := range row {
			out[x] = v > t
		}
	}
	type pair struct {
		pip
		dx, dy, area float64
	}
	var (
		out   []pip
		pairs []pair
		areas []float64
	)
	for _, px := range g.components(2) {
		for j, i := range px { // window pixels to patch pixels
			px[j] = (i/n+lo)*P + i%n + lo
		}
		x0, y0, x1, y1 := P, P, 0, 0
		for _, i := range px {
			x, y := i%P, i/P
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		if math.Abs(float64(x0)-half) >= lim-1 || math.Abs(float64(x1)-half) >= lim-1 ||
			math.Abs(float64(y0)-half) >= lim-1 || math.Abs(float64(y1)-half) >= lim-1 {
			continue // runs into the surroundings: an edge or the tray, not a pip
		}
		bw, bh := x1-x0+1, y1-y0+1
		// Fill holes (glare on a glossy pip leaves one).
		sub := newGrid(bw+2, bh+2)
		for _, i := range px {
			sub.b[(i/P-y0+1)*(bw+2)+i%P-x0+1] = true
		}
		sub = sub.fillHoles(len(sub.b))
		var m moments
		var sc float64
		for yy := 0; yy < bh; yy++ {
			for xx := 0; xx < bw; xx++ {
				if sub.b[(yy+1)*(bw+2)+xx+1] {
					m.add(float64(x0+xx), float64(y0+yy))
					sc += C[(y0+yy)*P+x0+xx]
				}
			}
		}
		area := m.n
		d := 2 * math.Sqrt(area/math.Pi)
		// Axis ratio from second moments: pips on a foreshortened side face are ellipses.
		mx, my, l1, l2, ax, ay := m.axes()
		elong := math.Sqrt(l1 / math.Max(1e-9, l2))
		if elong >= 3 && elong < 5 && d < 0.6*S {
			// Three pips in a row merged into a bar: a soft focus (or pips nearly touching)
			// joins a 6's rows and a 3's or 5's diagonal, the only rows of three on a die.
			// Three discs of diameter w spaced s apart have a variance along the row of
			// 8s²/12 more than across it; the bar is split when s and w are those of pips
			// that merged, not overlapping and not far apart, and spaced as a die's pips are
			// (finer bars are texture: wood grain, a crease, a 1's pip with its shadow).
			s3 := math.Sqrt(1.5 * math.Max(0, l1-l2))
			w3 := 2 * math.Sqrt(area/3/math.Pi)
			if math.Abs(ax)+math.Abs(ay) < 1e-9 {
				ax, ay = 1, 0
			}
			n := math.Hypot(ax, ay)
			ux, uy := ax/n*s3, ay/n*s3
			// Two long pips merged (a foreshortened face) have the same moments, but their
			// gap lies at the bar's middle, where three pips have their middle pip: the
			// middle must contrast at least as much as the gaps of three pips would.
			at := func(f float64) float64 { return meanAround(C, P, mx+f*ux, my+f*uy) }
			mid := at(0) >= 0.5*(at(-0.5)+at(0.5))
			if mid && s3 >= 0.8*w3 && s3 <= 1.8*w3 && s3 >= 0.1*S {
				// Merged pips touch, so none is wider than the spacing: the bar's area,
				// with the gaps it filled, says more (see pipWidth's check in bestFit).
				for _, f := range []float64{-1, 0, 1} {
					out = append(out, pip{x: mx - half + f*ux, y: my - half + f*uy, d: math.Min(w3, s3), c: sc / area})
				}
			}
			continue
		}
		if elong > 1.75 && elong < 3 && d < 0.5*S {
			// Perhaps two pips merged (big pips close together): kept aside until the
			// single pips' size is known.
			if math.Abs(ax)+math.Abs(ay) < 1e-9 {
				ax, ay = 1, 0
			}
			n := math.Hypot(ax, ay)
			off := math.Sqrt(l1) / 1.118
			pairs = append(pairs, pair{pip{x: mx - half, y: my - half, d: d, c: sc / area}, ax / n * off, ay / n * off, area})
			continue
		}
		if d < 0.07*S || d > 0.36*S || elong > 1.75 || area/float64(bw*bh) < 0.45 {
			continue
		}
		out = append(out, pip{x: mx - half, y: my - half, d: d, c: sc / area})
		areas = append(areas, area)
	}
	// A blob twice the area of a single pip and twice as long as wide is two merged pips
	// (one single pip gives the size: a 3's diagonal may show two merged and one apart).
	if m := median(areas); len(areas) >= 1 {
		for _, p := range pairs {
			if p.area > 1.5*m && p.area < 2.6*m {
				pd := 2 * math.Sqrt(m/math.Pi)
				out = append(out, pip{x: p.x + p.dx, y: p.y + p.dy, d: pd, c: p.c}, pip{x: p.x - p.dx, y: p.y - p.dy, d: pd, c: p.c})
			}
		}
	}
	return out
}

// sideRatio is the largest ratio of a side face's pip's roundness (axis ratio) to a top face
// pip's that tells them apart (see sideOf).
const sideRatio = 0.8

// sideOf says whether pip p lies on a side face of the die whose top face holds pip top (or
// has its centre there, with top.q its pips' roundness). In an oblique view the camera sees
// the side faces nearer it foreshortened across the crease with the top face; looking down
// more steeply than 45°, as a camera over a tray does, it foreshortens them more than the
// top face. So p must be clearly flatter than top's pips but no bigger (foreshortening
// shrinks a pip; glare or a merged neighbour stretches it), lie beyond the crease (0.4 of a
// side away at least), and be flattened along the line to top (its long axis across it:
// the crease runs between them).
func sideOf(p, top pip, S float64) bool {
	if p.q == 0 || math.IsInf(top.q, 1) || top.q < 0.65 || p.q > sideRatio*top.q || p.d > 1.1*top.d {
		return false
	}
	dx, dy := p.x-top.x, p.y-top.y
	if math.Hypot(dx, dy) < 0.4*S {
		return false
	}
	a := math.Mod(math.Abs(math.Atan2(dy, dx)-p.o), math.Pi)
	return math.Min(a, math.Pi-a) >= 50*math.Pi/180
}

// alike says whether the pips idx are foreshortened alike, as one face's are: none clearly
// flatter than another (by the ratio sideOf demands of a side face's pip).
func alike(pips []pip, idx []int) bool {
	lo, hi := math.Inf(1), 0.0
	for _, i := range idx {
		if pips[i].q > 0 {
			lo, hi = math.Min(lo, pips[i].q), math.Max(hi, pips[i].q)
		}
	}
	return hi == 0 || lo > sideRatio*hi
}

// oneWithSides returns the pip that is a 1 on the top face with every other pip on a side
// face (see sideOf), or -1.
func oneWithSides(pips []pip, S float64) int {
	if len(pips) < 2 {
		return -1
	}
	for i, p := range pips {
		all := true
		for j, o := range pips {
			all = all && (j == i || sideOf(o, p, S))
		}
		if all {
			return i
		}
	}
	return -1
}

// pipWidth is the median diameter of the pips idx (patch pixels).
func pipWidth(pips []pip, idx []int) float64 {
	ds := make([]float64, len(idx))
	for i, j := range idx {
		ds[i] = pips[j].d
	}
	return median(ds)
}

// pipLightness sets each pip's l: the median lightness of the patch (Lab bytes, P wide) within
// half the pip's radius of its centre, less the face's lightness fL.
func pipLightness(ps []pip, lab []byte, P int, fL float64) {
	var ls []float64
	for i := range ps {
		p := &ps[i]
		cx, cy := p.x+float64(P)/2, p.y+float64(P)/2
		r := math.Max(1, p.d/4)
		ls = ls[:0]
		for y := int(cy - r); y <= int(cy+r)+1; y++ {
			for x := int(cx - r); x <= int(cx+r)+1; x++ {
				if x < 0 || y < 0 || x >= P || y >= P || math.Hypot(float64(x)-cx, float64(y)-cy) > r {
					continue
				}
				ls = append(ls, float64(lab[3*(y*P+x)]))
			}
		}
		if len(ls) > 0 {
			p.l = median(ls) - fL
		}
	}
}

// bent is the distance of the middle one of three points from the line through the other two,
// the two furthest apart, in units of their distance.
func bent(pts [][2]float64) float64 {
	i, j, best := 0, 1, -1.0
	for a := range pts {
		for b := a + 1; b < len(pts); b++ {
			if d := math.Hypot(pts[a][0]-pts[b][0], pts[a][1]-pts[b][1]); d > best {
				i, j, best = a, b, d
			}
		}
	}
	if best <= 0 {
		return 0
	}
	k := 3 - i - j
	p, q, m := pts[i], pts[j], pts[k]
	return math.Abs((q[0]-p[0])*(m[1]-p[1])-(q[1]-p[1])*(m[0]-p[0])) / (best * best)
}

// meanAround is the mean of C over the 3×3 pixels round (x, y).
func meanAround(C []float64, P int, x, y float64) float64 {
	var s, n float64
	for yy := int(math.Round(y)) - 1; yy <= int(math.Round(y))+1; yy++ {
		for xx := int(math.Round(x)) - 1; xx <= int(math.Round(x))+1; xx++ {
			if xx >= 0 && yy >= 0 && xx < P && yy < P {
				s += C[yy*P+xx]
				n++
			}
		}
	}
	return s / math.Max(1, n)
}
