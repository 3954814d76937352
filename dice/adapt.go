package dice

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/camera"
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
	// netFloor: the rig's head reads a value only where the network leans to it this much
	// (0.5 let the head read a held-out nell-byler 2 as a 3; 0.7 another, a red translucent 2
	// the network gave 0.79 for a 3; 0.8 read as many held-out photos exactly).
	netFloor = 0.8
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

// ErrCannotAdapt: the model's face network has no dense last layer to adapt.
var ErrCannotAdapt = errors.New("this face network cannot be adapted (no dense last layer found)")

// CheckExample reports what is wrong with an example for this reader's networks.
func (r *Reader) CheckExample(e Example) error {
	return e.Check(r.m.cfg.FaceSide, camera.MaxImageSide)
}

// Check reports what is wrong with an example for squares of faceSide pixels and dice of at
// most maxSide pixels.
func (e Example) Check(faceSide int, maxSide float64) error {
	n := faceSide * faceSide * 3
	switch {
	case e.Value < 0 || e.Value > 6:
		return fmt.Errorf("value %d: want 0 (no die) to 6", e.Value)
	case !(e.Weight > 0) || e.Weight > 100:
		return fmt.Errorf("weight %g: want above 0, at most 100", e.Weight)
	case len(e.Square) != n:
		return fmt.Errorf("square of %d bytes: want %d (%dx%d BGR)", len(e.Square), n, faceSide, faceSide)
	case !(e.Side >= 0) || e.Side > maxSide:
		return fmt.Errorf("side %g: want 0 (not known) to %g pixels", e.Side, maxSide)
	}
	return nil
}

// joinInts is "2, 5".
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// TooFew lists the values 1-6 with fewer than MinPerValue examples.
func TooFew(ex []Example) []int {
	var n [7]int
	for _, e := range ex {
		n[e.Value]++
	}
	var few []int
	for v := 1; v <= 6; v++ {
		if n[v] < MinPerValue {
			few = append(few, v)
		}
	}
	return few
}

// Adapt fits the rig's own head on its examples and reads with it from then on if, fitted
// without every third example and reading those as the reader would, it reads at least as
// many surely as the network (and at least one) and no more wrongly. Otherwise, or with fewer
// than MinPerValue dice of some value, the reader keeps the general network, and the
// Adaptation says why. Only the last MaxFit examples (the newest) count. No examples undo
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
	if few := TooFew(ex); len(few) > 0 {
		r.setHead(nil)
		a.Why = fmt.Sprintf("too few examples of %s (%d of each value needed): the general network reads", joinInts(few), MinPerValue)
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
	trial := r.m.fitHead(ex, feats, fitIdx)
	trial.sides(ex)
	a.Check = r.m.check(ex, feats, checkIdx, trial)
	c := a.Check
	what := fmt.Sprintf("on %d held-back dice the rig's head read %d surely (%d wrong), the network %d (%d wrong)",
		c.Dice, c.HeadSure, c.HeadWrong, c.NetSure, c.NetWrong)
	if c.HeadSure < max(1, c.NetSure) || c.HeadWrong > c.NetWrong {
		r.setHead(nil)
		a.Why = what + ": the general network reads"
		return a, nil
	}
	all := make([]int, len(ex))
	for i := range all {
		all[i] = i
	}
	h := r.m.fitHead(ex, feats, all)
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
