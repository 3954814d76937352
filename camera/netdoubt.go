package camera

import (
	"fmt"

	"gocv.io/x/gocv"
)

const (
	// netDoubtSure is the least mean probability, over the eight turns and mirrors of a die's
	// square, at which both face networks must see one other value for netDoubt to refuse a
	// 1, a 6 or a loose 2 or 3. It is low because a refusal is the safe side, and a glance
	// must have seen that value first. On the shared photos, their twelve variations and six
	// more frames of noise it refuses no die of a photo read exactly; 0.35 let a 4 read as a
	// 1 through (matteop65/four_3.jpg under noise8@101: one network's mean 0.31).
	netDoubtSure = 0.3
	// netDoubtFit is the confidence below which a 2 or 3 read from its pips is doubted: the
	// pips on one line fit the row of a side face or part of a bigger face too, which then
	// fits loosely. On the shared photos 18% of the 2s and 3s read fit more loosely than this.
	netDoubtFit = 0.8
	// netGlanceSure is how sure the first network's glance at a doubted die must be of its
	// value for the second network's glance to be skipped (about two 1s in three).
	netGlanceSure = 0.9
)

// netDoubt refuses a 1, a 6, or a loosely fitted 2 or 3 (see netDoubtFit) read from its pips
// that both face networks see as one other face value. A 1: a 2 whose other pip glare washes
// out, one pip of a 4 in an outline that noise completes; a lone pip says little about its
// die. A 6: an ivory 5 seen obliquely, three of its pips and the row of three on its front
// face fitting a 6 once blur or noise rounds the front face's flattened pips. A 3: the
// diagonal of a blurred 6 under noise. Every pip rule can hold for such a face; the networks
// look at the whole face. Only a disagreement counts: a network that reads the value, or "no
// top face" (which it says of many real 1s seen small or obliquely, and of a real 2 beside
// its side face in matteop65/two_26.jpg), leaves the die alone.
//
// Like stable, it is spent only on a reading that would be trusted, and not on one the
// networks completed (netConfirm checks every die there). It costs one pass per die doubted,
// and a second when the first network is not sure (see netGlanceSure); only when a glance
// sees another value are both asked over all eight turns (sixteen passes), which decides.
// 4s, 5s and well fitted 2s and 3s are not doubted: each die doubted costs about a pass of
// a network (2 ms), and doubting every 2 and 3 cost 3 ms of median (BENCHMARKS-dice.md).
func (r *Reader) netDoubt(img gocv.Mat, dice []Die) {
	if r.nets[0] == nil || !r.trusted(dice) || netCompleted(dice) {
		return
	}
	side := dieSide(dice)
	for i, d := range dice {
		if !doubted(d) {
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
			dice[i].Value, dice[i].doubted = 0, d.Value
		}
	}
}

// meanProbs is the network's mean probabilities over the eight turns and mirrors of a crop.
func (n *netRunner) meanProbs(x []float32) [7]float64 {
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

// doubted says whether netDoubt looks at die d: a 1 or a 6, or a loosely fitted 2 or 3.
func doubted(d Die) bool {
	switch d.Value {
	case 1, 6:
		return true
	case 2, 3:
		return d.Confidence < netDoubtFit
	}
	return false
}
