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
// It returns one to four hypotheses of the die's size, each holding one entry per blob, each a
// list of alternative readings of that blob as dice. A size given (ReaderOpts.DieSidePx)
// comes first, and the sizes the blobs vote for after it where they differ: the readings
// decide (Read), so a die size set for a camera moved since is not the only one tried.
func (r *Reader) findDice(sg segmentation) [][][][]cand {
	fg, scale := sg.fg, sg.scale
	dim := float64(max(fg.w, fg.h))
	minPx := minBlob(dim)
	blobs := blobsOf(fg, minPx)
	cut := func(side float64) [][][]cand {
		return cutBlobs(fg, blobs, side, scale, func(b blob) []blob { return peel(fg, sg.shade, b, minPx) })
	}
	cal := r.o.DieSidePx * scale // given, in fg's pixels
	// Die size: the median core of the compact blobs, weighted by area (see votes and vote).
	// Clutter cut by the picture's edge (a laptop's corner, a cable) does not show its size
	// and can outvote the dice, but on a pale desk it is sometimes the dice that are cut into
	// pieces: when the blobs inside the picture say another size, both sizes are tried and
	// the faces decide.
	var all, whole, each []float64
	for _, b := range blobs {
		if !b.votes(dim) {
			continue
		}
		all = b.vote(all)
		if !b.edge {
			each = append(each, b.core)
			whole = b.vote(whole)
		}
	}
	side := median(all)
	var out [][][][]cand
	var sizes []float64
	switch {
	case cal > 0:
		out, sizes = append(out, cut(cal)), append(sizes, cal)
	case side <= 0:
		return nil
	default:
		out, sizes = append(out, cut(side)), append(sizes, side)
	}
	// A size voted by a few blobs is a die's only when the dice could be read at it: under
	// minDieShare of the picture it is a speck's (a lone speck voting once made the dice of
	// IMG_20191208_112517, cut below them, too big to be dice at all, and the speck a 1).
	try := func(s float64) {
		if s < minDieShare*dim {
			return
		}
		for _, t := range sizes {
			if s <= 0 || sameSize(s, t) {
				return
			}
		}
		sizes = append(sizes, s)
		out = append(out, cut(s))
	}
	if cal > 0 {
		try(side)
	}
	try(median(whole))
	// Dice huddled together make one blob, compact enough to vote, that outweighs the lone
	// dice by its area: its core says a die twice as big, and the lone dice are then too small
	// to count. Each blob inside the picture voting once says the lone dice's size.
	try(median(each))
	return out
}

// sameSize says whether die sides a and b (both > 0) are within 25% of each other: findDice
// tries a size only when it is not the same as one tried.
func sameSize(a, b float64) bool { return math.Abs(math.Log(a/b)) <= math.Log(1.25) }

// minBlob is the least area, in pixels, of a blob in a segmented picture whose longer side
// is dim pixels.
func minBlob(dim float64) int { return int(math.Max(6, math.Pow(dim*0.012, 2))) }

// votes says whether blob b, in a segmented picture whose longer side is dim, votes for the
// die's size: it is compact (a die, square, has core²/area near 1, a circle 1.27; cables,
// tray edges and long shadows much less) and not most of the picture.
func (b blob) votes(dim float64) bool {
	return math.Sqrt(b.area) <= dim*0.7 && b.core*b.core >= 0.55*b.area
}

// vote appends b's core to vs once for every 16 pixels of its area, so that specks of noise
// do not outvote the dice.
func (b blob) vote(vs []float64) []float64 {
	for w := 0; w < int(b.area/16)+1; w++ {
		vs = append(vs, b.core)
	}
	return vs
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
