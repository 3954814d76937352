package camera

import (
	"fmt"

	"gocv.io/x/gocv"
)

const (
	// netDoubtSure is the least mean probability, over the eight turns and mirrors of a die's
	// square, at which both face networks must see one other value for netDoubt to refuse a
	// 1 or a 6. It is low because a refusal is the safe side, and a glance must have seen
	// that value first. On the shared photos and their twelve variations it refuses no die of
	// a photo read exactly; in the variations probed, 0.3 would have refused one 1 (a 6 seen).
	netDoubtSure = 0.35
	// netGlanceSure is how sure the first network's glance at a 1 or 6 must be that it is
	// one for the second network's glance to be skipped (about two 1s in three).
	netGlanceSure = 0.9
)

// netDoubt refuses a 1 or a 6 read from its pips that both face networks see as one other
// face value. A 1: a 2 whose other pip glare washes out, one pip of a 4 in an outline that
// noise completes; a lone pip says little about its die. A 6: an ivory 5 seen obliquely,
// three of its pips and the row of three on its front face fitting a 6 once blur or noise
// rounds the front face's flattened pips. Every pip rule can hold for such a face; the
// networks look at the whole face. Only a disagreement counts: a network that reads the
// value, or "no top face" (which it says of many real 1s seen small or obliquely), leaves
// the die alone.
//
// Like stable, it is spent only on a reading that would be trusted, and not on one the
// networks completed (netConfirm checks every die there). It costs one pass per 1 or 6,
// and a second when the first network is not sure (see netGlanceSure); only when a glance
// sees another value are both asked over all eight turns (sixteen passes), which decides.
// Other values are not checked: the networks do not see the 2s misread in the variations
// (a 1 with its front face's pip) otherwise, and each value checked costs about a pass of a
// network (2 ms) per die (BENCHMARKS-dice.md: 6s added 1.5 ms of median).
func (r *Reader) netDoubt(img gocv.Mat, dice []Die) {
	if r.nets[0] == nil || !r.trusted(dice) || netCompleted(dice) {
		return
	}
	side := dieSide(dice)
	for i, d := range dice {
		if d.Value != 1 && d.Value != 6 {
			continue
		}
		cx, cy, s := netSquare(d, side)
		x, ok := netInput(img, cx, cy, s)
		if !ok {
			continue
		}
		doubt := false
		for k, n := range r.nets {
			p := n.probs(x)
			v := argmax(p)
			doubt = v != 0 && v != d.Value
			if doubt || k == 0 && v == d.Value && p[v] >= netGlanceSure {
				break
			}
		}
		if !doubt {
			continue
		}
		other := 0
		for _, n := range r.nets {
			p := n.meanProbs(x)
			v := argmax(p)
			if v == 0 || v == d.Value || p[v] < netDoubtSure || other != 0 && v != other {
				other = 0
				break
			}
			other = v
		}
		if other != 0 {
			dice[i].Why = fmt.Sprintf("read %d from its pips, but both face networks see a %d", d.Value, other)
			dice[i].Value = 0
		}
	}
}

// meanProbs is the network's mean probabilities over the eight turns and mirrors of a crop.
func (n *faceNet) meanProbs(x []float32) [7]float64 {
	var sum [7]float64
	t := make([]float32, len(x))
	for k := 0; k < 8; k++ {
		dihedral(x, t, k)
		p := n.probs(t)
		for j := range p {
			sum[j] += p[j] / 8
		}
	}
	return sum
}
