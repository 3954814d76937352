package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// topBeyond says whether the i-th die's face is a side face with its own top face beyond
// one of its edges (ivory dice on pale wood, whose top face was not read at all: no die read
// beside it, so oneBody has nothing to compare). A spot lies beyond an edge, past half the
// face's depth and within one and a half, along the edge's middle, on no other die read, and
// is a pip of the face the die turns up:
//   - as pale around it as the face's pips or paler (the top face is turned to the light; a
//     real top face's side faces are darker). For a 2 or 3 clearly paler, by t: a camera-
//     facing side face lit as the top face was measured within 12.5 of it beyond real 2s;
//   - as big as the face's pips (within spotSizes) and no flatter (within sideRatio): the
//     top face is foreshortened less than a side face, whose pips are smaller and flatter;
//   - with no seam between it and the face's centre (the crease stays on the die).
//
// spots are in picture pixels less off, g the picture's lightness, t the least contrast.
func topBeyond(img gocv.Mat, g grayImg, t float64, dice []Die, i int, spots []darkSpot, off image.Point) bool {
	d := dice[i]
	fc := d.fc
	if fc.w <= 0 || fc.h <= 0 || d.Value < 2 || len(d.Pips) != d.Value {
		return false
	}
	// The face's own pips as the spots see them: their size and the lightness round them
	// (their roundness only when a spot beyond needs it).
	own := make(map[int]bool, len(d.Pips))
	ownIdx := make([]int, 0, len(d.Pips)) // in the pips' order
	dm, lm, qm := 0.0, 0.0, -1.0
	n := float64(len(d.Pips))
	for _, p := range d.Pips {
		best := nearestSpot(spots, float64(p.X-off.X), float64(p.Y-off.Y), fc.side()/6)
		if best < 0 {
			return false
		}
		own[best] = true
		ownIdx = append(ownIdx, best)
		sp := spots[best]
		dm += sp.d / n
		lm += ringL(g, sp.x, sp.y, sp.d) / n
	}
	paler := 0.0
	if d.Value < 4 {
		paler = t
	}
	ca, sa := math.Cos(fc.ang), math.Sin(fc.ang)
	for s, sp := range spots {
		if own[s] || sp.d < dm/spotSizes {
			continue
		}
		dx, dy := sp.x-fc.cx, sp.y-fc.cy
		u, v := math.Abs(ca*dx+sa*dy), math.Abs(-sa*dx+ca*dy)
		across, along, depth := v, u, fc.h
		if u/fc.w > v/fc.h {
			across, along, depth = u, v, fc.w
		}
		if across < 0.5*depth || across > 1.5*depth || along > 0.5*depth {
			continue
		}
		if onOther(dice, i, image.Pt(int(math.Round(sp.x)), int(math.Round(sp.y))).Add(off)) {
			continue
		}
		if ringL(g, sp.x, sp.y, sp.d)-lm < paler {
			continue
		}
		if qm < 0 {
			qm = 0
			for _, o := range ownIdx {
				qm += roundness(img, spots[o], d.col) / n
			}
		}
		if q := roundness(img, sp, d.col); q == 0 || q < sideRatio*qm {
			continue
		}
		if seamDip(img, [2]float64{fc.cx, fc.cy}, [2]float64{sp.x, sp.y}, fc.side()/4) < seamContrast {
			return true
		}
	}
	return false
}
