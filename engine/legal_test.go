package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteLegal is an independent reading of RULES.md: for every pairing try
// both sums, else each sum alone, applying them one at a time to a map of
// runners; then keep the outcomes placing the most runners under
// forced_placement. It returns the sorted set of outcomes.
func bruteLegal(p Position, d Dice) []string {
	if p.Winner() >= 0 {
		return []string{}
	}
	turn, rules := p.Turn(), p.Rules()
	claimed := func(c int) bool {
		for pl := 0; pl < p.Players(); pl++ {
			if p.Piece(pl, c) == Height(c) {
				return true
			}
		}
		return false
	}
	occupied := func(c, s int) bool {
		for pl := 0; pl < p.Players(); pl++ {
			if pl != turn && p.Piece(pl, c) == s {
				return true
			}
		}
		return false
	}
	start := map[int]int{}
	for c := MinColumn; c <= MaxColumn; c++ {
		if r := p.Runner(c); r > 0 {
			start[c] = r
		}
	}
	try := func(sums ...int) (map[int]int, bool) {
		r := map[int]int{}
		for c, s := range start {
			r[c] = s
		}
		for i, c := range sums {
			cur, has := r[c]
			if i == 1 && sums[0] == c && cur == Height(c) {
				continue // 7+7: the second step past the top is lost
			}
			if claimed(c) {
				return nil, false
			}
			if !has {
				if len(r) == MaxRunners {
					return nil, false
				}
				cur = p.Piece(turn, c)
			}
			if cur >= Height(c) {
				return nil, false
			}
			next := cur + 1
			for rules.SkipOccupied && next < Height(c) && occupied(c, next) {
				next++
			}
			r[c] = next
		}
		return r, true
	}
	type out struct {
		key    string
		placed int
	}
	var outs []out
	add := func(r map[int]int) {
		var rr Runners
		for c, s := range r {
			rr[c] = s
		}
		outs = append(outs, out{rr.String(), len(r) - len(start)})
	}
	for _, pr := range [3][2]int{{d[0] + d[1], d[2] + d[3]}, {d[0] + d[2], d[1] + d[3]}, {d[0] + d[3], d[1] + d[2]}} {
		if r, ok := try(pr[0], pr[1]); ok {
			add(r)
			continue
		}
		for _, s := range pr {
			if r, ok := try(s); ok {
				add(r)
			}
		}
	}
	most := 0
	for _, o := range outs {
		most = max(most, o.placed)
	}
	set := []string{}
	for _, o := range outs {
		if (!rules.ForcedPlacement || o.placed == most) && !slices.Contains(set, o.key) {
			set = append(set, o.key)
		}
	}
	slices.Sort(set)
	return set
}

func TestLegalAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	var into []Choice
	for i := 0; i < n; i++ {
		p := randomPosition(t, rng)
		d := randomDice(rng)
		got := Legal(p, d)
		if want := bruteLegal(p, d); !slices.Equal(runnerSet(got), want) {
			t.Fatalf("%s roll %v:\n got  %v\n want %v", p, d, runnerSet(got), want)
		}
		into = LegalInto(into, p, d)
		if !slices.EqualFunc(into, got, choiceEqual) {
			t.Fatalf("%s roll %v: LegalInto %v differs from Legal %v", p, d, into, got)
		}
		checkExplain(t, p, d, got)
		for _, c := range got {
			q, err := p.Update(c)
			if err != nil || q.Runners() != c.Runners {
				t.Fatalf("%s roll %v: Update(%v) = %v, %v", p, d, c.Sums, q.Runners(), err)
			}
		}
	}
}

func choiceEqual(a, b Choice) bool {
	return slices.Equal(a.Sums, b.Sums) && slices.Equal(a.Pairings, b.Pairings) && slices.Equal(a.Steps, b.Steps) && a.Runners == b.Runners
}

// checkExplain checks that every pairing is accounted for: it leads to a
// choice, or has a refusal, and that each choice's steps lead to its runners.
func checkExplain(t *testing.T, p Position, d Dice, legal []Choice) {
	t.Helper()
	a := Explain(p, d)
	if !slices.EqualFunc(a.Choices, legal, choiceEqual) {
		t.Fatalf("%s roll %v: Explain choices differ from Legal", p, d)
	}
	for pr := Pairing(0); pr < 3; pr++ {
		used := slices.ContainsFunc(legal, func(c Choice) bool { return slices.Contains(c.Pairings, pr) })
		refused := slices.ContainsFunc(a.Refusals, func(r Refusal) bool { return r.Pairing == pr })
		if !used && !refused {
			t.Fatalf("%s roll %v: pairing %d is neither a choice nor refused", p, d, pr)
		}
	}
	for _, r := range a.Refusals {
		if r.Reason == ReasonNone || (r.Reason == ReasonClaimed) != (r.Player >= 0) {
			t.Fatalf("%s roll %v: bad refusal %+v", p, d, r)
		}
		if r.Sum != 0 && r.Reason != ReasonForcedPlacement {
			if why, _ := p.block(&p.runners, p.runners.Count(), r.Sum); why != r.Reason {
				t.Fatalf("%s roll %v: refusal %+v, but the sum's block is %v", p, d, r, why)
			}
		}
	}
	for _, c := range legal {
		r := p.Runners()
		for _, s := range c.Steps {
			if r[s.Column] != 0 && (s.New || r[s.Column] != s.From) || r[s.Column] == 0 && (!s.New || s.From != p.Piece(p.Turn(), s.Column)) {
				t.Fatalf("%s roll %v: step %+v does not start where the runner is", p, d, s)
			}
			r[s.Column] = s.To
		}
		if r != c.Runners {
			t.Fatalf("%s roll %v: steps %+v lead to %v, not %v", p, d, c.Steps, r, c.Runners)
		}
		if len(c.Pairings) == 0 || !slices.IsSorted(c.Sums) {
			t.Fatalf("%s roll %v: choice %+v", p, d, c)
		}
	}
}

// TestLegalRules pins each rule of RULES.md on a position built for it.
func TestLegalRules(t *testing.T) {
	tests := []struct {
		name, pos, dice string
		want            []string
		reasons         []Reason
	}{
		{"skip jumps two pieces", "3:0:7@4/7@5/7@6::skip", "3411", []string{"2@1,7@7", "4@1,5@1"}, nil},
		{"skip never passes the top", "4:0:11@1/11@2/11@3/11@4::skip", "6655", []string{"10@1,12@1", "11@5"}, nil},
		{"skip with 7+7 jumps on both steps", "3:0:/7@1/7@3::skip", "3434", []string{"7@4", "6@1,8@1"}, nil},
		{"7+7 lost step at the top", "2:0::7@12", "3434", []string{"6@1,7@12,8@1", "7@13"}, nil},
		{"no runner left", "2:0::2@1,3@1,4@1", "6666", []string{}, []Reason{ReasonNoRunner}},
		{"game over", "2:0:2@3,3@5,4@7/", "1111", []string{}, []Reason{ReasonGameOver}},
		{"game over, a draw", "3:1:2@3,3@5,4@7,5@9/6@11,7@13,8@11,9@9/10@7,11@5,12@3::w5", "1111", []string{}, []Reason{ReasonGameOver}},
		{"forced placement refuses advancing", "2:0::6@1,10@1:forced", "1546", []string{"5@1,6@1,10@1", "6@1,10@1,11@1", "6@1,7@1,10@1", "6@1,9@1,10@1"}, []Reason{ReasonOneRunnerLeft, ReasonForcedPlacement}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePosition(tc.pos)
			if err != nil {
				t.Fatal(err)
			}
			d, err := ParseDice(tc.dice)
			if err != nil {
				t.Fatal(err)
			}
			a := Explain(p, d)
			slices.Sort(tc.want)
			if got := runnerSet(a.Choices); !slices.Equal(got, tc.want) {
				t.Errorf("choices %v, want %v", got, tc.want)
			}
			for _, why := range tc.reasons {
				if !slices.ContainsFunc(a.Refusals, func(r Refusal) bool { return r.Reason == why }) {
					t.Errorf("no refusal %v in %+v", why, a.Refusals)
				}
			}
		})
	}
}
