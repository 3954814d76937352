package dice

import (
	"math"
	"slices"
)

// CorrectedWeight is the weight of a die the players read for the reader (it could not, or
// read it wrong): the reader's mistakes teach it most.
const CorrectedWeight = 2

// assignMargin: dice the players' values leave open are labelled by the face network's
// probabilities only when the likeliest assignment is at least this many times likelier than
// any other; otherwise they teach nothing.
const assignMargin = 20

// Confirmation is what a reading the players played teaches (Confirm).
type Confirmation struct {
	Examples []Example // Label's
	// HeadRead counts the dice only the rig's head read surely, HeadMisread those of them the
	// players played as another value: a head that misreads was fitted to other dice, another
	// camera or other light.
	HeadRead, HeadMisread int
}

// Confirm is Label and the count of the rig's head's misreads in a reading the players played
// as values; with another number of dice than values, which die is which is unknown and
// nothing is counted.
func Confirm(rd Reading, values []int) Confirmation {
	c := Confirmation{Examples: Label(rd, values)}
	if len(rd.Dice) != len(values) {
		return c
	}
	left := slices.Clone(values)
	var head []Die
	for _, d := range rd.Dice {
		switch {
		case d.Value == 0:
		case d.netSure: // the network's own sure reads are right but for the rarest misreads
			take(&left, d.Value)
		default:
			head = append(head, d)
		}
	}
	for _, d := range head {
		c.HeadRead++
		if !take(&left, d.Value) {
			c.HeadMisread++
		}
	}
	return c
}

// take removes one v from values, and says whether there was one.
func take(values *[]int, v int) bool {
	i := slices.Index(*values, v)
	if i >= 0 {
		*values = slices.Delete(*values, i, i+1)
	}
	return i >= 0
}

// Label turns a reading and the values the players confirmed for it (in any order, as they
// choose a move or correct the dice) into examples of the rig. Each die read surely whose
// value is among the confirmed ones is that value, if the general network itself read it
// surely (a misread of the rig's head that nobody corrected must not teach it). The dice left
// over (unread or misread) take the values left over: all of them if those are one value, else
// by the face network's probabilities when one assignment is clearly the likeliest, and count
// CorrectedWeight. Nothing is learnt when the reading has another number of dice than values (a
// die missed or a spot taken for one: which is which is unknown), nor from dice without a
// square.
func Label(rd Reading, values []int) []Example {
	if len(rd.Dice) != len(values) || len(values) == 0 {
		return nil
	}
	for _, d := range rd.Dice {
		if len(d.Square) == 0 {
			return nil
		}
	}
	left := slices.Clone(values)
	var out []Example
	var open []Die
	for _, d := range rd.Dice {
		if d.Value > 0 && take(&left, d.Value) {
			// A value only the rig's head read surely may be its own misread, played unnoticed:
			// it must not teach the head more of the same. The players' corrections teach it.
			if d.netSure {
				out = append(out, Example{Value: d.Value, Weight: 1, Square: d.Square, Side: float64(d.Box.Dx())})
			}
			continue
		}
		open = append(open, d)
	}
	if len(open) == 0 {
		return out
	}
	assign, ok := likeliest(open, left)
	if !ok {
		return out
	}
	for i, d := range open {
		w := 1.0
		if d.Value != assign[i] {
			w = CorrectedWeight
		}
		out = append(out, Example{Value: assign[i], Weight: w, Square: d.Square, Side: float64(d.Box.Dx())})
	}
	return out
}

// likeliest assigns the values to the dice, one each: the one assignment if the values are all
// the same, else the likeliest by the dice's probabilities if it beats every other by
// assignMargin.
func likeliest(dice []Die, values []int) ([]int, bool) {
	slices.Sort(values)
	var best, second float64 = math.Inf(-1), math.Inf(-1)
	var pick []int
	perm := slices.Clone(values)
	for {
		s := 0.0
		for i, d := range dice {
			s += math.Log(max(d.Probs[perm[i]], 1e-9))
		}
		switch {
		case s > best:
			best, second, pick = s, best, slices.Clone(perm)
		case s > second:
			second = s
		}
		if !nextPerm(perm) {
			break
		}
	}
	return pick, best-second >= math.Log(assignMargin)
}

// nextPerm steps p to its next permutation in lexical order, skipping repeats of equal values;
// false after the last.
func nextPerm(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}
