package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// continued refuses dice whose pips run on beyond their face. A face's pips end with the
// face, so a spot like its pips (as big, within spotSizes, no flatter) but not one of them,
// on the same face (as light around it), where a bigger face's next pips would be and on
// no other die read, is a pip of the same face: the die was fitted to part of a bigger face
// (two pips of a 4's side read as a 2 when the die's body does not stand out from a pale
// tray). The part is never read; the die is left unread. Only 2s and 3s are checked: their
// pips lie on one line, which fixes where a bigger face's grid goes on. spots are in
// picture pixels less off, the dice's boxes and pips in picture pixels; g is the picture's
// lightness, t the least contrast that counts. First, a side face read with its own top face
// beyond one of its edges is refused (see topBeyond). spotsOf gives the spots to look at for
// a die: dark ones, or light ones for a die whose pips are lighter than its face.
func continued(img gocv.Mat, g grayImg, t float64, dice []Die, spotsOf func(Die) []darkSpot, off image.Point) []Die {
	for i, d := range dice {
		spots := spotsOf(d)
		if d.Value > 0 && topBeyond(img, g, t, dice, i, spots, off) {
			dice[i].Value, dice[i].Why = 0, "its own top face beyond an edge: a side face"
			continue
		}
		if d.Value == 1 && len(d.Pips) == 1 && !d.outlined && lonePipContinued(img, g, t, dice, i, spots, off) {
			dice[i].Value = 0
			dice[i].Why = "a pip like its own on the same face: part of a bigger face"
			continue
		}
		if d.Value < 2 || d.Value > 3 || len(d.Pips) != d.Value {
			continue
		}
		pts := make([][2]float64, len(d.Pips))
		for j, p := range d.Pips {
			pts[j] = [2]float64{float64(p.X - off.X), float64(p.Y - off.Y)}
		}
		// The line's ends (a 2's or 3's pips lie on one line) and its length.
		var far [2][2]float64
		span, nn := 0.0, math.Inf(1)
		for j := range pts {
			for k := j + 1; k < len(pts); k++ {
				v := math.Hypot(pts[j][0]-pts[k][0], pts[j][1]-pts[k][1])
				nn = math.Min(nn, v)
				if v > span {
					span, far = v, [2][2]float64{pts[j], pts[k]}
				}
			}
		}
		// The face's pips as the spots see them: all must be found to compare sizes.
		own := make(map[int]bool)
		dm := 0.0
		for _, p := range pts {
			best := nearestSpot(spots, p[0], p[1], 0.3*nn)
			if best < 0 {
				break
			}
			own[best] = true
			dm += spots[best].d / float64(len(pts))
		}
		if len(own) != len(pts) {
			continue
		}
		// A 2's pips lie on one face, lit alike around them (the shared photos' 2s: most
		// within 5, none of an exact photo's beyond 9; a side face or a neighbour 12 to 25
		// apart). A 2 whose pips are lit differently by the least contrast that counts is a
		// 1 with a pip of the side face below it, seen steeply foreshortened (26 and 30).
		if d.Value == 2 && !d.light && math.Abs(faceRingL(g, pts[0][0], pts[0][1], dm, d.fc)-faceRingL(g, pts[1][0], pts[1][1], dm, d.fc)) >= t {
			dice[i].Value = 0
			dice[i].Why = "a 2 whose pips are lit differently: a pip of a side face"
			continue
		}
		for s, sp := range spots {
			if own[s] || math.Max(sp.d, dm) > spotSizes*math.Min(sp.d, dm) {
				continue
			}
			pt := image.Pt(int(math.Round(sp.x)), int(math.Round(sp.y)))
			if onOther(dice, i, pt.Add(off)) {
				continue
			}
			near, np := math.Inf(1), pts[0]
			for _, p := range pts {
				if e := math.Hypot(sp.x-p[0], sp.y-p[1]); e < near {
					near, np = e, p
				}
			}
			// Where a bigger face's next pips would be, with the read pips' line part of
			// its grid: across the line, as far as the line is long (a 4's other side, a 6's
			// other column) or, for a 2, half as far (a 6's columns seen from their middle
			// pips); along the line as far, for a 2 only (a row of three: no face has four).
			a := math.Atan2(sp.y-np[1], sp.x-np[0]) - math.Atan2(far[1][1]-far[0][1], far[1][0]-far[0][0])
			a = math.Mod(math.Abs(a), math.Pi)
			across, along := math.Abs(a-math.Pi/2) < maxSkew, math.Min(a, math.Pi-a) < maxSkew
			// Within a fit's error (see spotSizes), and across the line also within the
			// foreshortening of an oblique view (at most √2 between the face's two axes,
			// the camera looking down more steeply than 45°).
			at := func(f, k float64) bool { return near > f*span/spotSizes/k && near < f*span*spotSizes*k }
			if !(across && at(1, math.Sqrt2) || d.Value == 2 && (across && at(0.5, math.Sqrt2) || along && at(1, 1))) {
				continue
			}
			// On the same face: the face around it as light as around the face's own pip
			// (a side face or a neighbour is lit differently: 12 and 25 apart on the shared
			// photos, one face within 2).
			if math.Abs(ringL(g, sp.x, sp.y, sp.d)-ringL(g, np[0], np[1], dm)) >= t/2 {
				continue
			}
			// No flatter than the face's own pips (a side face's pips are foreshortened).
			qm := math.Inf(1)
			for o := range own {
				qm = math.Min(qm, roundness(img, spots[o], d.col))
			}
			if q := roundness(img, sp, d.col); qm == 0 || q == 0 || q < sideRatio*qm {
				continue
			}
			dice[i].Value = 0
			dice[i].Why = "pips like its own continue beyond the face: part of a bigger face"
			break
		}
	}
	return dice
}

// maxSkew is how far from square to the line of pips a next pip may lie: foreshortening
// skews a face's right angles (about 10° on the shared photos' oblique views).
const maxSkew = 20 * math.Pi / 180

// onOther says whether p lies in the box of a die read, other than the i-th (a candidate not
// read may be the rest of the very face).
func onOther(dice []Die, i int, p image.Point) bool {
	for j, d := range dice {
		if j != i && d.Value > 0 && p.In(d.Box) {
			return true
		}
	}
	return false
}

// roundness is a spot's axis ratio (see pipShape; 1 round, 0 when it cannot be measured),
// measured against the face colour col.
func roundness(img gocv.Mat, s darkSpot, col [3]float64) float64 {
	c := cand{r: rotRect{cx: s.x, cy: s.y}}
	q, _, _ := pipShape(img, c, 1, pip{d: s.d}, col[0], col[1], col[2])
	return q
}

// ringL is the median lightness on a ring 0.9 to 1.3 diameters d around (x, y), in picture
// pixels.
func ringL(g grayImg, x, y, d float64) float64 {
	return median(ringSamples(g, x, y, d, nil))
}

// ringSamples are the lightnesses of g on rings 0.9, 1.1 and 1.3 times d from (x, y) (picture
// pixels), every 15°, at the points keep accepts (all when keep is nil) that lie in g.
func ringSamples(g grayImg, x, y, d float64, keep func(px, py float64) bool) []float64 {
	sx, sy, sd := (x+0.5)*g.scale-0.5, (y+0.5)*g.scale-0.5, d*g.scale
	var v []float64
	for a := 0.0; a < 2*math.Pi; a += math.Pi / 12 {
		for _, r := range []float64{0.9, 1.1, 1.3} {
			if keep != nil && !keep(x+r*d*math.Cos(a), y+r*d*math.Sin(a)) {
				continue
			}
			if l := g.at(sx+r*sd*math.Cos(a), sy+r*sd*math.Sin(a)); l >= 0 {
				v = append(v, l)
			}
		}
	}
	return v
}

// faceRingL is ringL counting only the ring's points on the fitted face fc (within 0.9 of its
// half-sides, clear of the bevel), when it has one and they are enough: a pip near a corner of a
// small die has its ring cross the face's edge onto the bevel and the tray, lit unlike the face
// (a 2's two corner pips under light from one side). A side face's pip fitted into the face
// with a 1 lies on the fitted square too, so its ring still measures the side face.
func faceRingL(g grayImg, x, y, d float64, fc rotRect) float64 {
	if fc.w <= 0 || fc.h <= 0 {
		return ringL(g, x, y, d)
	}
	ca, sa := math.Cos(fc.ang), math.Sin(fc.ang)
	v := ringSamples(g, x, y, d, func(px, py float64) bool {
		u, w := (px-fc.cx)*ca+(py-fc.cy)*sa, -(px-fc.cx)*sa+(py-fc.cy)*ca
		return math.Abs(u) <= 0.45*fc.w && math.Abs(w) <= 0.45*fc.h
	})
	if len(v) < 12 {
		return ringL(g, x, y, d)
	}
	return median(v)
}

// lonePipContinued says whether the i-th die, read as a 1, is one pip of a bigger face: a
// spot like its pip (as big, within spotSizes, no flatter), lit as its face is and on no other
// die read, lies within the die's reach. A 1's face is blank but for its pip; the pips beyond
// its outline are on its side faces, which are lit differently and foreshortened more (see
// continued); a pip of a 2 or 4 whose die's body does not stand out has its partners there.
// A 1 whose outline was seen all round (see oneDice) ends there, and is not checked.
func lonePipContinued(img gocv.Mat, g grayImg, t float64, dice []Die, i int, spots []darkSpot, off image.Point) bool {
	d := dice[i]
	p := d.Pips[0].Sub(off)
	px, py := float64(p.X), float64(p.Y)
	own, pd := -1, 0.0
	for s, o := range spots {
		if math.Hypot(o.x-px, o.y-py) < math.Max(2, o.d/2) && o.d > pd {
			own, pd = s, o.d
		}
	}
	if own < 0 {
		return false
	}
	// A bigger face's pips lie within a side of each other (a 2's diagonal, about 0.8 side).
	reach := float64(max(d.Box.Dx(), d.Box.Dy()))
	lp := ringL(g, px, py, pd)
	qp := roundness(img, spots[own], d.col)
	for s, o := range spots {
		r := math.Hypot(o.x-px, o.y-py)
		if s == own || r < 1.5*pd || r > reach || math.Max(o.d, pd) > spotSizes*math.Min(o.d, pd) {
			continue
		}
		if onOther(dice, i, image.Pt(int(math.Round(o.x)), int(math.Round(o.y))).Add(off)) {
			continue
		}
		if math.Abs(ringL(g, o.x, o.y, o.d)-lp) >= t/2 {
			continue
		}
		if q := roundness(img, o, d.col); qp == 0 || q == 0 || q < sideRatio*qp {
			continue
		}
		return true
	}
	return false
}

// nearestSpot is the index of the spot whose centre lies nearest (x, y) and closer than r, or -1.
func nearestSpot(spots []darkSpot, x, y, r float64) int {
	best := -1
	for s, sp := range spots {
		if e := math.Hypot(sp.x-x, sp.y-y); e < r {
			best, r = s, e
		}
	}
	return best
}
