package engine

// maxChoices bounds the distinct outcomes of a roll: three pairings, each
// giving at most two outcomes (both sums, or one of two new columns).
const maxChoices = 6

// outcome is a Choice before it is copied out, kept on the stack so that
// Legal allocates nothing but its result.
type outcome struct {
	runners  Runners
	sums     [2]int
	nsums    int
	steps    [2]Step
	nsteps   int
	pairings uint8 // bit i = pairing i leads here
	placed   int   // new runners placed
}

type outcomes struct {
	o [maxChoices]outcome
	n int
}

// add records an outcome, merging it with an earlier one with the same runners.
func (os *outcomes) add(o *outcome) {
	for i := 0; i < os.n; i++ {
		if os.o[i].runners == o.runners {
			os.o[i].pairings |= o.pairings
			return
		}
	}
	os.o[os.n] = *o
	os.n++
}

// analyze computes the outcomes of roll d and, when refs is not nil, appends
// a Refusal for every pairing and sum that cannot be used.
func (p *Position) analyze(d *Dice, os *outcomes, refs *[]Refusal) {
	if p.players == 0 || d.Validate() != nil {
		return
	}
	if p.winner >= 0 {
		if refs != nil {
			for pr := Pairing(0); pr < 3; pr++ {
				x, y := sortedSums(d, pr)
				*refs = append(*refs, Refusal{Pairing: pr, Sums: [2]int{x, y}, Reason: ReasonGameOver, Player: int(p.winner)})
			}
		}
		return
	}
	base := &p.runners
	refuse := func(pr Pairing, x, y, sum int, why Reason, player int) {
		if refs != nil {
			*refs = append(*refs, Refusal{Pairing: pr, Sums: [2]int{x, y}, Sum: sum, Reason: why, Column: sum, Player: player})
		}
	}
	for pr := Pairing(0); pr < 3; pr++ {
		x, y := sortedSums(d, pr)
		wx, ox := p.block(base, x)
		wy, oy := p.block(base, y)
		var o outcome
		o.pairings = 1 << pr
		switch {
		case x == y:
			if wx != ReasonNone {
				refuse(pr, x, y, x, wx, ox)
				continue
			}
			p.apply(&o, x)
			if o.runners[x] < heights[x] {
				p.apply(&o, x) // 7+7: advanced again
			} else {
				o.sums[o.nsums] = x // the second step is lost past the top
				o.nsums++
			}
			os.add(&o)
		case wx == ReasonNone && wy == ReasonNone:
			if base[x] == 0 && base[y] == 0 && MaxRunners-base.Count() == 1 {
				p.apply(&o, x)
				os.add(&o)
				o = outcome{pairings: 1 << pr}
				p.apply(&o, y)
				os.add(&o)
				refuse(pr, x, y, 0, ReasonOneRunnerLeft, -1)
				continue
			}
			p.apply(&o, x)
			p.apply(&o, y)
			os.add(&o)
			refuse(pr, x, y, 0, ReasonMustUseBoth, -1)
		case wx == ReasonNone:
			p.apply(&o, x)
			os.add(&o)
			refuse(pr, x, y, y, wy, oy)
		case wy == ReasonNone:
			p.apply(&o, y)
			os.add(&o)
			refuse(pr, x, y, x, wx, ox)
		default:
			refuse(pr, x, y, x, wx, ox)
			refuse(pr, x, y, y, wy, oy)
		}
	}
	if p.rules.ForcedPlacement {
		p.forced(d, os, refs)
	}
}

// apply uses sum c on outcome o (which starts from the position's runners
// when empty), recording the sum and the step.
func (p *Position) apply(o *outcome, c int) {
	if o.nsums == 0 {
		o.runners = p.runners
	}
	st, _ := p.advance(&o.runners, c)
	o.sums[o.nsums] = c
	o.nsums++
	o.steps[o.nsteps] = st
	o.nsteps++
	if st.New {
		o.placed++
	}
}

// forced keeps only the outcomes placing the most new runners.
func (p *Position) forced(d *Dice, os *outcomes, refs *[]Refusal) {
	most := 0
	for i := 0; i < os.n; i++ {
		most = max(most, os.o[i].placed)
	}
	n := 0
	for i := 0; i < os.n; i++ {
		o := &os.o[i]
		if o.placed == most {
			os.o[n] = *o
			n++
			continue
		}
		if refs == nil {
			continue
		}
		for pr := Pairing(0); pr < 3; pr++ {
			if o.pairings&(1<<pr) == 0 {
				continue
			}
			x, y := sortedSums(d, pr)
			sum := 0
			if o.nsums == 1 {
				sum = o.sums[0]
			}
			*refs = append(*refs, Refusal{Pairing: pr, Sums: [2]int{x, y}, Sum: sum, Reason: ReasonForcedPlacement, Column: sum, Player: -1})
		}
	}
	os.n = n
}

func sortedSums(d *Dice, pr Pairing) (int, int) {
	x, y := d.Sums(pr)
	if x > y {
		return y, x
	}
	return x, y
}

// Legal lists every legal choice for roll d, deduplicated: choices leading to
// the same runners are one Choice listing all their pairings. Sums are in
// increasing order. An empty list is a bust. A finished game or dice outside
// 1-6 give none (check Dice.Validate first).
func Legal(p Position, d Dice) []Choice {
	var os outcomes
	p.analyze(&d, &os, nil)
	return os.choices(nil)
}

// LegalInto is Legal appending into dst[:0], reusing dst's choices and their
// slices: with a dst kept between calls it does not allocate.
func LegalInto(dst []Choice, p Position, d Dice) []Choice {
	var os outcomes
	p.analyze(&d, &os, nil)
	return os.choices(dst[:0])
}

// Explain is Legal plus a Refusal for every pairing and sum that cannot be
// used, and why: what settles a dispute at the table.
func Explain(p Position, d Dice) Analysis {
	var os outcomes
	refs := []Refusal{}
	p.analyze(&d, &os, &refs)
	return Analysis{Choices: os.choices(nil), Refusals: refs}
}

// choices copies the outcomes out, reusing dst's capacity when it has some.
func (os *outcomes) choices(dst []Choice) []Choice {
	if dst == nil {
		if os.n == 0 {
			return []Choice{}
		}
		// One backing array per field instead of three allocations per choice.
		dst = make([]Choice, os.n)
		sums, steps, prs := make([]int, 2*os.n), make([]Step, 2*os.n), make([]Pairing, 3*os.n)
		for i := range dst {
			dst[i].Sums, dst[i].Steps, dst[i].Pairings = sums[2*i:2*i:2*i+2], steps[2*i:2*i:2*i+2], prs[3*i:3*i:3*i+3]
		}
		dst = dst[:0]
	}
	for i := 0; i < os.n; i++ {
		o := &os.o[i]
		if len(dst) < cap(dst) {
			dst = dst[:len(dst)+1]
		} else {
			dst = append(dst, Choice{})
		}
		c := &dst[len(dst)-1]
		c.Sums = append(c.Sums[:0], o.sums[:o.nsums]...)
		c.Steps = append(c.Steps[:0], o.steps[:o.nsteps]...)
		c.Pairings = c.Pairings[:0]
		for pr := Pairing(0); pr < 3; pr++ {
			if o.pairings&(1<<pr) != 0 {
				c.Pairings = append(c.Pairings, pr)
			}
		}
		c.Runners = o.runners
	}
	return dst
}
