package dice

import (
	"math"
	"sort"
)

// head is a rig's own last layer of the face network: the network's own, moved toward the
// rig's examples (logits = W·features + B).
type head struct {
	w []float32 // Out x In
	b []float32
	// minSide, maxSide: the head reads only candidates of a size its dice had (minSideOf to
	// maxSideOf of their median); the network reads the others.
	minSide, maxSide float64
}

// A candidate the rig's head reads has a side within minSideOf and maxSideOf times the median
// side of the rig's dice: the detector frames a 1 at 0.6-1 of its size, a lone pip at about a
// third.
const (
	minSideOf = 0.6
	maxSideOf = 1.6
)

// sides sets the head's size range from the examples' dice (any size when none has one).
func (h *head) sides(ex []Example) {
	var s []float64
	for _, e := range ex {
		if e.Value > 0 && e.Side > 0 {
			s = append(s, e.Side)
		}
	}
	if len(s) == 0 {
		h.minSide, h.maxSide = 0, math.Inf(1)
		return
	}
	sort.Float64s(s)
	med := s[len(s)/2]
	h.minSide, h.maxSide = minSideOf*med, maxSideOf*med
}

// netHead is the network's own last layer as a head.
func (m *model) netHead() *head { return &head{w: m.dense.W, b: m.dense.B} }

// read is what the reader makes of one square's four turns' features f, the network having
// read net there: the head's reading agreed with the network's where the die (side pixels
// wide, 0: not known) is of the rig's size, else the network's; th are the reader's thresholds.
func (h *head) read(f [4][]float32, net [7]float64, side float64, th thresholds) [7]float64 {
	if side != 0 && (side < h.minSide || side > h.maxSide) {
		return net
	}
	return agreed(h.probs(f), net, th)
}

// logits are W·f + b.
func logits(w, b []float32, f []float32) [7]float64 {
	var z [7]float64
	d := len(f)
	for o := range z {
		row := w[o*d : (o+1)*d]
		s := float32(0)
		for i, x := range f {
			s += row[i] * x
		}
		z[o] = float64(s + b[o])
	}
	return z
}

// softmax of logits.
func softmax(z [7]float64) [7]float64 {
	top := math.Inf(-1)
	for _, v := range z {
		top = math.Max(top, v)
	}
	var p [7]float64
	sum := 0.0
	for i, v := range z {
		p[i] = math.Exp(v - top)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// agreed is the head's probabilities p, its value made unsure unless the network leans to the
// same value at netFloor or more, and reads it surely (th.Face) or the head is as sure as a
// closer look must be (th.Look, a second opinion's: at netFloor alone one held-out nell-byler 5
// the network gave 0.82 for a 2 was read as a 2 at K = 5 and 10): the two must agree, the reader
// never guesses. A 1 is left to the network: one pip in a square may be a pip of any die framed
// alone, which the network learnt to doubt and a head taught the rig's 1s read as a 1 (five
// misreads in two simulated games). Where the network reads the head's value surely and more
// surely than the head, the network's reading stands: the head is there to read what the
// network cannot, and less sure there it only lost dice (on nell-byler's test photos it read one
// held-back die fewer than the network in 11 of 17 checks, so the reader seldom used it).
func agreed(p, net [7]float64, th thresholds) [7]float64 {
	v, nv := topValue(p), topValue(net)
	if v == 1 { // one pip: a 1, or a pip of any die framed alone; the network learnt those
		return net
	}
	if v == nv && net[v] >= th.Face && net[v] > p[v] { // the network is surer of the same value
		return net
	}
	if v != nv || net[v] < netFloor || net[v] < th.Face && p[v] < max(th.Face, th.Look) {
		p[v] = min(p[v], 0.5)
	}
	return p
}

// topValue is the likeliest value 1-6 (the smaller on a tie, as np.argmax).
func topValue(p [7]float64) int {
	v := 1
	for j := 2; j <= 6; j++ {
		if p[j] > p[v] {
			v = j
		}
	}
	return v
}

// probs are the probabilities of head h for one square's four turns' features, averaged.
func (h *head) probs(f [4][]float32) [7]float64 {
	var p [7]float64
	for _, t := range f {
		q := softmax(logits(h.w, h.b, t))
		for j := range p {
			p[j] += q[j] / 4
		}
	}
	return p
}

// fitHead fits the rig's head on the examples idx: softmax regression from the network's own
// last layer, pulled back to it by adaptLambda, by gradient descent in the span of the examples'
// features (W = W0 + C·X, so each step costs N² rather than N·In). Rows of values with no
// example stay the network's.
func (m *model) fitHead(ex []Example, feats [][4][]float32, idx []int) *head {
	d := m.dense
	var x [][]float32
	var y []int
	var wt []float64
	for _, i := range idx {
		for _, f := range feats[i] {
			x = append(x, f)
			y = append(y, ex[i].Value)
			wt = append(wt, ex[i].Weight)
		}
	}
	n := len(x)
	var seen [7]bool
	var classW [7]float64
	for j, v := range y {
		seen[v] = true
		classW[v] += wt[j]
	}
	// Each value seen weighs the same in all: a rig's many 5s must not draw its 4s and 6s.
	sumW := 0.0
	for j, v := range y {
		wt[j] /= classW[v]
		sumW += wt[j]
	}
	g := gram(x)
	base := make([][7]float64, n)
	for j := range x {
		base[j] = logits(d.W, d.B, x[j])
	}
	c := make([][7]float64, n) // C transposed: per example, per class
	var db [7]float64
	r := make([][7]float64, n)
	for step := 0; step < adaptSteps; step++ {
		var gb [7]float64
		for j := 0; j < n; j++ {
			z := base[j]
			gj := g[j*n : (j+1)*n]
			for k := 0; k < n; k++ {
				if gk := float64(gj[k]); gk != 0 {
					ck := &c[k]
					for o := 0; o < 7; o++ {
						z[o] += ck[o] * gk
					}
				}
			}
			for o := range z {
				z[o] += db[o]
			}
			p := softmax(z)
			p[y[j]]--
			for o := range p {
				r[j][o] = p[o] * wt[j] / sumW
				gb[o] += r[j][o]
			}
		}
		for j := range c {
			for o := 0; o < 7; o++ {
				if seen[o] {
					c[j][o] -= adaptRate * (r[j][o] + adaptLambda*c[j][o])
				}
			}
		}
		for o := range db {
			if seen[o] {
				db[o] -= adaptRate * (gb[o] + adaptLambda*db[o])
			}
		}
	}
	h := &head{w: append([]float32(nil), d.W...), b: append([]float32(nil), d.B...)}
	for j, f := range x {
		for o := 0; o < 7; o++ {
			if cj := float32(c[j][o]); cj != 0 {
				row := h.w[o*d.In : (o+1)*d.In]
				for i, v := range f {
					row[i] += cj * v
				}
			}
		}
	}
	for o := range db {
		h.b[o] += float32(db[o])
	}
	return h
}

// gram is X·Xᵀ of the rows x, row-major n x n, computed in place of a copy of X for OpenCV's
// gemm: the reader's memory is tight (60 MB for the whole service).
func gram(x [][]float32) []float32 {
	n := len(x)
	g := make([]float32, n*n)
	for i := 0; i < n; i++ {
		xi := x[i]
		for j := 0; j <= i; j++ {
			xj := x[j][:len(xi)]
			s := float32(0)
			for k, v := range xi {
				s += v * xj[k]
			}
			g[i*n+j], g[j*n+i] = s, s
		}
	}
	return g
}

// check reads the examples idx with head h and with the network, counting sure and wrong dice.
func (m *model) check(ex []Example, feats [][4][]float32, idx []int, h *head) AdaptCheck {
	net := m.netHead()
	c := AdaptCheck{}
	count := func(p [7]float64, truth int, sure, wrong *int) {
		if v := topValue(p); p[v] >= m.th.Face && p[0] < 0.5 {
			*sure++
			if v != truth {
				*wrong++
			}
		}
	}
	for _, i := range idx {
		if ex[i].Value == 0 {
			continue
		}
		c.Dice++
		pn := net.probs(feats[i])
		count(pn, ex[i].Value, &c.NetSure, &c.NetWrong)
		count(h.read(feats[i], pn, ex[i].Side, m.th), ex[i].Value, &c.HeadSure, &c.HeadWrong) // as the reader reads
	}
	return c
}
