package camera

import (
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// pip is a pip candidate in patch pixels, relative to the patch centre.
type pip struct {
	x, y, d, c float64
}

// face is what was read from one die candidate.
type face struct {
	value  int
	conf   float64
	why    string
	notDie bool         // no pips at all: not a die
	pips   [][2]float64 // image pixels
	extra  [][2]float64 // pips seen in the patch but not used, image pixels
	square float64
	// turned is the number of pips when no layout fitted and all of them were rejected only
	// for being turned from the die's sides (at the first threshold that found pips, and at
	// no other threshold as a different set); spacing is the fitted pip spacing, in face sides.
	turned  int
	spacing float64
	face    rotRect // the fitted top face, image pixels (zero when no layout fitted)
}

func (f face) die(c cand, off image.Point) Die {
	// The box of the fitted top face when there is one (the blob may hold a shadow, a halo or
	// side faces), else of the blob.
	r := c.r
	if f.face.w > 0 {
		r = f.face
	}
	hw := (math.Abs(r.w*math.Cos(r.ang)) + math.Abs(r.h*math.Sin(r.ang))) / 2
	hh := (math.Abs(r.w*math.Sin(r.ang)) + math.Abs(r.h*math.Cos(r.ang))) / 2
	d := Die{Value: f.value, Confidence: f.conf, Why: f.why,
		Box: image.Rect(int(r.cx-hw), int(r.cy-hh), int(r.cx+hw+1), int(r.cy+hh+1)).Add(off)}
	for _, p := range f.pips {
		d.Pips = append(d.Pips, image.Pt(int(math.Round(p[0])), int(math.Round(p[1]))).Add(off))
	}
	return d
}

// readFace resamples the candidate to a FaceSide-sized die in its own axes, finds pips as
// compact blobs that contrast with the face's own colour (darker or lighter, any hue), and
// fits the canonical layouts.
func (r *Reader) readFace(img gocv.Mat, c cand) face {
	S := float64(r.o.FaceSide)
	P := int(2 * S)
	k := S / c.side
	lab, ok := warpFace(img, c.r, k, P)
	if !ok {
		return face{why: "die too close to the picture's edge"}
	}
	// The blob's rectangle gives the die's turn only roughly (shadows round it off); the
	// die's own edges usually give it well, but on a dark die on dark felt the pips' outlines
	// outweigh the die's and can pull the estimate up to 45° off. When the blob's axes differ
	// from the edges' by more than shadows explain and the face has few pips (whose layout
	// says little about the turn), it is read in both: a face that reads two different values
	// is ambiguous. Edges barely squarer than the tray's texture (a pale die on wood grain)
	// give no turn at all: the blob's rectangle is used, and the pips' turn is not checked.
	d, square := edgeTurn(lab, P, S)
	if math.Abs(d) <= 2*math.Pi/180 || square < minSquare {
		return r.readFaceAt(c, lab, k, square)
	}
	alt := c
	c.r.ang += d
	if lab2, ok := warpFace(img, c.r, k, P); ok {
		f := r.readFaceAt(c, lab2, k, square)
		if f.value > 3 || f.value == 0 && f.turned == 0 || math.Abs(d) < 15*math.Pi/180 {
			return f
		}
		g := r.readFaceAt(alt, lab, k, square)
		switch {
		case g.value == 0:
			return f
		case f.value == 0:
			// The blob's turn is trusted over the edges' only when the same number of
			// pips fit there, spaced as on a 2 or 3, not as two neighbouring pips of a 4
			// or 6 seen diagonally.
			if f.turned == g.value && g.spacing > 0.22 {
				return g
			}
			return f
		case f.value != g.value:
			return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the die's turn", f.value, g.value), square: square}
		}
		return f
	}
	return face{why: "die too close to the picture's edge"}
}

// readFaceAt reads a face from its Lab patch, resampled in the die's axes c.r.ang at scale k.
func (r *Reader) readFaceAt(c cand, lab []byte, k, square float64) face {
	S := float64(r.o.FaceSide)
	P := int(2 * S)
	half := float64(P) / 2
	// Contrast of every patch pixel with the face colour (median of the die's centre).
	var Ls, As, Bs []float64
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			if math.Abs(float64(x)-half) < 0.3*S && math.Abs(float64(y)-half) < 0.3*S {
				i := (y*P + x) * 3
				Ls = append(Ls, float64(lab[i]))
				As = append(As, float64(lab[i+1]))
				Bs = append(Bs, float64(lab[i+2]))
			}
		}
	}
	fL, fA, fB := median(Ls), median(As), median(Bs)
	// Contrast with the face's median colour, read at three thresholds: Otsu's, lower for
	// faint pips (red on black), higher for pips that merge. (A contrast with the local median,
	// which cancels marbling, found more faces but misread more of them.)
	// A second map of hue alone finds coloured pips on a face of the same lightness (red on
	// black, pink on red); it is tried only when the first map reads nothing, since on plain
	// dice it only adds noise.
	C := make([]float64, P*P)
	Ch := make([]float64, P*P)
	var inner, innerH []float64
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := y*P + x
			dl, da, db := float64(lab[3*i])-fL, float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
			C[i] = math.Sqrt(dl*dl + 2*(da*da+db*db))
			Ch[i] = 2 * math.Sqrt(da*da+db*db)
			if math.Abs(float64(x)-half) < 0.38*S && math.Abs(float64(y)-half) < 0.38*S { // inside the face: no tray
				inner = append(inner, C[i])
				innerH = append(innerH, Ch[i])
			}
		}
	}
	type attempt struct {
		C []float64
		t float64
	}
	var tries []attempt
	t0 := math.Max(otsu(inner, 0, quantile(inner, 0.995)+1), r.o.MinContrast)
	for _, f := range []float64{1, 0.65, 1.4} {
		tries = append(tries, attempt{C, math.Max(t0*f, r.o.MinContrast)})
	}
	tH := math.Max(otsu(innerH, 0, quantile(innerH, 0.995)+1), 2*r.o.MinContrast)
	tries = append(tries, attempt{Ch, tH})
	var (
		pips []pip
		ft   fit
		used []int
		why  string
	)
	// Every attempt that gives a valid face must give the same value: a faint pip seen in
	// one and missed in another (a 3 read as a 2) makes the face ambiguous.
	anyPips := false
	found := false
	turned := -1
	lone := false
	var Cu []float64 // the map of the attempt used
	for ai, a := range tries {
		if ai == 3 && found {
			break // the hue map is a fallback for faces the contrast map cannot read
		}
		tf := a.t
		ps := findPips(a.C, P, S, tf)
		if len(ps) == 0 {
			continue
		}
		anyPips = true
		fi, us, w := r.bestFit(ps, a.C, P, S, tf, square >= minSquare)
		if w.why != "" {
			if why == "" {
				why = w.why
			}
			// The first threshold that finds pips says whether they were only turned; a
			// later one may find a faint extra pip, but not a different turned set.
			if w.turned && (turned < 0 || turned == len(ps)) {
				turned = len(ps)
			} else if turned < 0 || w.turned {
				turned = 0
			}
			// A pip that would be a 1 but for other pips is a vote against any other value.
			lone = lone || w.lone
			if found && lone && ft.value != 1 {
				return face{why: fmt.Sprintf("ambiguous: reads 1 or %d depending on the pip threshold", ft.value)}
			}
			continue
		}
		if found && fi.value != ft.value || lone && fi.value != 1 {
			return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the pip threshold", max(ft.value, 1), fi.value)}
		}
		if !found {
			pips, ft, used, Cu, found = ps, fi, us, a.C, true
		}
	}
	if !anyPips {
		return face{notDie: true, why: "no pips"}
	}
	if !found {
		// Pips in no layout on something that runs off the picture (a cable, a keyboard) or
		// whose edges are not square (a round tray foot) is clutter, not a die.
		return face{why: why, notDie: c.edge || square < minSquare, square: square, turned: max(turned, 0)}
	}
	f := face{value: ft.value, square: square, spacing: ft.f.a / S}
	ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
	{
		// Face side: the pip grid spans 2 spacings; a face is about 3.6 spacings wide
		// (a lone pip gives no spacing: the die's side is used).
		side := 3.6 * ft.f.a / k
		if ft.value == 1 {
			side = c.side
		}
		dx, dy := (ft.f.cx-float64(P)/2)/k, (ft.f.cy-float64(P)/2)/k
		f.face = rotRect{cx: c.r.cx + ca*dx - sa*dy, cy: c.r.cy + sa*dx + ca*dy, w: side, h: side, ang: c.r.ang + ft.f.ang}
	}
	isUsed := make(map[int]bool, len(used))
	for _, i := range used {
		isUsed[i] = true
	}
	for i, p := range pips {
		dx, dy := p.x/k, p.y/k
		q := [2]float64{c.r.cx + ca*dx - sa*dy, c.r.cy + sa*dx + ca*dy}
		if isUsed[i] {
			f.pips = append(f.pips, q)
		} else {
			f.extra = append(f.extra, q)
		}
	}
	occ, free := gridContrast(Cu, P, ft)
	f.conf = clamp01((occ-free)/occ) * clamp01(1-ft.err/r.o.MaxLayoutError/2)
	if c.edge {
		// Something that reaches the picture's edge cannot be checked whole: a die there may
		// show a side face or be cut off, and clutter there may look like pips.
		f.why = "die partly outside the picture"
		f.value = 0
	}
	return f
}

// warpFace returns the Lab bytes of a P×P patch centred on the candidate, rotated to its axes
// and scaled by k.
func warpFace(img gocv.Mat, rr rotRect, k float64, P int) ([]byte, bool) {
	reach := float64(P) / k * 0.75
	box := image.Rect(int(rr.cx-reach), int(rr.cy-reach), int(rr.cx+reach)+1, int(rr.cy+reach)+1).
		Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if box.Dx() < 4 || box.Dy() < 4 {
		return nil, false
	}
	roi := img.Region(box)
	defer roi.Close()
	src := roi
	pre := 1.0
	if k < 0.7 { // shrink with area averaging first: warpAffine alone would alias
		pre = k / 0.8
		small := gocv.NewMat()
		defer small.Close()
		gocv.Resize(roi, &small, image.Pt(max(1, int(float64(box.Dx())*pre)), max(1, int(float64(box.Dy())*pre))), 0, 0, gocv.InterpolationArea)
		pre = float64(small.Cols()) / float64(box.Dx())
		src = small
	}
	cx, cy := (rr.cx-float64(box.Min.X))*pre, (rr.cy-float64(box.Min.Y))*pre
	kk := k / pre
	ca, sa := math.Cos(rr.ang), math.Sin(rr.ang)
	h := float64(P) / 2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, kk*ca)
	m.SetDoubleAt(0, 1, kk*sa)
	m.SetDoubleAt(0, 2, h-kk*(ca*cx+sa*cy))
	m.SetDoubleAt(1, 0, -kk*sa)
	m.SetDoubleAt(1, 1, kk*ca)
	m.SetDoubleAt(1, 2, h-kk*(-sa*cx+ca*cy))
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpAffineWithParams(src, &out, m, image.Pt(P, P), gocv.InterpolationLinear, gocv.BorderReplicate, black())
	lab := toLab(out)
	return lab.p, true
}

// findPips returns compact blobs above the contrast threshold inside the die's neighbourhood.
func findPips(C []float64, P int, S, t float64) []pip {
	half := float64(P) / 2
	lim := 0.72 * S
	g := newGrid(P, P)
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			if math.Abs(float64(x)-half) < lim && math.Abs(float64(y)-half) < lim {
				g.b[y*P+x] = C[y*P+x] > t
			}
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
		var area, sx, sy, sxx, syy, sxy, sc float64
		for yy := 0; yy < bh; yy++ {
			for xx := 0; xx < bw; xx++ {
				if sub.b[(yy+1)*(bw+2)+xx+1] {
					fx, fy := float64(x0+xx), float64(y0+yy)
					area++
					sx += fx
					sy += fy
					sxx += fx * fx
					syy += fy * fy
					sxy += fx * fy
					sc += C[(y0+yy)*P+x0+xx]
				}
			}
		}
		d := 2 * math.Sqrt(area/math.Pi)
		// Axis ratio from second moments: pips on a foreshortened side face are ellipses.
		mx, my := sx/area, sy/area
		cxx, cyy, cxy := sxx/area-mx*mx+1.0/12, syy/area-my*my+1.0/12, sxy/area-mx*my
		tr, det := cxx+cyy, cxx*cyy-cxy*cxy
		disc := math.Sqrt(math.Max(0, tr*tr/4-det))
		elong := math.Sqrt((tr/2 + disc) / math.Max(1e-9, tr/2-disc))
		if elong > 1.75 && elong < 3 && d < 0.5*S {
			// Perhaps two pips merged (big pips close together): kept aside until the
			// single pips' size is known.
			l1 := tr/2 + disc
			ax, ay := cxy, l1-cxx
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
		out = append(out, pip{x: sx/area - half, y: sy/area - half, d: d, c: sc / area})
		areas = append(areas, area)
	}
	// A blob twice the area of a single pip and twice as long as wide is two merged pips.
	if m := median(areas); len(areas) >= 2 {
		for _, p := range pairs {
			if p.area > 1.5*m && p.area < 2.6*m {
				pd := 2 * math.Sqrt(m/math.Pi)
				out = append(out, pip{x: p.x + p.dx, y: p.y + p.dy, d: pd, c: p.c}, pip{x: p.x - p.dx, y: p.y - p.dy, d: pd, c: p.c})
			}
		}
	}
	return out
}

// bestFit finds the largest set of pips (all of them first) that forms a canonical layout whose
// free places are clear, with every left-out pip off the fitted face (a side face in an oblique
// view). It returns the fit and the indices of the pips used.
func (r *Reader) bestFit(pips []pip, C []float64, P int, S, t float64, sided bool) (fit, []int, miss) {
	n := len(pips)
	if n > 9 {
		return fit{}, nil, miss{why: fmt.Sprintf("%d pips", n)}
	}
	why := ""
	turned := false // all the pips fit a layout but for its turn
	lone := false   // one pip fit a 1 but for other pips on the face
	try := func(idx []int) (fit, bool) {
		pts := make([][2]float64, len(idx))
		var dmin, dmax = math.Inf(1), 0.0
		for i, j := range idx {
			pts[i] = [2]float64{pips[j].x + float64(P)/2, pips[j].y + float64(P)/2}
			dmin, dmax = math.Min(dmin, pips[j].d), math.Max(dmax, pips[j].d)
		}
		fail := func(s string) (fit, bool) {
			if len(idx) == n {
				why = s
			}
			return fit{}, false
		}
		if len(idx) > 1 && dmax > 2.2*dmin {
			return fail("pips of unequal sizes")
		}
		ft, ok := fitLayout(pts, S)
		if !ok || ft.err > r.o.MaxLayoutError {
			return fail(fmt.Sprintf("layout error %.2f", ft.err))
		}
		if len(idx) == 1 {
			// A lone pip must sit well inside the die (in an oblique view the top face's
			// centre is off the blob's): at least 0.3 of a side from where the face ends.
			dx, dy := pts[0][0]-float64(P)/2, pts[0][1]-float64(P)/2
			if math.Hypot(dx, dy) > 0.35*S || clearance(C, P, pts[0], t) < 0.28*S {
				return fail("single pip near the die's edge")
			}
			// And the rest of the face must be empty, corners included: one pip of a 2 or 3
			// seen with the die's turn 45° off lies near the centre, its partner on the face.
			// (A speck of glare or a bevel is not a partner: it must look like the pip.)
			q := pips[idx[0]]
			for j, p := range pips {
				if j != idx[0] && math.Hypot(p.x, p.y) < 0.52*S && p.d > 0.6*q.d && p.d < 1.67*q.d && p.c > 0.5*q.c {
					lone = true
					return fail("single pip with another pip on the face")
				}
			}
		} else if ft.f.a < 0.08*S || ft.f.a > 0.42*S {
			return fail(fmt.Sprintf("pip spacing %.2f of the die", ft.f.a/S))
		} else if tilt := math.Min(ft.f.ang, math.Pi/2-ft.f.ang); sided && len(idx) <= 3 && tilt > 25*math.Pi/180 {
			// Few pips constrain the layout weakly: they must also line up with the die's sides
			// (when the sides are seen at all: sided).
			turned = turned || len(idx) == n
			return fail(fmt.Sprintf("pips turned %.0f° from the die's sides", tilt*180/math.Pi))
		}
		occ, free := gridContrast(C, P, ft)
		if free >= t || free > 0.5*occ {
			return fail(fmt.Sprintf("contrast %.0f at a free place vs %.0f at pips", free, occ))
		}
		// Pips left out must lie off this face.
		in := make(map[int]bool, len(idx))
		for _, j := range idx {
			in[j] = true
		}
		for j, p := range pips {
			if in[j] {
				continue
			}
			u, v := ft.f.local(p.x+float64(P)/2, p.y+float64(P)/2)
			if math.Max(math.Abs(u), math.Abs(v)) < 1.75 {
				return fail("stray pip on the face")
			}
		}
		return ft, true
	}
	for m := min(n, 6); m >= 1; m-- {
		var best fit
		var bestIdx []int
		found := false
		forSubsets(n, m, func(idx []int) {
			if ft, ok := try(idx); ok && (!found || ft.err < best.err) {
				best, bestIdx, found = ft, append([]int(nil), idx...), true
			}
		})
		if found {
			sort.Ints(bestIdx)
			return best, bestIdx, miss{}
		}
	}
	return fit{}, nil, miss{fmt.Sprintf("%d pips in no canonical layout: %s", n, why), turned, lone}
}

// miss says why no layout fitted: why, and whether the pips fitted but for their turn
// (turned) or a lone pip fitted a 1 but for other pips on the face (lone).
type miss struct {
	why          string
	turned, lone bool
}

func forSubsets(n, m int, f func([]int)) {
	idx := make([]int, m)
	var rec func(start, k int)
	rec = func(start, k int) {
		if k == m {
			f(idx)
			return
		}
		for i := start; i <= n-(m-k); i++ {
			idx[k] = i
			rec(i+1, k+1)
		}
	}
	rec(0, 0)
}

// gridContrast returns the weakest contrast among the layout's pip places and the strongest
// among the 3×3 grid's free places.
func gridContrast(C []float64, P int, ft fit) (occ, free float64) {
	occ = math.Inf(1)
	r := math.Max(1.5, 0.28*ft.f.a)
	for u := -1; u <= 1; u++ {
		for v := -1; v <= 1; v++ {
			x, y := ft.f.at(float64(u), float64(v))
			var s, n float64
			for yy := int(y - r); yy <= int(y+r)+1; yy++ {
				for xx := int(x - r); xx <= int(x+r)+1; xx++ {
					if xx < 0 || yy < 0 || xx >= P || yy >= P || math.Hypot(float64(xx)-x, float64(yy)-y) > r {
						continue
					}
					s += C[yy*P+xx]
					n++
				}
			}
			if n > 0 {
				s /= n
			}
			used := false
			for _, p := range ft.layout {
				if p[0] == float64(u) && p[1] == float64(v) {
					used = true
				}
			}
			if used {
				occ = math.Min(occ, s)
			} else {
				free = math.Max(free, s)
			}
		}
	}
	return occ, free
}

// edgeTurn returns how far (radians, within ±45°) the die's edges in the patch are turned from
// its axes, from the 4-fold symmetric average of the gradient directions of the L channel.
//
// It also returns how square the edges are: the strength of that 4-fold average relative to
// all gradient energy (near 0 for a disc or clutter, clearly above for a die).
func edgeTurn(lab []byte, P int, S float64) (float64, float64) {
	half := float64(P) / 2
	var c4, s4, tot float64
	for y := 1; y < P-1; y++ {
		if math.Abs(float64(y)-half) > 0.7*S {
			continue
		}
		for x := 1; x < P-1; x++ {
			if math.Abs(float64(x)-half) > 0.7*S {
				continue
			}
			i := y*P + x
			gx := float64(lab[3*(i+1)]) - float64(lab[3*(i-1)])
			gy := float64(lab[3*(i+P)]) - float64(lab[3*(i-P)])
			w := gx*gx + gy*gy
			if w == 0 {
				continue
			}
			// cos4φ and sin4φ from the gradient without trigonometry.
			tot += w
			c2, s2 := (gx*gx-gy*gy)/w, 2*gx*gy/w
			c4 += w * (c2*c2 - s2*s2)
			s4 += w * 2 * c2 * s2
		}
	}
	if tot == 0 {
		return 0, 0
	}
	return math.Atan2(s4, c4) / 4, math.Hypot(c4, s4) / tot
}

// clearance is the shortest of the four axis-aligned walks from p, past its own pip, to a pixel
// that contrasts with the face (the die's edge, the tray, another pip).
func clearance(C []float64, P int, p [2]float64, t float64) float64 {
	best := math.Inf(1)
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		x, y := int(math.Round(p[0])), int(math.Round(p[1]))
		inPip := true
		n := 0
		for x >= 0 && y >= 0 && x < P && y < P {
			hi := C[y*P+x] > t
			if inPip && !hi {
				inPip = false
			} else if !inPip && hi {
				break
			}
			x += d[0]
			y += d[1]
			n++
		}
		best = math.Min(best, float64(n))
	}
	return best
}

// minSquare is the smallest squareness of a die's edges (see edgeTurn) that says anything
// about its turn; below it the edges are lost in the tray's texture.
const minSquare = 0.06
