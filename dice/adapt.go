package dice

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gocv.io/x/gocv"
)

// Example is one die of a rig that the players confirmed: the face square the reader cut round
// it (Reading's Die.Square) and its value.
type Example struct {
	// Value is the die's top face, 1-6; 0 marks a spot the reader took for a die where there
	// was none.
	Value int `json:"value"`
	// Weight is how much the example counts: 1 for a reading the players confirmed, more for
	// a die they corrected (the reader's mistakes teach most).
	Weight float64 `json:"weight"`
	// Square is the face square, FaceSide x FaceSide BGR pixels row by row (4800 bytes for the
	// built-in networks' 40 px).
	Square []byte `json:"square"`
	// Side is the die's side in frame pixels as the detector framed it (0: not known).
	Side float64 `json:"side,omitempty"`
}

// SquareSide is the side of the built-in face network's squares, and SquareBytes the size of
// an Example's square for it (a test checks model.json agrees).
const (
	SquareSide  = 40
	SquareBytes = SquareSide * SquareSide * 3
)

// Adaptation tuning, measured on the shared rigs' leave-one-rig-out folds (BENCHMARKS-dice.md):
const (
	// MinPerValue is how many dice of each value 1-6 a rig's examples need before the rig's
	// head reads: fitted on fewer, the head drew every die toward the values it had seen
	// (matteop65's first photos are all 1s: 10% of photos read wrong).
	MinPerValue = 2
	// adaptLambda pulls the head toward the network's own last layer.
	adaptLambda = 1e-3
	adaptSteps  = 300
	adaptRate   = 0.5
	// checkEvery: every third example is held back to check the head before it is trusted.
	checkEvery = 3
	// netFloor: the rig's head reads a value only where the network leans to it this much.
	netFloor = 0.5
	// MaxFit is how many examples (the last ones given: the newest) a fit uses; their
	// features and the fit take about 70 kB each, and the service has 60 MB in all.
	MaxFit = 96
)

// Adaptation says what Adapt made of a rig's examples.
type Adaptation struct {
	Examples int    `json:"examples"`
	PerValue [7]int `json:"per_value"` // examples of each value; [0] spots that were no die
	// Used: the rig's head reads this rig's dice; false: the general network does.
	Used bool   `json:"used"`
	Why  string `json:"why"`
	// Check is how the head and the network read the held-back examples.
	Check AdaptCheck `json:"check"`
}

// AdaptCheck counts, on the examples held back from fitting, the dice each reader read surely
// (at the face threshold) and of those the ones read wrong.
type AdaptCheck struct {
	Dice      int `json:"dice"`
	NetSure   int `json:"net_sure"`
	NetWrong  int `json:"net_wrong"`
	HeadSure  int `json:"head_sure"`
	HeadWrong int `json:"head_wrong"`
}

// head is a rig's own last layer of the face network: the network's own, moved toward the
// rig's examples (logits = W·features + B).
type head struct {
	w []float32 // Out x In
	b []float32
	// minSide, maxSide: the head reads only candidates of a size its dice had (sideSpan round
	// their median); the network reads the others. A pip of a 2 framed alone looks like a
	// 1, and a head taught 1s would read it as one.
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

// ErrCannotAdapt: the model's face network has no dense last layer to adapt.
var ErrCannotAdapt = errors.New("this face network cannot be adapted (no dense last layer found)")

// CheckExample reports what is wrong with an example for this reader's networks.
func (r *Reader) CheckExample(e Example) error {
	n := r.m.cfg.FaceSide * r.m.cfg.FaceSide * 3
	switch {
	case e.Value < 0 || e.Value > 6:
		return fmt.Errorf("value %d: want 0 (no die) to 6", e.Value)
	case !(e.Weight > 0) || e.Weight > 100:
		return fmt.Errorf("weight %g: want above 0, at most 100", e.Weight)
	case len(e.Square) != n:
		return fmt.Errorf("square of %d bytes: want %d (%dx%d BGR)", len(e.Square), n, r.m.cfg.FaceSide, r.m.cfg.FaceSide)
	}
	return nil
}

// Adapt fits the rig's own head on its examples and reads with it from then on, if it reads
// the examples held back at least as surely as the network and no more wrongly; otherwise (or
// with fewer than MinPerValue dice of some value) the reader keeps the general network and
// the Adaptation says why. Only the last MaxFit examples (the newest) count. No examples undo
// the adaptation. An error leaves the reader as it was.
func (r *Reader) Adapt(ex []Example) (Adaptation, error) {
	var a Adaptation
	for i, e := range ex {
		if err := r.CheckExample(e); err != nil {
			return a, fmt.Errorf("example %d: %w", i+1, err)
		}
	}
	ex = ex[max(0, len(ex)-MaxFit):]
	a.Examples = len(ex)
	for _, e := range ex {
		a.PerValue[e.Value]++
	}
	if len(ex) == 0 {
		r.setHead(nil)
		a.Why = "no examples: the general network reads"
		return a, nil
	}
	if r.m.dense.Layer == "" {
		return a, ErrCannotAdapt
	}
	var few []string
	for v := 1; v <= 6; v++ {
		if a.PerValue[v] < MinPerValue {
			few = append(few, fmt.Sprint(v))
		}
	}
	if len(few) > 0 {
		r.setHead(nil)
		a.Why = fmt.Sprintf("too few examples of %s (%d of each value needed): the general network reads", strings.Join(few, ", "), MinPerValue)
		return a, nil
	}
	// The network runs under the lock; the fitting, the longer part, does not hold up reading.
	r.mu.Lock()
	feats, err := r.m.exampleFeatures(ex)
	r.mu.Unlock()
	if err != nil {
		return a, fmt.Errorf("adapt: %w", err)
	}
	var fitIdx, checkIdx []int
	for i := range ex {
		if i%checkEvery == checkEvery-1 {
			checkIdx = append(checkIdx, i)
		} else {
			fitIdx = append(fitIdx, i)
		}
	}
	trial, err := r.m.fitHead(ex, feats, fitIdx)
	if err != nil {
		return a, fmt.Errorf("adapt: %w", err)
	}
	a.Check = r.m.check(ex, feats, checkIdx, trial)
	c := a.Check
	what := fmt.Sprintf("on %d held-back dice the rig's head read %d surely (%d wrong), the network %d (%d wrong)",
		c.Dice, c.HeadSure, c.HeadWrong, c.NetSure, c.NetWrong)
	if c.HeadSure < c.NetSure || c.HeadWrong > c.NetWrong {
		r.setHead(nil)
		a.Why = what + ": the general network reads"
		return a, nil
	}
	all := make([]int, len(ex))
	for i := range all {
		all[i] = i
	}
	h, err := r.m.fitHead(ex, feats, all)
	if err != nil {
		return a, fmt.Errorf("adapt: %w", err)
	}
	h.sides(ex)
	r.setHead(h)
	a.Used, a.Why = true, what
	return a, nil
}

func (r *Reader) setHead(h *head) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.head = h
}

// Adapted says whether the rig's head reads.
func (r *Reader) Adapted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.head != nil
}

// exampleFeatures runs the face network on each example's square at its four quarter turns and
// returns the features, [example][turn] -> In floats.
func (m *model) exampleFeatures(ex []Example) ([][4][]float32, error) {
	side := m.cfg.FaceSide
	out := make([][4][]float32, len(ex))
	const batch = faceBatch // the network keeps buffers for the largest batch it ran
	for i := 0; i < len(ex); i += batch {
		var sq []gocv.Mat
		for _, e := range ex[i:min(i+batch, len(ex))] {
			s, err := gocv.NewMatFromBytes(side, side, gocv.MatTypeCV8UC3, e.Square)
			if err != nil {
				closeAll(sq)
				return nil, err
			}
			sq = append(sq, s)
		}
		f, err := m.squareFeatures(sq)
		closeAll(sq)
		if err != nil {
			return nil, err
		}
		copy(out[i:], f)
	}
	return out, nil
}

func closeAll(ms []gocv.Mat) {
	for _, m := range ms {
		m.Close()
	}
}

// squareFeatures runs the face network up to its dense layer on squares, each at four quarter
// turns, and returns [square][turn] -> the features.
func (m *model) squareFeatures(squares []gocv.Mat) ([][4][]float32, error) {
	all := make([]gocv.Mat, 0, 4*len(squares))
	defer func() { closeAll(all) }()
	for k := 0; k < 4; k++ {
		for _, sq := range squares {
			all = append(all, turn(sq, k))
		}
	}
	blob, err := faceBlob(all)
	if err != nil {
		return nil, fmt.Errorf("face input: %w", err)
	}
	defer blob.Close()
	m.face.SetInput(blob, "")
	out := m.face.Forward(m.dense.Layer)
	defer out.Close()
	d := m.dense.In
	if sz := out.Size(); len(sz) < 2 || sz[0] != len(all) || out.Total() != len(all)*d {
		return nil, fmt.Errorf("face features are %v, want [%d %d]", sz, len(all), d)
	}
	v, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("face features: %w", err)
	}
	f := make([][4][]float32, len(squares))
	for i := range all {
		f[i%len(squares)][i/len(squares)] = append([]float32(nil), v[i*d:(i+1)*d]...)
	}
	return f, nil
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
// same value at netFloor or more: the two must agree, the reader never guesses. A 1 is left to
// the network: one pip in a square may be a pip of any die framed alone, which the network
// learnt to doubt and a head taught the rig's 1s read as a 1 (five misreads in two simulated
// games).
func agreed(p, net [7]float64) [7]float64 {
	v, nv := topValue(p), topValue(net)
	if v == 1 { // one pip: a 1, or a pip of any die framed alone; the network learnt those
		return net
	}
	if v != nv || net[v] < netFloor {
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

// headProbs are the probabilities of head h for one square's four turns' features, averaged.
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
func (m *model) fitHead(ex []Example, feats [][4][]float32, idx []int) (*head, error) {
	d := m.dense
	var x [][]float32
	var y []int
	var wt []float64
	sumW := 0.0
	for _, i := range idx {
		for _, f := range feats[i] {
			x = append(x, f)
			y = append(y, ex[i].Value)
			wt = append(wt, ex[i].Weight)
			sumW += ex[i].Weight
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
	sumW = 0
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
	return h, nil
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
	net := &head{w: m.dense.W, b: m.dense.B}
	c := AdaptCheck{}
	for _, i := range idx {
		if ex[i].Value == 0 {
			continue
		}
		c.Dice++
		for k, hh := range []*head{net, h} {
			p := hh.probs(feats[i])
			v := 1
			for j := 2; j <= 6; j++ {
				if p[j] > p[v] {
					v = j
				}
			}
			if p[v] < m.th.Face || p[0] >= 0.5 {
				continue
			}
			wrong := 0
			if v != ex[i].Value {
				wrong = 1
			}
			if k == 0 {
				c.NetSure++
				c.NetWrong += wrong
			} else {
				c.HeadSure++
				c.HeadWrong += wrong
			}
		}
	}
	return c
}
