package camera

import (
	"image"
	"math"
	"slices"
	"sync"

	"gocv.io/x/gocv"
)

// proposal is a die proposed from its pips: the candidate, the pips' mean diameter and the
// spots it was proposed from.
type proposal struct {
	c     cand
	dm    float64
	spots []darkSpot
}

// proposeFromPips returns die candidates for clusters of two to six dark spots that fit a
// canonical layout, sized from their spacing (a face is about 3.6 pip spacings wide), away
// from the dice already found (found: their boxes, image pixels). A cluster that fits no
// layout as a whole gives the faces found inside it (see spotFaces), which may share spots.
func (r *Reader) proposeFromPips(img gocv.Mat, spots []darkSpot, found []image.Rectangle) []proposal {
	// No smaller than the smallest blob findDice keeps (1.2% of the picture): a speck of a
	// few pixels (a key's symbol on a keyboard) cannot show a face's pips apart.
	minSide := 0.012 * float64(max(img.Cols(), img.Rows()))
	var out []proposal
	var faces [][]darkSpot
	for _, cl := range spotClusters(spots) {
		if len(cl) >= 2 && len(cl) <= 6 {
			if _, ok := r.fitSpots(cl); ok {
				faces = append(faces, cl)
				continue
			}
		}
		faces = append(faces, spotFaces(cl, r.o.MaxLayoutError)...)
	}
	for _, cl := range faces {
		ft, ok := r.fitSpots(cl)
		if !ok {
			continue
		}
		var dm float64
		for _, s := range cl {
			dm += s.d / float64(len(cl))
		}
		side := 3.6 * ft.f.a
		if side < 2*dm || side > 9*dm || side < minSide {
			continue
		}
		c := cand{r: rotRect{cx: ft.f.cx, cy: ft.f.cy, w: side, h: side, ang: ft.f.ang}, side: side}
		near := false
		for _, b := range found {
			near = near || nearBox(b, c)
		}
		if !near {
			out = append(out, proposal{c, dm, cl})
		}
	}
	return out
}

// negativePipDice looks, when nothing was read, for dice with light pips on dark faces that
// are about as pale as the tray (brown dice on grey wood): the tray model does not separate
// them, and pipDice proposes faces from dark pips on pale faces only. In the negative picture
// their pips are just that. Only when no die was read the usual way: in photos with dice the
// negative's dark spots (glare, the pale faces between dark pips) propose faces that later
// checks refuse, and run always it cost 28 of the 445 plain photos (BENCHMARKS-dice.md,
// "Dark dice with light pips").
func (r *Reader) negativePipDice(img gocv.Mat, off image.Point, dice []Die) []Die {
	if slices.ContainsFunc(dice, func(d Die) bool { return d.Value > 0 }) {
		return dice
	}
	neg := gocv.NewMat()
	defer neg.Close()
	gocv.BitwiseNot(img, &neg)
	// A 1 found there must be read surely, or the negative is not trusted at all (the 1 may
	// have replaced a refused candidate): a printed dark square with a paler centre (a
	// cable's label) is a light-pipped 1 in the negative, read in pictures whose dice the
	// picture's edge cut away (matteop65/two_9 and three_47 in the cut bench, at 0.55 and
	// 0.60; the negatives' real 1s at 0.97 and more).
	out := r.pipDice(neg, off, dice)
	if slices.ContainsFunc(out, func(d Die) bool { return d.Value == 1 && d.Confidence < negativeOneSure }) {
		return dice
	}
	return out
}

// negativeOneSure is the least confidence of a 1 that negativePipDice keeps.
const negativeOneSure = 0.8

// nearBox says whether a face proposed as c lies too near the die found in box b to be
// another die.
func nearBox(b image.Rectangle, c cand) bool {
	bx, by := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	bs := math.Sqrt(float64(b.Dx() * b.Dy()))
	return math.Hypot(bx-c.r.cx, by-c.r.cy) < 0.5*(bs+c.side)+0.25*c.side
}

// holdsFace says whether an unread candidate d is the die of face c seen with its side faces
// and shadow: its box holds the face's centre, is centred less than a side from it and is no
// longer than one die seen obliquely (see oneBlob), or was taken whole as one die by the
// finder (see cand.lone). Dice cannot overlap, so the face read surely replaces it. The
// length says nothing where the camera looks down less steeply than 45°: the top face is then
// foreshortened more than √2 (its pips spaced closer than the die is wide, a 2 on ivory dice in
// matteop65/two_24.jpg fitted 26 px in a body 77 px long), while a blob of one die's area and
// shape holds one die however flat its top face is seen.
//
// A row of touching dice refused whole (Die.row) is replaced by any face read from its pips
// inside it: such a row was left out of the reading before (rowOfDice), so the dice read in
// it are no worse off, and one that shows no face read stays refused.
func holdsFace(d Die, off image.Point, c cand) bool {
	b := d.Box.Sub(off)
	bx, by := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	return image.Pt(int(c.r.cx), int(c.r.cy)).In(b) && (d.row || math.Hypot(bx-c.r.cx, by-c.r.cy) < c.side &&
		(d.src.lone || float64(max(b.Dx(), b.Dy())) <= oneBlob*c.side))
}

// pipDice adds to dice those proposed from pips where no die was found, and the 1s proposed
// from a lone pip (see oneDice), and returns the new list. Only faces read surely, with as
// many pips as proposed them, are kept: an unread proposal is no die.
func (r *Reader) pipDice(img gocv.Mat, off image.Point, dice []Die) []Die {
	var readBoxes []image.Rectangle
	var unread []int // unread candidates (indices in dice)
	for i, d := range dice {
		// A candidate found to be no die (its colour that of its surroundings, or running
		// on beyond a face) hides no die from the pips: on pale wood that is how an ivory
		// die with its side faces is segmented.
		switch {
		case d.Value > 0:
			readBoxes = append(readBoxes, d.Box.Sub(off))
		case !d.clutter:
			unread = append(unread, i)
		}
	}
	gray := gocv.NewMat()
	defer gray.Close()
	spots, g := darkSpots(img, &gray)
	type read struct {
		pr   proposal
		d    Die
		over []int // the unread candidates it replaces (see holdsFace)
	}
	var reads []read
	for _, pr := range r.proposeFromPips(img, spots, readBoxes) {
		c := pr.c
		// An unread candidate near the face hides it, unless it is this die seen whole.
		var over []int
		hidden := false
		for _, i := range unread {
			if b := dice[i].Box.Sub(off); nearBox(b, c) {
				// A candidate read as two faces may show its top face in the other (a 1 whose
				// side face reads 2): a reading of one of them does not settle which, unless
				// it is of four or more pips, which fit no part of a face (a 6 read as a 2 or
				// more pips by the candidate's two turns, six_18 overexposed), and the
				// candidate does not meet the picture's edge (there the top face may be cut
				// off, and a side face show four pips: two_35 cut at the left). One refused at
				// the picture's edge may be cut: its pips left fit a smaller face (a side
				// face's 2 of a die whose top is cut off, matteop65/dice_42.jpg).
				settles := len(pr.spots) >= 4 && !dice[i].src.edge
				if !holdsFace(dice[i], off, c) || dice[i].amb.is() && !settles || dice[i].Why == whyOutside {
					hidden = true
				}
				over = append(over, i)
			}
		}
		if hidden {
			continue
		}
		// A region, not only pips: the face must be paler than the ring around it (a
		// pale label on a dark laptop, grey specks on a pale tray are no face), and it must
		// end in an outline, darker by the least contrast that counts, on three of its
		// sides at least (the fourth may run into a side face as pale as itself in an
		// oblique view): spots on a uniform surface, or on something much larger than the
		// face, have no outline there. A face need not be paler than its ring when it lies
		// inside an unread candidate that holds it (over), or ends in an outline on all four
		// sides: the finder already saw that die's body stand out from the tray and kept it
		// as no clutter, or the outline shows the face's edges all round, while in an
		// oblique view the proposed face's ring is mostly the die's own side faces, as pale
		// as its top (ivory dice on pale wood, matteop65/two_24.jpg, three_5.jpg).
		fL, ringL, ends := faceRegion(img, c, pr.dm/2/c.side, r.o.MinContrast)
		//
		// Four or more spots in a layout need no region: in an overexposed picture the
		// face and the pale tray around it are both clipped white, with no outline between
		// (matteop65 brightened 1.4 times: 14 photos gained, none misread). Fewer fit a
		// part of a bigger face: a 6's column read as a 3 (blurred six_25), two pips of
		// anything as a 2. Such a face is then checked for what the region kept out, a side
		// face with its own top face beyond an edge.
		region := !(fL < ringL+r.o.MinContrast/2 && len(over) == 0 && ends < 4 || ends < 3)
		if !region && len(pr.spots) < 4 {
			continue
		}
		// The face reader's own confidence floor is enough: the spots' layout, the face's
		// outline and the pips' shapes already say it is a die (an ivory 6 seen near 45°,
		// its layout foreshortened, reads with half the confidence of one seen from above).
		f := r.readFace(img, c)
		if f.value != len(pr.spots) || f.amb.is() || f.conf < r.o.MinConfidence || pipInside(f, c) || !r.shapedAlike(img, c, pr.spots) {
			continue
		}
		if !clearOfEdge(f.face, img) {
			continue
		}
		d := f.die(c, off)
		if !region { // see topBeyond; continued checks the dice kept again, with their neighbours
			if tmp := append(slices.Clone(dice), d); topBeyond(img, g, r.o.MinContrast, tmp, len(tmp)-1, spots, off) {
				continue
			}
		}
		reads = append(reads, read{pr, d, over})
	}
	gone := make(map[int]bool) // unread candidates replaced
	var found []image.Rectangle
	for _, i := range unread {
		found = append(found, dice[i].Box.Sub(off))
	}
	found = append(found, readBoxes...)
	// A face proposed from pips less than a third of the biggest face read is no die of this
	// game (see specks), and replaces no candidate: two pips of a 5 whose other pips are lost
	// in glare fit a 2 a quarter of its size.
	biggest := biggestFace(dice)
	for _, rd := range reads {
		biggest = math.Max(biggest, rd.d.fc.w)
	}
	var out []Die
	for i, rd := range reads {
		if maxSizes*rd.d.fc.w < biggest {
			continue
		}
		// Two faces read from a shared spot leave it open which face the spot is on (a 1's
		// pip with a side face's pip, or that side face's two pips, in a view near 45°),
		// unless the other takes fewer spots (fewer pips fit anywhere) or clearly smaller
		// ones (the top face is the least foreshortened, so its pips are the biggest).
		open := false
		for j, o := range reads {
			open = open || j != i && shareSpot(rd.pr.spots, o.pr.spots) &&
				len(o.pr.spots) >= len(rd.pr.spots) && rd.pr.dm <= spotSizes*o.pr.dm
		}
		if open {
			continue
		}
		d := rd.d
		ctr := image.Pt((d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2).Sub(off)
		taken := false
		for k, b := range found {
			replaced := k < len(unread) && (gone[unread[k]] || slices.Contains(rd.over, unread[k]))
			taken = taken || !replaced && ctr.In(b)
		}
		if taken {
			continue
		}
		for _, k := range rd.over {
			gone[k] = true
		}
		out = append(out, d)
		found = append(found, d.Box.Sub(off))
	}
	kept := dice[:0:0]
	for i, d := range dice {
		if !gone[i] {
			kept = append(kept, d)
		}
	}
	// A dark die's light pips, found only when a die read shows such pips.
	light := sync.OnceValue(func() []darkSpot { return lightSpots(g, gray) })
	spotsOf := func(d Die) []darkSpot {
		if d.light {
			return light()
		}
		return spots
	}
	return continued(img, g, r.o.MinContrast, r.oneDice(img, off, spots, g, append(kept, out...)), spotsOf, off)
}

// shapedAlike says whether the spots are foreshortened alike, as one face's pips are (see
// pipShape): none clearly flatter than another (see sideOf), and those flattened at all
// flattened the same way, along the line of sight. A top face's pip and a side face's, or
// two side faces' pips, are flattened across different creases (dice_27: 65° apart, where
// one face's pips differ by 12° at most on the shared photos).
func (r *Reader) shapedAlike(img gocv.Mat, c cand, spots []darkSpot) bool {
	S := float64(r.o.FaceSide)
	P := int(2 * S)
	k := S / c.side
	lab, ok := warpFace(img, c.r, k, P)
	if !ok {
		return false
	}
	fL, fA, fB := faceColour(lab, P, S, 0.3)
	ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
	pips := make([]pip, 0, len(spots))
	idx := make([]int, 0, len(spots))
	for _, s := range spots {
		dx, dy := s.x-c.r.cx, s.y-c.r.cy
		p := pip{x: k * (ca*dx + sa*dy), y: k * (-sa*dx + ca*dy), d: k * s.d}
		p.q, p.o, _ = pipShape(img, c, k, p, fL, fA, fB)
		idx = append(idx, len(pips))
		pips = append(pips, p)
	}
	if !alike(pips, idx) {
		return false
	}
	for i, p := range pips {
		for _, o := range pips[i+1:] {
			if p.q == 0 || o.q == 0 || p.q > sideRatio || o.q > sideRatio {
				continue // round: its direction says nothing
			}
			if d := math.Mod(math.Abs(p.o-o.o), math.Pi); math.Min(d, math.Pi-d) > math.Pi/6 {
				return false
			}
		}
	}
	return true
}

// pipInside says whether the face reader saw a pip it left out inside the proposed face: a
// face holds no pip off its layout, so the spots were part of a larger face (two pips of a
// 5 read as a small 2).
func pipInside(f face, c cand) bool {
	ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
	for _, p := range f.extra {
		dx, dy := p[0]-c.r.cx, p[1]-c.r.cy
		if u, v := ca*dx+sa*dy, -sa*dx+ca*dy; math.Max(math.Abs(u), math.Abs(v)) < c.side/2 {
			return true
		}
	}
	return false
}

// faceRegion looks at a proposed face in a patch of three sides around it. It returns the
// median lightness (8-bit Lab L) of the face and of a ring around it, 0.65 to 0.9 sides from
// the centre, and on how many of its four sides the face ends within 1.5 sides: a line
// parallel to that side, past the pips (rp: their radius, in sides), is darker than the
// face by more than t. A line's lightness is its median along the middle of the side, so a
// straight outline ends the face, while a speck, a pip of a neighbouring die or a pale
// surface's texture does not.
func faceRegion(img gocv.Mat, c cand, rp, t float64) (face, ring float64, ends int) {
	const S = 24
	P := 3 * S
	lab, ok := warpFace(img, c.r, S/c.side, P)
	if !ok {
		return 0, 0, 0
	}
	half := P / 2
	L := func(x, y int) float64 { return float64(lab[3*(y*P+x)]) }
	var fs, rs []float64
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			switch m := max(x-half, half-x, y-half, half-y); {
			case 10*m < 4*S:
				fs = append(fs, L(x, y))
			case 100*m > 65*S && 10*m < 9*S:
				rs = append(rs, L(x, y))
			}
		}
	}
	face, ring = median(fs), median(rs)
	along := 35 * S / 100
	line := make([]float64, 2*along+1)
	for side := 0; side < 4; side++ {
		for u := int(math.Ceil((1/3.6 + rp) * S)); u < half; u++ {
			for v := -along; v <= along; v++ {
				switch side {
				case 0:
					line[v+along] = L(half+u, half+v)
				case 1:
					line[v+along] = L(half-u, half+v)
				case 2:
					line[v+along] = L(half+v, half+u)
				default:
					line[v+along] = L(half+v, half-u)
				}
			}
			if median(line) < face-t {
				ends++
				break
			}
		}
	}
	return face, ring, ends
}
