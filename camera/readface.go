package camera

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// readFace resamples the candidate to a FaceSide-sized die in its own axes, finds pips as
// compact blobs that contrast with the face's own colour (darker or lighter, any hue), and
// fits the canonical layouts.
func (r *Reader) readFace(img gocv.Mat, c cand) face {
	f := r.readFaceSized(img, c, false)
	if partOfSix(img, f) {
		return face{why: "a 4 whose rows run on by a pip each: part of a 6", square: f.square, col: f.col}
	}
	return f
}

// readFaceSized is readFace; small says the candidate was already shrunk to its face.
func (r *Reader) readFaceSized(img gocv.Mat, c cand, small bool) (out face) {
	S := float64(r.o.FaceSide)
	P := int(2 * S)
	k := S / c.side
	src, ok := newSurround(img, c.r.cx, c.r.cy, k, P)
	if !ok {
		return face{why: "die too close to the picture's edge"}
	}
	defer src.Close()
	lab := src.warp(c.r)
	cl, ca, cb := faceColour(lab, P, S, 0.3)
	defer func() { out.col = [3]float64{cl, ca, cb} }()
	// The blob's rectangle gives the die's turn only roughly (shadows round it off); the
	// die's own edges usually give it well (edgeTurn discounts the pips' round outlines), but
	// on a dark die on dark felt the estimate can still be up to 45° off. When the blob's axes differ
	// from the edges' by more than shadows explain and the face has few pips (whose layout
	// says little about the turn), it is read in both: a face that reads two different values
	// is ambiguous. Edges barely squarer than the tray's texture (a pale die on wood grain)
	// give no turn at all: the blob's rectangle is used, and the pips' turn is not checked.
	d, square, dg := edgeTurn(lab, P, S, r.bufs)
	f := r.readFaceTurned(img, src, c, lab, k, d, square)
	if f.value == 0 && !f.amb.is() && !f.notDie && !small {
		// The blob may hold a shadow or a halo round a dark die, so the face fills only part
		// of the patch: its pips are then tiny, and the pip threshold is set by the tray.
		// Such a face is read again at its own size, seen as the part of the patch the
		// surroundings do not reach. That reading is a fallback, so every pip threshold must
		// agree with it: a marbled face shrunk to a wrong size shows noise that fits a 1 or a 2
		// at one threshold and nothing at another (4s and 6s read as 2s without that rule).
		if cx, cy, side, ok := faceExtent(lab, P, S); ok {
			c2 := c
			ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
			dx, dy := (cx-float64(P)/2)/k, (cy-float64(P)/2)/k
			c2.r.cx, c2.r.cy = c.r.cx+ca*dx-sa*dy, c.r.cy+sa*dx+ca*dy
			c2.side = side / k
			c2.r.w, c2.r.h = c2.side, c2.side
			if g := r.readFaceSized(img, c2, true); g.value > 0 && !g.mixed {
				return g
			}
		}
	}
	if f.value == 0 && !f.amb.is() && !f.notDie && !small && c.r.aspect() < 1.6 {
		// A die's face differs from the tray beside it and ends at the die's edges. A "face"
		// of its surroundings' colour, or whose colour runs on out of the die's neighbourhood,
		// is part of something else: a shadow, the desk beside a side face, a cable, a
		// laptop's edge. (A blob much longer than wide may be two dice side by side with the
		// tray between them at its centre: it is not judged so.)
		if why := noFace(lab, P, S, r.o.MinContrast); why != "" {
			f.clutter, f.why = true, why
			return f
		}
	}
	// Faces with few pips say little about their own turn, so the reading must not hang on
	// how the edges' turn is measured: the gradient directions themselves, pips included,
	// give a second measure, and where it differs the face is read again there. Another
	// value, or ambiguity, there (a side face's pip taken for a 1's partner) makes the face
	// ambiguous; a failure for the pips' turn alone does not.
	if f.value >= 1 && f.value <= 3 && square >= minSquare && turnDiff(d, dg) > 2*math.Pi/180 {
		g := r.readFaceTurned(img, src, c, lab, k, dg, square)
		if g.value != f.value && (g.value != 0 || g.amb.is() || g.bigger && f.value <= 2) {
			return face{why: fmt.Sprintf("ambiguous: reads %d or %s depending on how the die's turn is measured", f.value, g.valueOr()), amb: ambiguity{a: f.value, b: g.value}, square: square}
		}
		if g.value == f.value && !samePlace(f, g) {
			return face{why: fmt.Sprintf("ambiguous: reads %d from other pips depending on how the die's turn is measured", f.value), amb: ambiguity{a: f.value, b: f.value}, square: square}
		}
	}
	return f
}

// readFaceTurned reads the face with the die's edges turned by d from the blob's axes
// (lab is the patch in the blob's axes, resampled from src).
func (r *Reader) readFaceTurned(img gocv.Mat, src *surround, c cand, lab []byte, k, d, square float64) face {
	if math.Abs(d) <= 2*math.Pi/180 || square < minSquare {
		return r.readFaceAt(img, c, lab, k, square)
	}
	alt := c
	c.r.ang += d
	f := r.readFaceAt(img, c, src.warp(c.r), k, square)
	if f.value > 3 || f.value == 0 && f.turned == 0 || math.Abs(d) < 15*math.Pi/180 {
		return f
	}
	g := r.readFaceAt(img, alt, lab, k, square)
	switch {
	case g.bigger && f.value >= 1 && f.value <= 2:
		// The other turn sees more pips like the 1 or 2's own than such a face holds. A face
		// that reads nothing here has no value to doubt: it stays unread, not ambiguous.
		return face{why: fmt.Sprintf("ambiguous: reads %d or a face of more pips depending on the die's turn", f.value), amb: ambiguity{a: f.value, more: true}, square: square}
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
		return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the die's turn", f.value, g.value), amb: ambiguity{a: f.value, b: g.value}, square: square}
	case !samePlace(f, g):
		return face{why: fmt.Sprintf("ambiguous: reads %d from other pips depending on the die's turn", f.value), amb: ambiguity{a: f.value, b: f.value}, square: square}
	}
	return f
}

// readFaceAt reads a face from its Lab patch, resampled in the die's axes c.r.ang at scale k.
func (r *Reader) readFaceAt(img gocv.Mat, c cand, lab []byte, k, square float64) face {
	return r.readFaceShaped(img, c, lab, k, square, true, 0)
}

// readFaceShaped is readFaceAt; shaped says whether the pips' shapes may tell a side face's
// pips from the top face's; pol, when not 0, counts only the pixels darker (-1) or lighter
// (+1) than the face as contrasting by their lightness (see polarised).
func (r *Reader) readFaceShaped(img gocv.Mat, c cand, lab []byte, k, square float64, shaped bool, pol int) face {
	S := float64(r.o.FaceSide)
	P := int(2 * S)
	half := float64(P) / 2
	// Contrast of every patch pixel with the face colour (median of the die's centre).
	fL, fA, fB := faceColour(lab, P, S, 0.3)
	// Contrast with the face's median colour, read at three thresholds: Otsu's, lower for
	// faint pips (red on black), higher for pips that merge. (A contrast with the local median,
	// which cancels marbling, found more faces but misread more of them.)
	// A second map of hue alone finds coloured pips on a face of the same lightness (red on
	// black, pink on red); it is tried only when the first map reads nothing, since on plain
	// dice it only adds noise.
	inFace := func(x, y int) bool { // inside the face: no tray
		return math.Abs(float64(x)-half) < 0.38*S && math.Abs(float64(y)-half) < 0.38*S
	}
	n := 0 // pixels inside the face along each axis
	for x := 0; x < P; x++ {
		if inFace(x, P/2) {
			n++
		}
	}
	C := r.bufs.get(P * P)
	defer r.bufs.put(C)
	inner := r.bufs.get(n * n)[:0]
	defer func() { r.bufs.put(inner) }()
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := y*P + x
			dl, da, db := float64(lab[3*i])-fL, float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
			if pol < 0 && dl > 0 || pol > 0 && dl < 0 {
				dl = 0
			}
			C[i] = math.Sqrt(dl*dl + 2*(da*da+db*db))
			if inFace(x, y) {
				inner = append(inner, C[i])
			}
		}
	}
	if c.glare { // rare (see unglare): the face's pixels are gathered again from the new map
		unglared(C, lab, P, S, fL, r.bufs)
		inner = inner[:0]
		for i, v := range C {
			if inFace(i%P, i/P) {
				inner = append(inner, v)
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
	// The hue maps and their thresholds, made only when they are tried: the hue contrast with
	// the face, then its part in the pips' own hue (see pipHue).
	var Ch, Cd, innerH []float64
	defer func() { r.bufs.put(Ch); r.bufs.put(Cd); r.bufs.put(innerH) }()
	// The directed map is tried right after the plain one, whose map and face values it takes.
	hue := func(directed bool) attempt {
		M := Ch
		if !directed {
			Ch, innerH = r.bufs.get(P*P), r.bufs.get(n*n)
			M, innerH = Ch, hueMap(Ch, lab, P, inFace, fA, fB, 0, 0, innerH[:0])
		} else {
			ua, ub, ok := pipHue(Ch, lab, P, inFace, quantile(innerH, 0.9), fA, fB)
			if !ok {
				return attempt{}
			}
			Cd = r.bufs.get(P * P)
			M, innerH = Cd, hueMap(Cd, lab, P, inFace, fA, fB, ua, ub, innerH[:0])
		}
		return attempt{M, math.Max(otsu(innerH, 0, quantile(innerH, 0.995)+1), 2*r.o.MinContrast)}
	}
	if pol == 0 && !c.glare { // a white streak on a coloured face differs in hue too
		tries = append(tries, attempt{}, attempt{}) // the hue maps' places
	}
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
	var lones [][2]float64 // lone pips (see miss.lone), patch pixels
	var shapes shapeCache
	against := func(f fit) bool {
		for _, p := range lones {
			centre := (f.value == 3 || f.value == 5) && math.Hypot(p[0]-f.f.cx, p[1]-f.f.cy) < 0.5*f.f.a
			if f.value != 1 && !centre {
				return true
			}
		}
		return false
	}
	// weak: a 1 read by its even walks only; strong: a layout read otherwise; failed: a
	// threshold whose pips fit no layout; sides: a 1 read with side faces' pips (see sideOf).
	weak, strong, failed, mixed, sides := false, false, false, false, false
	bigger := false  // some threshold saw a 2 with pips like its own left out (see bestFit)
	both := false    // some threshold saw spots darker and lighter than the face
	var Cu []float64 // the map of the attempt used
	var Tu float64   // and its threshold
	reads := 0       // thresholds that read the value
	hued := false    // read from the directed hue map
	for ai, a := range tries {
		if ai >= 3 {
			if found {
				break // the hue maps are fallbacks for faces the contrast map cannot read
			}
			if a = hue(ai == 4); a.C == nil {
				continue
			}
		}
		tf := a.t
		ps := findPips(a.C, P, S, tf)
		pipLightness(ps, lab, P, fL)
		both = both || darkAndLight(ps, tf)
		if pol != 0 {
			ps = ofPolarity(ps, pol, tf)
		}
		if c.outlined {
			ps = insideFace(ps, S)
		}
		if len(ps) == 0 {
			continue
		}
		fi, us, w := r.bestFit(ps, a.C, P, S, tf, square >= minSquare)
		if shaped && len(ps) >= 2 && (w.why != "" || len(us) < len(ps) || fi.value <= 3) {
			// The pips' shapes tell a side face's pips from the top face's (see sideOf);
			// they matter only where some pips are left out or few pips fit.
			for i := range ps {
				ps[i] = shapes.of(img, c, k, ps[i], fL, fA, fB)
			}
			fi, us, w = r.bestFit(ps, a.C, P, S, tf, square >= minSquare)
		}
		if ai == 4 && (w.why != "" || fi.value < 3) {
			// The directed hue map only adds readings of three pips or more: its failures say
			// nothing, and one or two spots of one hue are as likely glare, a reflection, or
			// the part of a face the picture's edge leaves (cut 3s and 5s read as 2s).
			continue
		}
		anyPips = true
		if w.why != "" {
			mixed = true
			failed = failed || len(ps) > 1 // other pips than a lone one
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
			// A pip that would be a 1 but for other pips is a vote against any other value
			// (a 1 and a side face's pip read as a 2), but for a 3 or 5 whose centre it is.
			lones = append(lones, w.lone...)
			bigger = bigger || w.bigger
			if found && against(ft) {
				return face{why: fmt.Sprintf("ambiguous: reads 1 or %d depending on the pip threshold", ft.value), amb: ambiguity{a: 1, b: ft.value}}
			}
			continue
		}
		// Fewer pips fitted inside the face another threshold read, and spaced much closer,
		// are neighbouring pips of that face (a 3's corner lost at one threshold leaves a
		// centre and a corner, a 2 of half the spacing), not another value.
		switch {
		case against(fi):
		case found && fi.value != ft.value && innerFit(fi, ft):
			continue
		case found && fi.value != ft.value && innerFit(ft, fi):
			pips, ft, used, Cu, Tu = ps, fi, us, a.C, tf
		}
		if found && fi.value != ft.value || against(fi) {
			return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the pip threshold", max(ft.value, 1), fi.value), amb: ambiguity{a: max(ft.value, 1), b: fi.value}}
		}
		weak = weak || fi.weak
		sides = sides || fi.sides
		reads++
		strong = strong || !fi.weak
		if !found {
			pips, ft, used, Cu, Tu, found = ps, fi, us, a.C, tf, true
			hued = ai == 4
		}
	}
	if sides && failed {
		// A 1 whose other pips lie on side faces must be seen so at every threshold: keys and
		// labels (clutter) fit it at one threshold and nothing at another. The face is then
		// read without the pips' shapes.
		return r.readFaceShaped(img, c, lab, k, square, false, pol)
	}
	if weak && !strong && failed {
		// A 1 found only by the even walks around its pip is believed only when every
		// threshold sees it (glare hides the partner of a glossy die's pip at some). Like
		// pips in no layout, that refusal is the face networks' to overturn (unlaid).
		return face{why: "a single pip reads as a 1 at some pip thresholds only", square: square, unlaid: !c.edge}
	}
	if !anyPips {
		return face{notDie: true, why: "no pips", square: square}
	}
	if !found && pol == 0 && both {
		if f, ok := r.polarised(img, c, lab, k, square, shaped); ok {
			return f
		}
	}
	if !found {
		// Pips in no layout on something that runs off the picture (a cable, a keyboard) or
		// whose edges are not square (a round tray foot) is clutter, not a die.
		return face{why: why, notDie: c.edge || square < minSquare, square: square, turned: max(turned, 0), bigger: bigger, unlaid: !c.edge}
	}
	f := face{value: ft.value, square: square, spacing: ft.f.a / S, mixed: mixed, reads: reads, hued: hued}
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
			f.pips, f.look = append(f.pips, q), append(f.look, p)
		} else {
			f.extra, f.extraLook = append(f.extra, q), append(f.extraLook, p)
		}
	}
	occ, free := freeContrast(&openings{C: Cu, P: P}, ft, pips, used, Tu)
	// The free places' margin below the pips, as a share of the pips' contrast: at least
	// half on a face of one to five pips, a quarter on a 6 (see bestFit), which is scaled
	// to the others' range.
	margin := (occ - free) / occ
	if ft.value == 6 {
		margin = 1 - freeShare + (margin-(1-sixFreeShare))*freeShare/sixFreeShare
	}
	f.conf = clamp01(margin) * clamp01(1-ft.err/r.o.MaxLayoutError/2)
	if c.edge && !wholeAtEdge(img, c, f.face, ft.value) || !inPicture(f.face, img.Cols(), img.Rows()) || ft.value == 1 && cutOne(f.face, c.side, pips, used, k, img) {
		// Something that reaches the picture's edge cannot be checked whole: a die there may
		// show a side face or be cut off, and clutter there may look like pips. The part of a
		// face the edge leaves can fit a smaller face (the row of a half 4 is a 2), found
		// from its pips with no blob at the edge; that face then runs off the picture, or is a
		// 1 on too narrow a blob (see edge.go and TestReadCutByEdge). A lone die whose shadow
		// alone reaches the edge is checked whole all the same (wholeAtEdge).
		f.why = whyOutside
		f.value = 0
	}
	return f
}

// minSquare is the smallest squareness of a die's edges (see edgeTurn) that says anything
// about its turn; below it the edges are lost in the tray's texture.
const minSquare = 0.06
