package engine

// maxChoices bounds the distinct outcomes of a roll: three pairings, each
// giving at most two outcomes (both sums, or one of two new columns).
const maxChoices = 6

// outcome is a Choice before it is copied out, kept small and on the stack
// so that Legal allocates nothing but its result. Its runners are the
// position's with its steps applied.
type outcome struct {
	sums     [2]int
	steps    [2]Step
	nsums    int8
	nsteps   int8
	placed   int8   // new runners placed
	pairings uint8  // bit i = pairing i leads here
	key      uint32 // the columns it changes and where they end: equal keys = equal runners
}

type outcomes struct {
	o [maxChoices]outcome
	n int
}

// add records an outcome, merging it with an earlier one with the same runners.
func (os *outcomes) add(o *outcome) {
	for i := 0; i < os.n; i++ {
		if os.o[i].key == o.key {
			os.o[i].pairings |= o.pairings
			return
		}
	}
	os.o[os.n] = *o
	os.n++
}

// step is what using sum c does when its runner stands on space cur (0 =
// none yet). The caller has checked that c can be used.
func (p *Position) step(c, cur int) Step {
	if cur == 0 {
		from := int(p.pieces[p.turn][c])
		return Step{Column: c, From: from, To: p.next(c, from), New: true}
	}
	return Step{Column: c, From: cur, To: p.next(c, cur)}
}

// push appends a step (and its sum) to o.
func (o *outcome) push(sum int, st Step) {
	o.sums[o.nsums] = sum
	o.nsums++
	o.steps[o.nsteps] = st
	o.nsteps++
	if st.New {
		o.placed++
	}
}

// single is the outcome of using sum c alone.
func (p *Position) single(pr Pairing, c int) outcome {
	o := outcome{pairings: 1 << pr}
	st := p.step(c, p.runners[c])
	o.push(c, st)
	o.key = uint32(c)<<4 | uint32(st.To)
	return o
}

// analyze computes the outcomes of roll d and, when refs is not nil, appends
// a Refusal for every pairing and sum that cannot be used.
func (p *Position) analyze(d *Dice, os *outcomes, refs *[]Refusal) {
	if p.players == 0 || d.Validate() != nil {
		return
	}
	if p.Over() {
		if refs != nil {
			for pr := Pairing(0); pr < 3; pr++ {
				x, y := sortedSums(d, pr)
				*refs = append(*refs, Refusal{Pairing: pr, Sums: [2]int{x, y}, Reason: ReasonGameOver, Player: int(p.winner)}) // -1: a draw
			}
		}
		return
	}
	base := &p.runners
	n0 := base.Count()
	refuse := func(pr Pairing, x, y, sum int, why Reason, player int) {
		if refs != nil {
			*refs = append(*refs, Refusal{Pairing: pr, Sums: [2]int{x, y}, Sum: sum, Reason: why, Column: sum, Player: player})
		}
	}
	for pr := Pairing(0); pr < 3; pr++ {
		x, y := sortedSums(d, pr)
		wx, ox := p.block(base, n0, x)
		wy, oy := p.block(base, n0, y)
		switch {
		case x == y:
			if wx != ReasonNone {
				refuse(pr, x, y, x, wx, ox)
				continue
			}
			o := p.single(pr, x)
			if st := o.steps[0]; st.To < heights[x] {
				st2 := Step{Column: x, From: st.To, To: p.next(x, st.To)} // 7+7: advanced again
				o.push(x, st2)
				o.key = uint32(x)<<4 | uint32(st2.To)
			} else {
				o.sums[1], o.nsums = x, 2 // the second step is lost past the top
			}
			os.add(&o)
		case wx == ReasonNone && wy == ReasonNone:
			if base[x] == 0 && base[y] == 0 && n0 == MaxRunners-1 {
				ox, oy := p.single(pr, x), p.single(pr, y)
				os.add(&ox)
				os.add(&oy)
				refuse(pr, x, y, 0, ReasonOneRunnerLeft, -1)
				continue
			}
			o := p.single(pr, x)
			st := p.step(y, base[y])
			o.push(y, st)
			o.key = o.key<<8 | uint32(y)<<4 | uint32(st.To)
			os.add(&o)
			refuse(pr, x, y, 0, ReasonMustUseBoth, -1)
		case wx == ReasonNone:
			o := p.single(pr, x)
			os.add(&o)
			refuse(pr, x, y, y, wy, oy)
		case wy == ReasonNone:
			o := p.single(pr, y)
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

// forced keeps only the outcomes placing the most new runners.
func (p *Position) forced(d *Dice, os *outcomes, refs *[]Refusal) {
	var most int8
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
	return os.choices(&p.runners, nil)
}

// LegalInto is Legal appending into dst[:0], reusing dst's choices and their
// slices: with a dst kept between calls it does not allocate.
func LegalInto(dst []Choice, p Position, d Dice) []Choice {
	var os outcomes
	p.analyze(&d, &os, nil)
	return os.choices(&p.runners, dst[:0])
}

// Explain is Legal plus a Refusal for every pairing and sum that cannot be
// used, and why: what settles a dispute at the table.
func Explain(p Position, d Dice) Analysis {
	var os outcomes
	refs := []Refusal{}
	p.analyze(&d, &os, &refs)
	return Analysis{Choices: os.choices(&p.runners, nil), Refusals: refs}
}

// choices copies the outcomes out, reusing dst's capacity when it has some.
func (os *outcomes) choices(base *Runners, dst []Choice) []Choice {
	if dst == nil {
		if os.n == 0 {
			return []Choice{}
		}
		// Two allocations sized to the result: the choices, and their slices.
		type backing struct {
			sums  [2]int
			steps [2]Step
			prs   [3]Pairing
		}
		dst = make([]Choice, os.n)
		bk := make([]backing, os.n)
		for i := range dst {
			dst[i].Sums, dst[i].Steps, dst[i].Pairings = bk[i].sums[:0], bk[i].steps[:0], bk[i].prs[:0]
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
		c.Runners = *base
		for _, st := range o.steps[:o.nsteps] {
			c.Runners[st.Column] = st.To
		}
	}
	return dst
}
