package dice

import (
	"fmt"
	"image"
	"math"
	"sort"
)

// decide makes a Reading from the candidates (surest first) and their face probabilities
// (pipeline.decide): a die is a peak at least th.Peak sure that the face network does not call
// bare (p0 < 0.5), and a candidate overlapping a die already kept is that die again. A die's
// face is read if its value's probability reaches th.Face; a non-die peak whose face the
// network reads surely (a value at least th.Doubt) may be a missed die. Any doubt makes the frame
// unreadable: the reader never guesses. expect > 0 asks for that many dice.
//
// A peak at least th.Peak sure whose face leans to no value (its likeliest under th.Lean) is a
// spot of the scene, a screw head or a stain, not a die: it is passed over, and the frame's
// faces must then reach th.Look too, as with a spot the rig's background drops (hidFaces):
// where such a spot hid a frame's misread, the thresholds had no say over it.
//
// net, when not nil, holds the network's own probabilities where probs are the rig's head's
// (adapt.go): spots are told by the network's, as the head learnt only the rig's dice.
//
// looks, when not nil, holds per candidate the index in c of its closer look (withLooks), or -1:
// a candidate under th.Peak whose look is a die with its face read surely (th.Look too) is that
// die, as the look frames it. c then holds the candidates and after them their looks.
//
// wide, when not nil, reads candidate i's face in a square wideBy times as wide: a die read
// surely as at most wideMax whose wider square is read surely as another value is in doubt (a
// pip of a big die framed as a small die reads as a 1; the wider square shows the whole face).
// Dice framed by a closer look are not read wider: their look was read at th.Look.
func decide(c []cand, probs, net [][7]float64, th thresholds, expect int, looks []int, wide func(i int) ([7]float64, error)) Reading {
	type kept struct {
		cand
		d Die
	}
	var dice []kept
	unsure := 0
	var spot *cand
	n := len(c)
	if looks != nil {
		n = min(n, len(looks))
	}
	n = min(n, len(probs))
	if len(net) < n {
		net = probs
	}
	passed := make([]bool, n) // the spots, passed over
	anySpot := false
	for i := range passed {
		passed[i] = isSpot(c[i], net[i], th)
		anySpot = anySpot || passed[i]
	}
	if anySpot {
		th = th.afterSpot()
	}
	for i := 0; i < n; i++ {
		if passed[i] {
			continue
		}
		k, p, at := c[i], probs[i], i
		if looks != nil && k.peak < th.Peak {
			if j := looks[i]; j >= 0 && j < min(len(c), len(probs)) {
				if q := probs[j]; c[j].peak >= th.Peak && q[0] < 0.5 && maxFace(q) >= max(th.Face, th.Look) {
					k, p, at = c[j], q, j
				}
			}
		}
		same := false
		for _, d := range dice {
			if math.Hypot(k.x-d.x, k.y-d.y) < 0.5*math.Max(k.side, d.side) {
				same = true
				break
			}
		}
		if same {
			continue
		}
		if k.peak >= th.Peak && p[0] < 0.5 {
			v := topValue(p)
			d := Die{Value: v, Box: box(k), Confidence: p[v], Probs: p, cand: at}
			if p[v] < th.Face {
				d.Value = 0
				d.Why = fmt.Sprintf("face not read surely: leans to %d at %.2f", v, p[v])
				unsure++
			} else if wide != nil && at == i && v <= wideMax {
				if why := wider(wide, i, v, th); why != "" {
					d.Value, d.Why = 0, why
					unsure++
				}
			}
			dice = append(dice, kept{k, d})
		} else if maxFace(p) >= th.Doubt && k.peak >= th.MinPeak && spot == nil {
			k := k
			spot = &k
		}
	}
	sort.SliceStable(dice, func(i, j int) bool { return dice[i].x < dice[j].x })
	r := Reading{Status: StatusRead, Dice: make([]Die, len(dice))}
	for i, d := range dice {
		r.Dice[i] = d.d
	}
	switch {
	case len(dice) == 0:
		r.Status, r.Why = StatusUnreadable, "no dice found"
	case unsure > 0:
		r.Status, r.Why = StatusUnreadable, fmt.Sprintf("%d of %d dice not read surely", unsure, len(dice))
	case spot != nil:
		r.Status, r.Why = StatusUnreadable, fmt.Sprintf("something at (%.0f,%.0f) may be a die", spot.x, spot.y)
	case expect > 0 && len(dice) != expect:
		r.Status, r.Why = StatusWrongCount, fmt.Sprintf("found %d dice, expected %d", len(dice), expect)
	}
	return r
}

// edgeOver is how far, in its side, a die's box may run past the frame's edge (pipeline.EDGE):
// a die further out may be cut off, and part of a die reads as a smaller face, or its side face
// as a top one. A detector trained on rendered scenes, whose boxes stop at the frame's edge, finds
// such dice often, and frames them a little smaller than they are: at 0.1 a 1 cut at the top of
// matteop65/dice_42 slipped through (its box 0.096 past), and with it a side face read as a 5.
const edgeOver = 0.05

// atEdge makes a Reading unreadable when one of its dice, framed by c (Die.cand indexes it),
// runs past a w x h frame's edge by more than edgeOver of its side.
func atEdge(r Reading, c []cand, w, h int) Reading {
	for i, d := range r.Dice {
		if d.cand < 0 || d.cand >= len(c) {
			continue
		}
		k := c[d.cand]
		in := min(k.x-k.side/2, k.y-k.side/2, float64(w)-k.x-k.side/2, float64(h)-k.y-k.side/2)
		if in >= -edgeOver*k.side {
			continue
		}
		r.Dice[i].Value, r.Dice[i].Why = 0, "at the frame's edge: it may be cut off"
		r.Status = StatusUnreadable
		r.Why = "a die at the frame's edge may be cut off: move the dice into the camera's view"
	}
	return r
}

// wider says why a die read surely as v is in doubt when read wider (decide), or "".
func wider(wide func(int) ([7]float64, error), i, v int, th thresholds) string {
	q, err := wide(i)
	if err != nil {
		return fmt.Sprintf("face not read wider: %v", err)
	}
	if w := topValue(q); w != v && q[w] >= th.Face {
		return fmt.Sprintf("read as %d, but as %d at %.2f seen wider", v, w, q[w])
	}
	return ""
}

// isSpot tells a peak strong enough to be a die whose face leans to no value (decide).
func isSpot(k cand, p [7]float64, th thresholds) bool {
	return k.peak >= th.Peak && p[0] < 0.5 && maxFace(p) < th.Lean
}

// maxFace is the probability of the likeliest face value, 1-6.
func maxFace(p [7]float64) float64 {
	return max(p[1], p[2], p[3], p[4], p[5], p[6])
}

// box is a candidate's die as a square of its side (rounded) round its centre.
func box(c cand) image.Rectangle {
	s := int(math.Round(c.side))
	x0 := int(math.Round(c.x - float64(s)/2))
	y0 := int(math.Round(c.y - float64(s)/2))
	return image.Rect(x0, y0, x0+s, y0+s)
}
