package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// cand is a die candidate in the (tray) image's pixel coordinates.
type cand struct {
	r    rotRect
	side float64 // the die's side: the blob's without shadow and rounding (2× its inscribed radius)
	edge bool    // touches the picture's edge: the die may be partly outside
	die  float64 // the die's side guessed for the whole picture
	// wall: peeled off a blob too big for dice (see cutBlobs): the die stands against the
	// tray's wall, at the edge of the view.
	wall bool
	// outlined: the face's own outline was seen on all four sides (see oneDice), so a dark
	// spot beyond it lies on another face (a side face, a neighbour) and is no pip of it.
	outlined bool
	// lone: cutBlobs took the blob whole as one die (one die's area, square and filled), so
	// it holds one die however its face is foreshortened (see holdsFace).
	lone bool
	// glare: read with the thin lines lighter than the face taken out of its contrast map
	// (see unglared).
	glare bool
}

// labImage is an 8-bit Lab picture as plain bytes.
type labImage struct {
	w, h int
	p    []byte
}

func toLab(bgr gocv.Mat) labImage {
	lab := gocv.NewMat()
	defer lab.Close()
	gocv.CvtColor(bgr, &lab, gocv.ColorBGRToLab)
	return labImage{w: lab.Cols(), h: lab.Rows(), p: lab.ToBytes()}
}

// minDieShare is the least die side, as a share of the picture's longer side, that findDice
// tries besides the size all blobs vote for: 5 px at its 256-px scale, 13 px in a 640-px
// photo. The dice of the shared photos are 3 to 30% of it.
const minDieShare = 0.02

// findDice finds die-sized regions that contrast with the tray. The tray is modelled from the
// picture's border (a smooth quadratic per Lab channel, so uneven light is absorbed), a pixel is
// foreground when its colour or its local gradient stands out from the border's own noise, and
// touching dice are split with the die size estimated from the isolated ones.
//
// It returns one to three hypotheses of the die's size, each holding one entry per blob, each a
// list of alternative readings of that blob as dice.
func (r *Reader) findDice(img gocv.Mat) [][][][]cand {
	fg, shade, scale := r.segment(img)
	dim := float64(max(fg.w, fg.h))
	minPx := int(math.Max(6, math.Pow(dim*0.012, 2)))
	blobs := blobsOf(fg, minPx)
	cut := func(fg grid, blobs []blob, side, scale float64) [][][]cand {
		return cutBlobs(fg, blobs, side, scale, func(b blob) []blob { return peel(fg, shade, b, minPx) })
	}
	if side := r.o.DieSidePx * scale; side > 0 {
		return [][][][]cand{cut(fg, blobs, side, scale)}
	}
	// Die size: the median core of the blobs, weighted by area so that specks of noise do not
	// outvote the dice. Only compact blobs vote: a die (square) has core²/area near 1, a circle
	// 1.27; cables, tray edges and long shadows much less. Clutter cut by the picture's edge
	// (a laptop's corner, a cable) does not show its size and can outvote the dice, but on a
	// pale desk it is sometimes the dice that are cut into pieces: when the blobs inside the
	// picture say another size, both sizes are tried and the faces decide.
	var all, whole, each []float64
	for _, b := range blobs {
		if math.Sqrt(b.area) > dim*0.7 || b.core*b.core < 0.55*b.area {
			continue
		}
		if !b.edge {
			each = append(each, b.core)
		}
		for w := 0; w < int(b.area/16)+1; w++ {
			all = append(all, b.core)
			if !b.edge {
				whole = append(whole, b.core)
			}
		}
	}
	side := median(all)
	if side <= 0 {
		return nil
	}
	out := [][][][]cand{cut(fg, blobs, side, scale)}
	sizes := []float64{side}
	// A size voted by a few blobs is a die's only when the dice could be read at it: under
	// minDieShare of the picture it is a speck's (a lone speck voting once made the dice of
	// IMG_20191208_112517, cut below them, too big to be dice at all, and the speck a 1).
	try := func(s float64) {
		if s < minDieShare*dim {
			return
		}
		for _, t := range sizes {
			if s <= 0 || math.Abs(math.Log(s/t)) <= math.Log(1.25) {
				return
			}
		}
		sizes = append(sizes, s)
		out = append(out, cut(fg, blobs, s, scale))
	}
	try(median(whole))
	// Dice huddled together make one blob, compact enough to vote, that outweighs the lone
	// dice by its area: its core says a die twice as big, and the lone dice are then too small
	// to count. Each blob inside the picture voting once says the lone dice's size.
	try(median(each))
	return out
}

// blobsOf returns the components of fg of at least minPx pixels.
func blobsOf(fg grid, minPx int) []blob {
	dist := fg.distance()
	comps := fg.components(minPx)
	blobs := make([]blob, 0, len(comps))
	for _, px := range comps {
		b := blob{px: px, area: float64(len(px))}
		b.r, b.edge = outline(fg, px)
		for _, i := range px {
			b.core = math.Max(b.core, 2*dist[i])
		}
		blobs = append(blobs, b)
	}
	return blobs
}

// peel returns the parts of blob b left when the tray in shade is taken out of it, each
// opened to cut the thin bridges that the tray's edges leave between them.
func peel(fg, shade grid, b blob, minPx int) []blob {
	g := newGrid(fg.w, fg.h)
	n := 0
	for _, i := range b.px {
		if !shade.b[i] {
			g.b[i] = true
			n++
		}
	}
	if n == len(b.px) {
		return nil
	}
	return blobsOf(morphMat(g, gocv.MorphOpen, 3), minPx)
}

type blob struct {
	px   []int
	r    rotRect
	area float64
	core float64 // twice the largest inscribed radius: a die's side, shadows mostly left out
	edge bool
	// peeled: a part of a blob too big for dice, left when the tray in shade was taken out.
	peeled bool
}

// cutBlobs turns the blobs into die candidates for a die of the given side (in fg's pixels).
// A blob too big for the dice is not dropped at once: peel gives the parts of it that are
// not the tray in shade. A box's inner walls and the floor beside them are the tray's
// cardboard turned from the light, with its hue and less light; as foreground they join the
// box's frame into one blob far too big for a die, and a die standing against a wall is lost
// in it. Only such blobs are peeled: elsewhere that shade is a die's own shadow, part of its
// blob as the die's size is measured.
func cutBlobs(fg grid, blobs []blob, side, scale float64, peel func(blob) []blob) [][][]cand {
	// The area of one die (with its shadow) from the blobs of that core.
	var areas []float64
	for _, b := range blobs {
		if b.core > 0.8*side && b.core < 1.25*side && b.area < 1.8*b.core*b.core {
			areas = append(areas, b.area)
		}
	}
	dieArea := median(areas)
	if len(areas) == 0 {
		dieArea = 1.2 * side * side
	}
	toImage := func(c cand) cand {
		c.r.cx = (c.r.cx+0.5)/scale - 0.5
		c.r.cy = (c.r.cy+0.5)/scale - 0.5
		c.r.w /= scale
		c.r.h /= scale
		c.side /= scale
		c.die = side / scale
		return c
	}
	var out [][][]cand
	blobs = blobs[:len(blobs):len(blobs)] // parts peeled off are appended to a copy
	for k := 0; k < len(blobs); k++ {
		b := blobs[k]
		if b.area > 9*dieArea && peel != nil {
			for _, p := range peel(b) {
				if p.area < b.area {
					p.peeled = true
					blobs = append(blobs, p)
				}
			}
		}
		if b.area < 0.3*dieArea || b.area > 9*dieArea || b.core < 0.5*side {
			continue
		}
		ratio := b.area / dieArea
		fill := b.area / (b.r.w * b.r.h)
		single := []cand{toImage(cand{r: b.r, edge: b.edge, side: math.Min(b.core+1, b.r.side()), wall: b.peeled})}
		if ratio < 1.35 && b.r.aspect() < 1.4 && fill > 0.72 || b.peeled {
			single[0].lone = !b.peeled
			// A peeled part's outline is partly where the shade was cut away, not the
			// dice's own: its area and shape do not say how to cut it into dice.
			out = append(out, [][]cand{single})
			continue
		}
		// Touching dice, or one die with a long shadow: offer the plausible splits and let
		// the faces decide.
		var alts [][]cand
		lo, hi := max(1, int(math.Floor(ratio-0.2))), max(2, int(math.Ceil(ratio+0.2)))
		for k := lo; k <= hi && k <= 9; k++ {
			if k == 1 {
				alts = append(alts, single)
				continue
			}
			var parts []cand
			for _, part := range kmeans(fg.w, b.px, k) {
				pr, pe := outline(fg, part)
				parts = append(parts, toImage(cand{r: pr, edge: pe, side: math.Min(side, pr.side())}))
			}
			alts = append(alts, parts)
		}
		out = append(out, alts)
	}
	return out
}

// outline returns the minimal rectangle around a pixel set and whether it touches the border:
// along a tenth of its size (the square root of its area) at least. A die cut by the picture's
// edge meets it along a chord that long unless no more than a corner's tip is outside, clear of
// every pip; a thread of noise from a die's soft halo to the edge is narrower.
func outline(g grid, px []int) (rotRect, bool) {
	x0, y0, x1, y1 := g.w, g.h, 0, 0
	for _, i := range px {
		x, y := i%g.w, i/g.w
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	bw := x1 - x0 + 3
	in := make([]bool, bw*(y1-y0+3))
	at := func(x, y int) int { return (y-y0+1)*bw + x - x0 + 1 }
	for _, i := range px {
		in[at(i%g.w, i/g.w)] = true
	}
	var xs, ys []float64
	border := 0
	for _, i := range px {
		x, y := i%g.w, i/g.w
		if x == 0 || y == 0 || x == g.w-1 || y == g.h-1 {
			border++
		}
		if !in[at(x-1, y)] || !in[at(x+1, y)] || !in[at(x, y-1)] || !in[at(x, y+1)] {
			xs = append(xs, float64(x))
			ys = append(ys, float64(y))
		}
	}
	return minRect(xs, ys), border > 0 && float64(border) >= 0.1*math.Sqrt(float64(len(px)))
}

// shadeMin is the least light, as a share of the tray's, that a part of the tray in shade keeps
// (a wall turned from diffuse room light); darker greys are dice.
const shadeMin = 0.6

// foreground marks pixels whose colour differs from the modelled tray, or whose gradient is
// stronger than the tray's own texture.
func (r *Reader) foreground(lab labImage) (grid, grid) {
	w, h := lab.w, lab.h
	bw := max(2, int(0.03*float64(max(w, h))))
	var model [3][6]float64
	border := func(x, y int) bool { return x < bw || y < bw || x >= w-bw || y >= h-bw }
	if len(r.o.BackgroundLab) == 3 {
		for c := 0; c < 3; c++ {
			model[c][0] = r.o.BackgroundLab[c]
		}
	} else {
		model = fitBackground(lab, border)
	}
	// The commonest colour is the tray too: it catches a tray whose frame fills the border.
	mode := modeColour(lab)
	if len(r.o.BackgroundLab) == 3 {
		mode = [3]float64{r.o.BackgroundLab[0], r.o.BackgroundLab[1], r.o.BackgroundLab[2]}
	}
	// Each pixel's distance to the tray's colour (the nearer of the modelled surface and the
	// commonest colour) and its gradient are computed where needed rather than kept for the
	// whole picture: the border's samples first give the thresholds.
	dist := func(x, y int) float64 {
		fx, fy := 2*float64(x)/float64(w)-1, 2*float64(y)/float64(h)-1
		basis := [6]float64{1, fx, fy, fx * fx, fy * fy, fx * fy}
		var d [3]float64
		i := (y*w + x) * 3
		for c := 0; c < 3; c++ {
			var m float64
			for k := 0; k < 6; k++ {
				m += model[c][k] * basis[k]
			}
			d[c] = float64(lab.p[i+c]) - m
		}
		d1 := d[0]*d[0] + 1.5*(d[1]*d[1]+d[2]*d[2])
		var e [3]float64
		for c := 0; c < 3; c++ {
			e[c] = float64(lab.p[i+c]) - mode[c]
		}
		d2 := e[0]*e[0] + 1.5*(e[1]*e[1]+e[2]*e[2])
		return math.Sqrt(min(d1, d2))
	}
	// shade says whether a pixel is the tray in shade: its hue, with less light (down to
	// shadeMin of the tray's). A box's inner walls and the floor beside them are the tray's
	// cardboard turned from the light (see cutBlobs).
	shade := func(x, y int, t float64) bool {
		fx, fy := 2*float64(x)/float64(w)-1, 2*float64(y)/float64(h)-1
		basis := [6]float64{1, fx, fy, fx * fx, fy * fy, fx * fy}
		i := (y*w + x) * 3
		for _, ref := range [2]*[3]float64{nil, &mode} {
			var m [3]float64
			if ref == nil {
				for c := 0; c < 3; c++ {
					for k := 0; k < 6; k++ {
						m[c] += model[c][k] * basis[k]
					}
				}
			} else {
				m = *ref
			}
			dL := float64(lab.p[i]) - m[0]
			da, db := float64(lab.p[i+1])-m[1], float64(lab.p[i+2])-m[2]
			if 1.5*(da*da+db*db) <= t*t/4 && dL <= 0 && dL >= -(1-shadeMin)*m[0] {
				return true
			}
		}
		return false
	}
	grad := func(x, y int) float64 { // of L; 0 on the picture's outermost pixels
		if x < 1 || y < 1 || x >= w-1 || y >= h-1 {
			return 0
		}
		i := y*w + x
		gx := float64(lab.p[(i+1)*3]) - float64(lab.p[(i-1)*3])
		gy := float64(lab.p[(i+w)*3]) - float64(lab.p[(i-w)*3])
		return math.Abs(gx) + math.Abs(gy)
	}
	var bgD, bgG []float64
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			if border(x, y) && (x+y)%3 == 0 {
				bgG = append(bgG, grad(x, y))
				bgD = append(bgD, dist(x, y))
			}
		}
	}
	// Border medians measure the tray's own noise and texture; dice or cables on the border
	// are too few to move them.
	tD := math.Max(r.o.MinContrast, 4*median(bgD))
	tG := math.Max(1.5*r.o.MinContrast, 4*median(bgG))
	g := newGrid(w, h)
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if dist(x, y) > tD {
				g.b[y*w+x] = true
				n++
			}
		}
	}
	// A second surface (a tray inside a frame, a mat on a table) covering much of the picture:
	// its commonest colour is background too.
	if n > len(g.b)/4 && len(r.o.BackgroundLab) != 3 {
		m2 := modeColourOf(lab, g.b)
		for i := range g.b {
			if g.b[i] {
				e0 := float64(lab.p[3*i]) - m2[0]
				e1 := float64(lab.p[3*i+1]) - m2[1]
				e2 := float64(lab.p[3*i+2]) - m2[2]
				g.b[i] = math.Sqrt(e0*e0+1.5*(e1*e1+e2*e2)) > tD
			}
		}
	}
	sh := newGrid(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if grad(x, y) > tG {
				g.b[y*w+x] = true
			}
			if g.b[y*w+x] {
				sh.b[y*w+x] = shade(x, y, tD)
			}
		}
	}
	return g, sh
}

// fitBackground fits L, a and b of the border pixels with a quadratic surface each, twice,
// dropping outliers (dice or cables on the border) the second time.
func fitBackground(lab labImage, border func(x, y int) bool) [3][6]float64 {
	w, h := lab.w, lab.h
	type sample struct {
		b [6]float64
		v [3]float64
	}
	step := max(1, (w+h)/300)
	n := 0
	for y := 0; y < h; y += step {
		for x := 0; x < w; x += step {
			if border(x, y) {
				n++
			}
		}
	}
	ss := make([]sample, 0, n)
	for y := 0; y < h; y += step {
		for x := 0; x < w; x += step {
			if !border(x, y) {
				continue
			}
			fx, fy := 2*float64(x)/float64(w)-1, 2*float64(y)/float64(h)-1
			i := (y*w + x) * 3
			ss = append(ss, sample{b: [6]float64{1, fx, fy, fx * fx, fy * fy, fx * fy},
				v: [3]float64{float64(lab.p[i]), float64(lab.p[i+1]), float64(lab.p[i+2])}})
		}
	}
	var model [3][6]float64
	use := make([]bool, len(ss))
	for i := range use {
		use[i] = true
	}
	res := make([]float64, len(ss))
	for pass := 0; pass < 3; pass++ {
		// The normal equations share their matrix across the three channels.
		var A [6][6]float64
		var B [3][6]float64
		for i, s := range ss {
			if !use[i] {
				continue
			}
			for p := 0; p < 6; p++ {
				for c := 0; c < 3; c++ {
					B[c][p] += s.b[p] * s.v[c]
				}
				for q := p; q < 6; q++ {
					A[p][q] += s.b[p] * s.b[q]
				}
			}
		}
		for p := 0; p < 6; p++ {
			for q := 0; q < p; q++ {
				A[p][q] = A[q][p] // symmetric
			}
			A[p][p] += 1e-3 * float64(len(ss)) // ridge: keeps a flat fit when the ring is thin
		}
		for c := 0; c < 3; c++ {
			model[c] = solve6(A, B[c])
		}
		if pass == 2 {
			break // the last fit: no outliers to drop after it
		}
		for i, s := range ss {
			var d float64
			for c := 0; c < 3; c++ {
				var m float64
				for k := 0; k < 6; k++ {
					m += model[c][k] * s.b[k]
				}
				d += (s.v[c] - m) * (s.v[c] - m)
			}
			res[i] = math.Sqrt(d)
		}
		lim := 3*median(res) + 2
		for i := range use {
			use[i] = res[i] <= lim
		}
	}
	return model
}

func solve6(A [6][6]float64, B [6]float64) [6]float64 {
	const n = 6
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		A[c], A[p] = A[p], A[c]
		B[c], B[p] = B[p], B[c]
		if math.Abs(A[c][c]) < 1e-12 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := A[r][c] / A[c][c]
			for k := c; k < n; k++ {
				A[r][k] -= f * A[c][k]
			}
			B[r] -= f * B[c]
		}
	}
	var x [6]float64
	for r := n - 1; r >= 0; r-- {
		s := B[r]
		for k := r + 1; k < n; k++ {
			s -= A[r][k] * x[k]
		}
		if math.Abs(A[r][r]) > 1e-12 {
			x[r] = s / A[r][r]
		}
	}
	return x
}

// kmeans splits a blob's pixels into k spatial clusters (farthest-point seeding, so it is
// deterministic).
func kmeans(w int, px []int, k int) [][]int {
	xs := make([]float64, len(px))
	ys := make([]float64, len(px))
	for i, p := range px {
		xs[i], ys[i] = float64(p%w), float64(p/w)
	}
	cx, cy := []float64{xs[0]}, []float64{ys[0]}
	for len(cx) < k {
		bi, bd := 0, -1.0
		for i := range xs {
			d := math.Inf(1)
			for j := range cx {
				d = min(d, (xs[i]-cx[j])*(xs[i]-cx[j])+(ys[i]-cy[j])*(ys[i]-cy[j]))
			}
			if d > bd {
				bi, bd = i, d
			}
		}
		cx, cy = append(cx, xs[bi]), append(cy, ys[bi])
	}
	as := make([]int, len(px))
	for it := 0; it < 12; it++ {
		sx, sy, n := make([]float64, k), make([]float64, k), make([]float64, k)
		changed := it == 0
		for i := range xs {
			bj, bd := 0, math.Inf(1)
			for j := range cx {
				if d := (xs[i]-cx[j])*(xs[i]-cx[j]) + (ys[i]-cy[j])*(ys[i]-cy[j]); d < bd {
					bj, bd = j, d
				}
			}
			changed = changed || as[i] != bj
			as[i] = bj
			sx[bj] += xs[i]
			sy[bj] += ys[i]
			n[bj]++
		}
		if !changed {
			break // converged: the centres would be those of the same clusters again
		}
		for j := range cx {
			if n[j] > 0 {
				cx[j], cy[j] = sx[j]/n[j], sy[j]/n[j]
			}
		}
	}
	parts := make([][]int, k)
	for i, p := range px {
		parts[as[i]] = append(parts[as[i]], p)
	}
	return parts
}

// segment returns the foreground mask of a downscaled copy of img and the scale used.
func (r *Reader) segment(img gocv.Mat) (grid, grid, float64) {
	scale := math.Min(1, float64(r.o.DetectMaxDim)/float64(max(img.Cols(), img.Rows())))
	small := gocv.NewMat()
	defer small.Close()
	if scale < 1 {
		gocv.Resize(img, &small, image.Pt(int(math.Round(float64(img.Cols())*scale)), int(math.Round(float64(img.Rows())*scale))), 0, 0, gocv.InterpolationArea)
	} else {
		img.CopyTo(&small)
	}
	gocv.GaussianBlur(small, &small, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
	fg, shade := r.foreground(toLab(small))
	// Close gaps in the outline of pale dice on a pale tray, fill the faces, drop specks.
	// Holes up to a sixth of the picture are die faces and pips; larger ones are the inside
	// of a tray's frame.
	fg = morphMat(fg, gocv.MorphClose, 5).fillHoles(len(fg.b) / 6)
	return morphMat(fg, gocv.MorphOpen, 3), shade, scale
}

// morphMat applies a square morphological operation with OpenCV (much faster than plain Go).
func morphMat(g grid, op gocv.MorphType, k int) grid {
	b := make([]byte, len(g.b))
	for i, v := range g.b {
		if v {
			b[i] = 255
		}
	}
	m, err := gocv.NewMatFromBytes(g.h, g.w, gocv.MatTypeCV8U, b)
	if err != nil {
		return g
	}
	defer m.Close()
	kern := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(k, k))
	defer kern.Close()
	out := gocv.NewMat()
	defer out.Close()
	gocv.MorphologyExWithParams(m, &out, op, kern, 1, gocv.BorderConstant)
	ob := out.ToBytes()
	res := newGrid(g.w, g.h)
	for i := range res.b {
		res.b[i] = ob[i] != 0
	}
	return res
}

// modeColour returns the mean colour of the most populated coarse Lab bin.
func modeColour(lab labImage) [3]float64 { return modeColourOf(lab, nil) }

// modeColourOf is modeColour over the pixels marked in mask (all when mask is nil).
func modeColourOf(lab labImage, mask []bool) [3]float64 {
	const qL, qC = 16, 8
	// Bins numbered in the order of (L, a, b): on a tie the first bin wins.
	counts := make([]int32, (256/qL)*(256/qC)*(256/qC))
	n := lab.w * lab.h
	key := func(i int) int {
		return (int(lab.p[3*i])/qL*(256/qC)+int(lab.p[3*i+1])/qC)*(256/qC) + int(lab.p[3*i+2])/qC
	}
	for i := 0; i < n; i += 2 {
		if mask == nil || mask[i] {
			counts[key(i)]++
		}
	}
	bk, bc := 0, int32(0)
	for k, c := range counts {
		if c > bc {
			bk, bc = k, c
		}
	}
	var sum [3]float64
	var m float64
	for i := 0; i < n; i += 2 {
		if (mask == nil || mask[i]) && key(i) == bk {
			for c := 0; c < 3; c++ {
				sum[c] += float64(lab.p[3*i+c])
			}
			m++
		}
	}
	if m == 0 {
		return [3]float64{}
	}
	return [3]float64{sum[0] / m, sum[1] / m, sum[2] / m}
}
