package engine

import "sync"

// Rolls is the number of ordered rolls of four dice.
const Rolls = 6 * 6 * 6 * 6

// Odds counts, out of the 1296 ordered rolls, those that can be used
// (Success) and those that bust.
type Odds struct {
	Success int `json:"success"`
	Bust    int `json:"bust"`
}

// P is the probability of busting.
func (o Odds) P() float64 { return float64(o.Bust) / Rolls }

// maskCount is how many of the 1296 rolls offer exactly this set of sums.
type maskCount struct {
	mask uint16 // bit c = some pairing of the roll has sum c
	n    int
}

// rollMasks groups the 1296 rolls by the set of sums their three pairings
// offer. A roll busts exactly when none of those sums is usable, so odds are a
// walk over the distinct sets. Built once, never changed.
var rollMasks = sync.OnceValue(func() []maskCount {
	counts := map[uint16]int{}
	for r := 0; r < Rolls; r++ {
		d := Dice{r/216 + 1, r/36%6 + 1, r/6%6 + 1, r%6 + 1}
		var m uint16
		for pr := Pairing(0); pr < 3; pr++ {
			x, y := d.Sums(pr)
			m |= 1<<x | 1<<y
		}
		counts[m]++
	}
	out := make([]maskCount, 0, len(counts))
	for m, n := range counts {
		out = append(out, maskCount{m, n})
	}
	return out
})

// oddsFor counts the rolls offering at least one sum in usable.
func oddsFor(usable uint16) Odds {
	s := 0
	for _, mc := range rollMasks() {
		if mc.mask&usable != 0 {
			s += mc.n
		}
	}
	return Odds{Success: s, Bust: Rolls - s}
}

// BustOdds counts the rolls that bust right now, for the mover's turn state:
// runners placed and left, runners on a top space, claimed columns. Rule
// options do not change it (skip_occupied never blocks a sum: an open
// column's top space is always free). A finished game (won or drawn) busts on every roll.
func BustOdds(p Position) Odds {
	if p.players == 0 || p.Over() {
		return Odds{Bust: Rolls}
	}
	return oddsFor(p.usableMask())
}

// usableMask has bit c set when sum c could be used on its own.
func (p *Position) usableMask() uint16 {
	var m uint16
	left := p.runners.Count() < MaxRunners
	for c := MinColumn; c <= MaxColumn; c++ {
		r := p.runners[c]
		if p.claimed&(1<<c) != 0 {
			continue
		}
		if (r == 0 && left) || (r > 0 && r < heights[c]) {
			m |= 1 << c
		}
	}
	return m
}

// ColumnOdds counts the rolls that can use at least one of columns, as in
// the tables of odds/*.csv. Numbers that are not columns are ignored.
func ColumnOdds(columns ...int) Odds {
	var m uint16
	for _, c := range columns {
		if Height(c) > 0 {
			m |= 1 << c
		}
	}
	return oddsFor(m)
}
