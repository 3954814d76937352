package camera

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// pip is a pip candidate in patch pixels, relative to the patch centre.
type pip struct {
	x, y, d, c float64
	// q is the pip's axis ratio (minor/major, 1 when round, 0 when not measured) and o its
	// major axis's direction in the patch (radians, 0 to π); see pipShape.
	q, o float64
	// l is the pip's median lightness less the face's (see pipLightness).
	l float64
}

// face is what was read from one die candidate.
type face struct {
	value  int
	conf   float64
	why    string
	notDie bool         // no pips at all: not a die
	amb    bool         // not read because pips fitted different values
	pips   [][2]float64 // image pixels
	extra  [][2]float64 // pips seen in the patch but not used, image pixels
	// look and extraLook are the pips and the extra pips as found in the patch (size,
	// contrast, shape), in the same order.
	look, extraLook []pip
	square          float64
	// turned is the number of pips when no layout fitted and all of them were rejected only
	// for being turned from the die's sides (at the first threshold that found pips, and at
	// no other threshold as a different set); spacing is the fitted pip spacing, in face sides.
	turned  int
	spacing float64
	face    rotRect // the fitted top face, image pixels (zero when no layout fitted)
	// mixed: some pip threshold saw pips that fit no layout; reads: how many read the value.
	mixed bool
	reads int
	// bigger: not read, and some threshold saw two pips spaced as a 2 with pips just like
	// them left out: a face of more pips.
	bigger bool
	// clutter: not read, and not like a die either (see noFace, and readBlobs for clutter
	// along the picture's edge): Read leaves it out of the reading.
	clutter bool
	// col is the median Lab colour of the patch's centre: the face's own colour.
	col [3]float64
	// unlaid: pips were found but fit no canonical layout (or a lone pip read as a 1 at
	// some pip thresholds only), on a candidate inside the picture (see netRead).
	unlaid bool
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
	d := Die{Value: f.value, Confidence: f.conf, Why: f.why, clutter: f.clutter, col: f.col, amb: f.amb, outlined: c.outlined, src: c, fc: f.face,
		Box: image.Rect(int(r.cx-hw), int(r.cy-hh), int(r.cx+hw+1), int(r.cy+hh+1)).Add(off)}
	if f.unlaid {
		d.unlaid = f.why
	}
	for _, p := range f.pips {
		d.Pips = append(d.Pips, image.Pt(int(math.Round(p[0])), int(math.Round(p[1]))).Add(off))
	}
	return d
}

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
	if f.value == 0 && !f.amb && !f.notDie && !small {
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
	if f.value == 0 && !f.amb && !f.notDie && !small && c.r.aspect() < 1.6 {
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
		if g.value != f.value && (g.value != 0 || g.amb || g.bigger && f.value <= 2) {
			return face{why: fmt.Sprintf("ambiguous: reads %d or %s depending on how the die's turn is measured", f.value, g.valueOr()), amb: true, square: square}
		}
		if g.value == f.value && !samePlace(f, g) {
			return face{why: fmt.Sprintf("ambiguous: reads %d from other pips depending on how the die's turn is measured", f.value), amb: true, square: square}
		}
	}
	return f
}

// samePlace says whether faces f and g were fitted at the same place: within half a pip
// spacing. The same value read from other pips at another turn (a 1 and a side face's pip
// one way, that pip and another side face's pip the other) is no reading of one face.
func samePlace(f, g face) bool {
	return math.Hypot(f.face.cx-g.face.cx, f.face.cy-g.face.cy) < 0.5*math.Min(f.face.w, g.face.w)/3.6
}

// valueOr is the face's value, or "?" when it was not read.
func (f face) valueOr() string {
	if f.value == 0 {
		return "?"
	}
	return fmt.Sprint(f.value)
}

// turnDiff is the difference between two turns of a square, in radians (0 to 45°).
func turnDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), math.Pi/2)
	return math.Min(d, math.Pi/2-d)
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
		return face{why: fmt.Sprintf("ambiguous: reads %d or a face of more pips depending on the die's turn", f.value), amb: true, square: square}
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
		return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the die's turn", f.value, g.value), amb: true, square: square}
	case !samePlace(f, g):
		return face{why: fmt.Sprintf("ambiguous: reads %d from other pips depending on the die's turn", f.value), amb: true, square: square}
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
	// The hue map and its threshold, made only when it is tried.
	var Ch, innerH []float64
	defer func() { r.bufs.put(Ch); r.bufs.put(innerH) }()
	hue := func() attempt {
		Ch = r.bufs.get(P * P)
		innerH = r.bufs.get(n * n)[:0]
		for y := 0; y < P; y++ {
			for x := 0; x < P; x++ {
				i := y*P + x
				da, db := float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
				Ch[i] = 2 * math.Sqrt(da*da+db*db)
				if inFace(x, y) {
					innerH = append(innerH, Ch[i])
				}
			}
		}
		return attempt{Ch, math.Max(otsu(innerH, 0, quantile(innerH, 0.995)+1), 2*r.o.MinContrast)}
	}
	if pol == 0 && !c.glare { // a white streak on a coloured face differs in hue too
		tries = append(tries, attempt{}) // the hue map's place
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
	for ai, a := range tries {
		if ai == 3 {
			if found {
				break // the hue map is a fallback for faces the contrast map cannot read
			}
			a = hue()
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
		anyPips = true
		fi, us, w := r.bestFit(ps, a.C, P, S, tf, square >= minSquare)
		if shaped && len(ps) >= 2 && (w.why != "" || len(us) < len(ps) || fi.value <= 3) {
			// The pips' shapes tell a side face's pips from the top face's (see sideOf);
			// they matter only where some pips are left out or few pips fit.
			for i := range ps {
				ps[i] = shapes.of(img, c, k, ps[i], fL, fA, fB)
			}
			fi, us, w = r.bestFit(ps, a.C, P, S, tf, square >= minSquare)
		}
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
				return face{why: fmt.Sprintf("ambiguous: reads 1 or %d depending on the pip threshold", ft.value), amb: true}
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
			return face{why: fmt.Sprintf("ambiguous: reads %d or %d depending on the pip threshold", max(ft.value, 1), fi.value), amb: true}
		}
		weak = weak || fi.weak
		sides = sides || fi.sides
		reads++
		strong = strong || !fi.weak
		if !found {
			pips, ft, used, Cu, Tu, found = ps, fi, us, a.C, tf, true
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
	f := face{value: ft.value, square: square, spacing: ft.f.a / S, mixed: mixed, reads: reads}
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
	if c.edge || !inPicture(f.face, img.Cols(), img.Rows()) || ft.value == 1 && cutOne(f.face, c.side, pips, used, k, img) {
		// Something that reaches the picture's edge cannot be checked whole: a die there may
		// show a side face or be cut off, and clutter there may look like pips. The part of a
		// face the edge leaves can fit a smaller face (the row of a half 4 is a 2), found
		// from its pips with no blob at the edge; that face then runs off the picture, or is a
		// 1 on too narrow a blob (see edge.go and TestReadCutByEdge).
		f.why = whyOutside
		f.value = 0
	}
	return f
}

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

// innerFit says whether fit f, of two or more pips, lies within fit g of more pips and is
// clearly smaller: neighbouring pips of g's face (two pips of a 4's side read as a 2 have
// 1/√2 of its spacing, two of a 3's diagonal 1/2; a fit's own error is about a tenth).
func innerFit(f, g fit) bool {
	return f.value >= 2 && g.value > f.value && f.f.a < 0.85*g.f.a && math.Hypot(f.f.cx-g.f.cx, f.f.cy-g.f.cy) < 1.8*g.f.a
}

// warpFace returns the Lab bytes of a P×P patch centred on the candidate, rotated to its axes
// and scaled by k.
func warpFace(img gocv.Mat, rr rotRect, k float64, P int) ([]byte, bool) {
	src, ok := newSurround(img, rr.cx, rr.cy, k, P)
	if !ok {
		return nil, false
	}
	defer src.Close()
	return src.warp(rr), true
}

// surround is the part of the picture around a point from which P×P patches centred there
// are resampled at scale k. When k is small it is shrunk first with area averaging
// (warpAffine alone would alias); a face read at several turns shares that one shrinking.
type surround struct {
	roi, small gocv.Mat
	shrunk     bool
	box        image.Rectangle
	k, pre     float64 // the patches' scale, and the shrinking's
	P          int
}

func newSurround(img gocv.Mat, cx, cy, k float64, P int) (*surround, bool) {
	reach := float64(P) / k * 0.75
	box := image.Rect(int(cx-reach), int(cy-reach), int(cx+reach)+1, int(cy+reach)+1).
		Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if box.Dx() < 4 || box.Dy() < 4 {
		return nil, false
	}
	s := &surround{roi: img.Region(box), box: box, k: k, pre: 1, P: P}
	if k < 0.7 {
		pre := k / 0.8
		s.small, s.shrunk = gocv.NewMat(), true
		gocv.Resize(s.roi, &s.small, image.Pt(max(1, int(float64(box.Dx())*pre)), max(1, int(float64(box.Dy())*pre))), 0, 0, gocv.InterpolationArea)
		s.pre = float64(s.small.Cols()) / float64(box.Dx())
	}
	return s, true
}

func (s *surround) Close() {
	s.roi.Close()
	if s.shrunk {
		s.small.Close()
	}
}

// warp returns the Lab bytes of the patch in the axes of rr, which is centred where the
// surround was made.
func (s *surround) warp(rr rotRect) []byte {
	src := s.roi
	if s.shrunk {
		src = s.small
	}
	cx, cy := (rr.cx-float64(s.box.Min.X))*s.pre, (rr.cy-float64(s.box.Min.Y))*s.pre
	kk := s.k / s.pre
	ca, sa := math.Cos(rr.ang), math.Sin(rr.ang)
	h := float64(s.P) / 2
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
	gocv.WarpAffineWithParams(src, &out, m, image.Pt(s.P, s.P), gocv.InterpolationLinear, gocv.BorderReplicate, black())
	return toLab(out).p
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
		for x := 0; x < n; x++ {
			g.b[y*n+x] = C[(y+lo)*P+x+lo] > t
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

// bestFit finds the largest set of pips (all of them first) that forms a canonical layout whose
// free places are clear, with every left-out pip off the fitted face (a side face in an oblique
// view). It returns the fit and the indices of the pips used.
func (r *Reader) bestFit(pips []pip, C []float64, P int, S, t float64, sided bool) (fit, []int, miss) {
	n := len(pips)
	if n > 9 {
		return fit{}, nil, miss{why: fmt.Sprintf("%d pips", n)}
	}
	why := ""
	turned := false       // all the pips fit a layout but for its turn
	bigger := false       // a 2 failed for leaving out pips like its own
	var lone [][2]float64 // pips that fit a 1 but for other pips on the face
	one := oneWithSides(pips, S)
	open := &openings{C: C, P: P}
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
		// The pips of one face are printed and lit alike: their contrasts spread by about
		// 15%, at most 30% on the shared photos. A side face's pips, lit from another angle
		// and seen obliquely, contrast about half as much as the top face's: a layout mixing
		// the two (a 5 and its side face's column read as a 6, a 2 and a side face's pip as
		// a 3) is not one face.
		if len(idx) > 1 {
			cmin, cmax := math.Inf(1), 0.0
			for _, j := range idx {
				cmin, cmax = math.Min(cmin, pips[j].c), math.Max(cmax, pips[j].c)
			}
			if cmin < minPipContrastRatio*cmax {
				return fail("pips of unequal contrast")
			}
			// A top face's pips are foreshortened alike. A pip clearly flatter than the
			// layout's pips are as a rule (their median; see sideOf) and smaller too, as
			// foreshortening makes it, lies on a side face, which the camera sees more
			// obliquely (a 2 and a side face's pip read as a 3, a 4 and one as a 5).
			// Flatness alone does not tell (a top face's pips in an oblique view are as flat
			// as a side face's in another).
			var qs, ds []float64
			for _, j := range idx {
				if pips[j].q > 0 {
					qs, ds = append(qs, pips[j].q), append(ds, pips[j].d)
				}
			}
			qm, dm := median(qs), median(ds)
			for _, j := range idx {
				if p := pips[j]; p.q > 0 && p.q < sideRatio*qm && p.d < sideShrink*dm {
					return fail("a side face's pip, flatter and smaller than the face's own")
				}
			}
		}
		if len(idx) > 1 {
			// A face's pips are printed in one colour: all darker than the face or all
			// lighter. A layout of a dark spot and a light one (a dark die's bevel and
			// the glossy pip of its 1) is no face.
			sub := make([]pip, len(idx))
			for i, j := range idx {
				sub[i] = pips[j]
			}
			if darkAndLight(sub, t) {
				return fail("pips darker and lighter than the face")
			}
		}
		if one >= 0 && (len(idx) > 1 || idx[0] != one) {
			return fail("a side face's pips (the top face shows a 1)")
		}
		ft, ok := fitLayout(pts, S)
		if !ok || ft.err > r.o.MaxLayoutError {
			return fail(fmt.Sprintf("layout error %.2f", ft.err))
		}
		if len(idx) == 3 && bent(pts) > maxBend {
			// A view maps straight lines to straight lines, so a 3's pips stay in one
			// line however the die is seen; a bend is a speck of marbling or glare
			// taken for its middle pip (a 2 read as a 3).
			return fail(fmt.Sprintf("three pips off one line by %.2f of their length", bent(pts)))
		}
		if len(idx) == 1 {
			if pips[idx[0]].d > maxOnePip*S {
				return fail("a pip too big for a 1")
			}
			// A lone pip must sit well inside the die (in an oblique view the top face's
			// centre is off the blob's): at least 0.3 of a side from where the face ends.
			// Or it must sit in the middle of a face of its own, as a 1's pip does: a die
			// near the picture's edge shows side faces, so its blob is wider than its top
			// face, but the walks from the pip to the face's edges are then still even.
			// (A pip of a 2, 4 or 6 is much nearer two of the edges than the other two.)
			dx, dy := pts[0][0]-float64(P)/2, pts[0][1]-float64(P)/2
			w := walks(C, P, pts[0], t)
			fw, fh := w[0]+w[1], w[2]+w[3]
			even := math.Min(w[0], w[1]) >= 0.6*math.Max(w[0], w[1]) && math.Min(w[2], w[3]) >= 0.6*math.Max(w[2], w[3]) &&
				math.Min(fw, fh) >= 0.45*S
			inside := math.Min(math.Min(w[0], w[1]), math.Min(w[2], w[3])) >= 0.28*S
			if math.Hypot(dx, dy) > 0.35*S || !inside && !even {
				return fail("single pip near the die's edge")
			}
			if even {
				// The free places of the 3×3 grid lie within that face.
				ft.f.a = math.Min(ft.f.a, 0.28*math.Min(fw, fh))
			}
			ft.weak = !inside
			ft.sides = one == idx[0]
			// And the rest of the face must be empty, corners included: one pip of a 2 or 3
			// seen with the die's turn 45° off lies near the centre, its partner on the face.
			// (A speck of glare or a bevel is not a partner: it must look like the pip.)
			q := pips[idx[0]]
			// Such a pip votes for a 1 against other values (a 1 and a side face's pip read
			// as a 2), unless one of the others lies within the clear margin the walks
			// demand, diagonally (the walks run along the axes): it would be on the 1's own
			// blank face, so the pip is no 1 at all (a corner pip of a 3).
			other, own := false, false
			for j, p := range pips {
				if j != idx[0] && math.Hypot(p.x, p.y) < 0.52*S && p.d > 0.6*q.d && p.d < 1.67*q.d && p.c > 0.5*q.c && one != idx[0] {
					other = true
					own = own || math.Abs(p.x-q.x) < 0.28*S && math.Abs(p.y-q.y) < 0.28*S
				}
			}
			if other {
				if inside && !own { // a pip that is a 1 only by its even walks is no vote
					lone = append(lone, pts[0])
				}
				return fail("single pip with another pip on the face")
			}
		} else if len(idx) == 2 && (sideOf(pips[idx[0]], pips[idx[1]], S) || sideOf(pips[idx[1]], pips[idx[0]], S)) {
			// A 2 of a top face's pip and a side face's (see sideOf).
			return fail("a side face's pip with the top face's")
		} else if ft.f.a < 0.08*S || ft.f.a > 0.42*S {
			return fail(fmt.Sprintf("pip spacing %.2f of the die", ft.f.a/S))
		} else if d := pipWidth(pips, idx); d > math.Sqrt2*ft.f.a {
			// A die's 3 and 5 hold a centre pip √2 spacings from each corner pip, so a
			// die's pips are narrower than that (up to 1.3 spacings on the faces of exact
			// photos; 1.6–1.8 where glare or blur hid a 3's corner): pips that wide make a
			// layout fitted at a fraction of the face's spacing, its pips neighbours on a
			// bigger face (a 3's corner and centre read as a 2 of half the spacing). A
			// few real 2s printed with their pips near the centre are refused with them.
			bigger = bigger || len(idx) == 2
			return fail(fmt.Sprintf("pips %.2f spacings wide: neighbours on a bigger face", d/ft.f.a))
		} else if tilt := math.Min(ft.f.ang, math.Pi/2-ft.f.ang); sided && len(idx) <= 3 && tilt > 25*math.Pi/180 {
			// Few pips constrain the layout weakly: they must also line up with the die's sides
			// (when the sides are seen at all: sided).
			turned = turned || len(idx) == n
			return fail(fmt.Sprintf("pips turned %.0f° from the die's sides", tilt*180/math.Pi))
		}
		// A free place must be clear of a pip too faint for the threshold (a 3 read as a 2):
		// below half the weakest pip's contrast. No face has a hidden seventh pip, so a 6's
		// free places, each between two pips one spacing away, need only stay below the
		// threshold and clearly under the pips: big pips in rows of three nearly touch, and
		// their blur fills the gap between the rows.
		occ, free := freeContrast(open, ft, pips, idx, t)
		if !clearFree(occ, free, t, len(idx)) {
			return fail(fmt.Sprintf("contrast %.0f at a free place vs %.0f at pips", free, occ))
		}
		// Pips left out must lie off this face, unless they lie on a side face.
		in := make(map[int]bool, len(idx))
		for _, j := range idx {
			in[j] = true
		}
		top := pip{x: ft.f.cx - float64(P)/2, y: ft.f.cy - float64(P)/2, q: math.Inf(1)}
		for _, j := range idx {
			top.q = math.Min(top.q, pips[j].q)
			top.d += pips[j].d / float64(len(idx))
		}
		side := make(map[int]bool)
		for j, p := range pips {
			if in[j] {
				continue
			}
			if sideOf(p, top, S) {
				side[j] = true
				continue
			}
			flat := true
			for _, i := range idx {
				flat = flat && sideOf(pips[i], p, S)
			}
			if flat {
				return fail("a side face: a rounder pip beside it")
			}
			u, v := ft.f.local(p.x+float64(P)/2, p.y+float64(P)/2)
			if math.Max(math.Abs(u), math.Abs(v)) < 1.75 {
				return fail("stray pip on the face")
			}
		}
		// The pips of one face look alike. A face of few pips that leaves out a pip on the
		// die clearly stronger than one of its own took a weaker pip, a side face's or a
		// neighbour's, for a partner and left its true partner out (the die's turn taken
		// wrong). Clearly: by more than the spread among one face's pips (about 15%).
		if len(idx) <= 3 && len(idx) < n {
			weakest := math.Inf(1)
			for _, j := range idx {
				weakest = math.Min(weakest, pips[j].c)
			}
			own := make([]pip, len(idx))
			for i, j := range idx {
				own[i] = pips[j]
			}
			like := 0
			for j, p := range pips {
				if in[j] || side[j] || math.Abs(p.x) >= 0.5*S || math.Abs(p.y) >= 0.5*S {
					continue
				}
				if p.c > 1.25*weakest {
					return fail("a pip on the die left out contrasts more than one used")
				}
				if pipLike(p, own) && (p.q == 0 || p.q > sideRatio*top.q) {
					like++
				}
			}
			// Two or more pips on the die just like the face's own (as strong, as big, no
			// flatter) that it leaves out are pips of the same face: the fit took neighbouring
			// pips of a 4 or 5 for a small 2, its other pips then lying outside that small face.
			if len(idx) == 2 && like >= 2 {
				bigger = true
				return fail("pips like its own left out: part of a bigger face")
			}
		}
		return ft, true
	}
	for m := min(n, 6); m >= 1; m-- {
		var best fit
		var bestIdx []int
		found, bestAlike := false, false
		forSubsets(n, m, func(idx []int) {
			// Of the layouts that fit, one of pips foreshortened alike beats one that takes a
			// side face's flatter pip for a top face's (see sideOf); then the closer fit wins.
			ft, ok := try(idx)
			if !ok {
				return
			}
			a := alike(pips, idx)
			if !found || a && !bestAlike || a == bestAlike && ft.err < best.err {
				best, bestIdx, found, bestAlike = ft, append([]int(nil), idx...), true, a
			}
		})
		if found {
			sort.Ints(bestIdx)
			return best, bestIdx, miss{}
		}
	}
	return fit{}, nil, miss{fmt.Sprintf("%d pips in no canonical layout: %s", n, why), turned, lone, bigger}
}

// The most contrast a free place of the 3×3 grid may show, as a share of the weakest pip's:
// on a 6, whose free places lie between its rows, and on the other faces (see bestFit).
const (
	freeShare    = 0.5
	sixFreeShare = 0.75
)

// miss says why no layout fitted: why, whether the pips fitted but for their turn (turned),
// the pips (patch pixels) that fitted a 1 but for other pips on the face (lone), and whether
// a 2 failed for leaving out pips like its own (bigger).
type miss struct {
	why    string
	turned bool
	lone   [][2]float64
	bigger bool
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

// freeContrast is gridContrast for the pips idx fitted as ft at threshold t on the map o.C.
// Where the free places are not clear, a face of three or more pips is read again through a
// grey opening by a disc a quarter of its pips' width across: what survives it is as wide
// as a pip, while a glare streak or a crack, thinner, does not (nor does a streak's end
// taken for a pip). One or two pips say too little of their size, and reading a 1's or 2's
// free places so turned 3s into 2s and lost faces on the shared photos.
func freeContrast(o *openings, ft fit, pips []pip, idx []int, t float64) (occ, free float64) {
	occ, free = gridContrast(o.C, o.P, ft)
	if len(idx) >= 3 && !clearFree(occ, free, t, len(idx)) {
		if rad := 0.25 * pipWidth(pips, idx); rad >= 1 {
			occ, free = gridContrast(o.at(rad), o.P, ft)
		}
	}
	return occ, free
}

// clearFree says whether the free places of a face of n pips are clear: their contrast
// below the threshold t and a share of the pips' (see bestFit).
func clearFree(occ, free, t float64, n int) bool {
	ratio := freeShare
	if n == 6 {
		ratio = sixFreeShare
	}
	return free < t && free <= ratio*occ
}

// openings holds a P×P map and its grey openings by discs, made once per radius.
type openings struct {
	C  []float64
	P  int
	by map[float64][]float64
}

// at returns C opened by a disc of radius rad: the largest, over the discs holding a pixel,
// of the least value in the disc.
func (o *openings) at(rad float64) []float64 {
	if m, ok := o.by[rad]; ok {
		return m
	}
	out := o.C
	if src, err := gocv.NewMatFromBytes(o.P, o.P, gocv.MatTypeCV32F, f32bytes(o.C)); err == nil {
		defer src.Close()
		ri := int(rad)
		k := gocv.Zeros(2*ri+1, 2*ri+1, gocv.MatTypeCV8U)
		defer k.Close()
		for y := -ri; y <= ri; y++ {
			for x := -ri; x <= ri; x++ {
				if float64(x*x+y*y) <= rad*rad {
					k.SetUCharAt(y+ri, x+ri, 1)
				}
			}
		}
		dst := gocv.NewMat()
		defer dst.Close()
		gocv.MorphologyEx(src, &dst, gocv.MorphOpen, k)
		if v, err := dst.DataPtrFloat32(); err == nil && len(v) == o.P*o.P {
			out = make([]float64, len(v))
			for i, x := range v {
				out[i] = float64(x)
			}
		}
	}
	if o.by == nil {
		o.by = map[float64][]float64{}
	}
	o.by[rad] = out
	return out
}

// f32bytes packs v as float32s in native byte order, for a CV_32F Mat.
func f32bytes(v []float64) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.NativeEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
	}
	return b
}

// edgeTurn returns how far (radians, within ±45°) the die's edges in the patch are turned from
// its axes, from the 4-fold symmetric average of the local edge directions of the L channel.
// The directions are those of the gradient's structure tensor over 5×5 pixels, weighted by
// how much one direction dominates there: a straight edge counts fully, while a pip, round
// and smaller than the window, counts little (the outlines of a diagonal 3's pips on a pale
// die would otherwise turn the estimate by up to 45°).
//
// It also returns how square the edges are: the strength of the 4-fold average of the
// gradient directions relative to all gradient energy (near 0 for a disc or clutter, clearly
// above for a die), and the turn that average gives (pips and all).
func edgeTurn(lab []byte, P int, S float64, bufs *floats) (float64, float64, float64) {
	const win = 2 // the 5×5 window
	half := float64(P) / 2
	lo, hi := max(1, int(half-0.7*S)), min(P-2, int(half+0.7*S)+1)
	// Gradient and its tensor on the region, win pixels wider for the window.
	x0, x1 := max(1, lo-win), min(P-2, hi+win)
	n := x1 - x0 + 1
	buf := bufs.get(4 * n * n)
	defer bufs.put(buf)
	jxx, jyy, jxy, tmp := buf[:n*n], buf[n*n:2*n*n], buf[2*n*n:3*n*n], buf[3*n*n:]
	var c4, s4, tot float64
	for y := x0; y <= x1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*P + x
			gx := float64(lab[3*(i+1)]) - float64(lab[3*(i-1)])
			gy := float64(lab[3*(i+P)]) - float64(lab[3*(i-P)])
			j := (y-x0)*n + x - x0
			jxx[j], jyy[j], jxy[j] = gx*gx, gy*gy, gx*gy
			w := gx*gx + gy*gy
			if w == 0 || math.Abs(float64(x)-half) > 0.7*S || math.Abs(float64(y)-half) > 0.7*S {
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
		return 0, 0, 0
	}
	square := math.Hypot(c4, s4) / tot
	boxSum(jxx, tmp, n, win)
	boxSum(jyy, tmp, n, win)
	boxSum(jxy, tmp, n, win)
	var t4c, t4s float64
	for y := lo; y <= hi; y++ {
		if math.Abs(float64(y)-half) > 0.7*S {
			continue
		}
		for x := lo; x <= hi; x++ {
			if math.Abs(float64(x)-half) > 0.7*S {
				continue
			}
			j := (y-x0)*n + x - x0
			c2, s2 := jxx[j]-jyy[j], 2*jxy[j]
			e := math.Hypot(c2, s2) // the dominant direction's excess energy
			if e == 0 {
				continue
			}
			t4c += (c2*c2 - s2*s2) / e
			t4s += 2 * c2 * s2 / e
		}
	}
	return math.Atan2(t4s, t4c) / 4, square, math.Atan2(s4, c4) / 4
}

// boxSum replaces each value of the n×n grid v by the sum of its (2r+1)² neighbourhood
// (clipped), with running sums along rows and then columns; tmp is scratch of v's length.
func boxSum(v, tmp []float64, n, r int) {
	for y := 0; y < n; y++ {
		row := v[y*n : y*n+n]
		var s float64
		for x := 0; x < min(r, n); x++ {
			s += row[x]
		}
		for x := 0; x < n; x++ {
			if x+r < n {
				s += row[x+r]
			}
			if x-r-1 >= 0 {
				s -= row[x-r-1]
			}
			tmp[y*n+x] = s
		}
	}
	for x := 0; x < n; x++ {
		var s float64
		for y := 0; y < min(r, n); y++ {
			s += tmp[y*n+x]
		}
		for y := 0; y < n; y++ {
			if y+r < n {
				s += tmp[(y+r)*n+x]
			}
			if y-r-1 >= 0 {
				s -= tmp[(y-r-1)*n+x]
			}
			v[y*n+x] = s
		}
	}
}

// walks returns the lengths of the four axis-aligned walks (+x, -x, +y, -y) from p, past its
// own pip, to a pixel that contrasts with the face (the die's edge, the tray, another pip).
func walks(C []float64, P int, p [2]float64, t float64) [4]float64 {
	var out [4]float64
	for k, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
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
		out[k] = float64(n)
	}
	return out
}

// minSquare is the smallest squareness of a die's edges (see edgeTurn) that says anything
// about its turn; below it the edges are lost in the tray's texture.
const minSquare = 0.06

// faceExtent finds the die's face in its patch as the part the surroundings do not reach:
// pixels contrasting with the face's colour more than Otsu's threshold over the whole patch,
// connected to the patch's border. It returns the face's centre and side (patch pixels) when
// the face is clearly smaller than the patch expects (below 0.8 of S) and squarish.
func faceExtent(lab []byte, P int, S float64) (cx, cy, side float64, ok bool) {
	half := float64(P) / 2
	fL, fA, fB := faceColour(lab, P, S, 0.2)
	C := make([]float64, P*P)
	for i := range C {
		dl, da, db := float64(lab[3*i])-fL, float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
		C[i] = math.Sqrt(dl*dl + 2*(da*da+db*db))
	}
	t := otsu(C, 0, quantile(C, 0.995)+1)
	// The surroundings: the contrasting components that touch the patch's border.
	g := newGrid(P, P)
	for i, c := range C {
		g.b[i] = c > t
	}
	out := make([]bool, P*P)
	for _, comp := range g.components4(1) {
		edge := false
		for _, i := range comp {
			x, y := i%P, i/P
			edge = edge || x == 0 || y == 0 || x == P-1 || y == P-1
		}
		if edge {
			for _, i := range comp {
				out[i] = true
			}
		}
	}
	// The face spans the columns (rows) through the middle band that the surroundings
	// mostly miss, outwards from the centre.
	span := func(at func(u, v int) int) (lo, hi int) {
		free := func(u int) bool {
			n, m := 0, 0
			for v := int(half - 0.2*S); v <= int(half+0.2*S); v++ {
				n++
				if out[at(u, v)] {
					m++
				}
			}
			return 2*m < n
		}
		lo, hi = int(half), int(half)
		if !free(lo) {
			return 0, -1
		}
		for lo > 0 && free(lo-1) {
			lo--
		}
		for hi < P-1 && free(hi+1) {
			hi++
		}
		return lo, hi
	}
	x0, x1 := span(func(u, v int) int { return v*P + u })
	y0, y1 := span(func(u, v int) int { return u*P + v })
	w, h := float64(x1-x0+1), float64(y1-y0+1)
	if w < 0.4*S || h < 0.4*S || math.Max(w, h) > 0.8*S || math.Max(w, h) > 1.25*math.Min(w, h) {
		return 0, 0, 0, false
	}
	return float64(x0+x1) / 2, float64(y0+y1) / 2, (w + h) / 2, true
}

// noFace says why the patch's centre is no die's face, or returns "": when its colour (the
// median of the centre) differs by less than t from that of its surroundings (the median of a
// ring 0.3 to 0.48 of a side beyond the face's edges), or when the pixels of its colour
// around the centre reach two or more sides of the patch (half a side beyond the face).
func noFace(lab []byte, P int, S, t float64) string {
	half := float64(P) / 2
	fL, fA, fB := faceColour(lab, P, S, 0.3)
	var Ls, As, Bs byteHist
	g := newGrid(P, P)
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := y*P + x
			L, A, B := float64(lab[3*i]), float64(lab[3*i+1]), float64(lab[3*i+2])
			if d := math.Max(math.Abs(float64(x)-half), math.Abs(float64(y)-half)); d >= 0.8*S && d < 0.98*S {
				Ls.add(lab[3*i])
				As.add(lab[3*i+1])
				Bs.add(lab[3*i+2])
			}
			g.b[i] = math.Sqrt((L-fL)*(L-fL)+2*((A-fA)*(A-fA)+(B-fB)*(B-fB))) <= t
		}
	}
	if labDist([3]float64{fL, fA, fB}, [3]float64{Ls.median(), As.median(), Bs.median()}) < t {
		return "no face: its colour is that of its surroundings"
	}
	// The region of the face's colour: the component with most pixels near the centre.
	var best []int
	bn := 0
	for _, comp := range g.components4(1) {
		n := 0
		for _, i := range comp {
			if math.Abs(float64(i%P)-half) < 0.2*S && math.Abs(float64(i/P)-half) < 0.2*S {
				n++
			}
		}
		if n > bn {
			best, bn = comp, n
		}
	}
	var l, r, u, d bool
	for _, i := range best {
		x, y := i%P, i/P
		l, r, u, d = l || x == 0, r || x == P-1, u || y == 0, d || y == P-1
	}
	if n := btoi(l) + btoi(r) + btoi(u) + btoi(d); n >= 2 {
		return "no face: its colour runs on beyond the die"
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// faceColour is the median Lab colour of the patch's centre square, r·S from the centre
// each way: the face's own colour, pips being a minority there.
func faceColour(lab []byte, P int, S, r float64) (L, A, B float64) {
	half := float64(P) / 2
	var Ls, As, Bs byteHist
	lo, hi := max(0, int(half-r*S)), min(P-1, int(half+r*S)+1) // the square and a margin
	for y := lo; y <= hi; y++ {
		for x := lo; x <= hi; x++ {
			if math.Abs(float64(x)-half) < r*S && math.Abs(float64(y)-half) < r*S {
				i := (y*P + x) * 3
				Ls.add(lab[i])
				As.add(lab[i+1])
				Bs.add(lab[i+2])
			}
		}
	}
	return Ls.median(), As.median(), Bs.median()
}

// maxOnePip is the largest diameter, in die sides, of a 1's pip. However big a 1's pip, the
// face shows round it: a lone blob a third of the die's side wide is several pips merged (a
// 5's red pips on black, one blob in the hue map), or the "die" found is itself a pip of a
// pale die on pale wood, with its halo.
const maxOnePip = 0.28

// minPipContrastRatio is the least ratio of the weakest pip's contrast to the strongest's
// among one face's pips (see bestFit).
const minPipContrastRatio = 0.6

// sideShrink is the largest ratio of a side face's pip's diameter to a top face pip's: the
// pips of one face differ in size by about a tenth (see bestFit).
const sideShrink = 0.85

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

// maxBend is the largest distance of a 3's middle pip from the line through its outer pips, in
// lengths of that line: real 3s measure up to 0.08 on the shared photos (a pixel on the
// smallest dice), a marbling speck taken for the middle pip 0.27.
const maxBend = 0.15

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
