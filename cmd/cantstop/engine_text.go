package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/engine"
)

// This file says the engine's data in plain English for the CLI; the
// display package has its own translations.

// engPlayer names a player as the device does: P1, P2, ... (the notation counts from 0).
func engPlayer(i int) string { return fmt.Sprintf("P%d", i+1) }

func engJoinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// engDescribeEnd says how a game over ended: a win by win_columns, or with
// all 11 columns claimed, a win on the most columns or a draw.
func engDescribeEnd(p engine.Position) string {
	w := p.Winner()
	if w >= 0 && len(p.Claimed(w)) >= p.Rules().WinColumns {
		return fmt.Sprintf("%s has won", engPlayer(w))
	}
	most, tied := 0, []string{}
	for pl := 0; pl < p.Players(); pl++ {
		switch n := len(p.Claimed(pl)); {
		case n > most:
			most, tied = n, []string{engPlayer(pl)}
		case n == most:
			tied = append(tied, engPlayer(pl))
		}
	}
	if p.Draw() {
		return fmt.Sprintf("the game is a draw: all 11 columns are claimed, nobody owns %d, and %s tie with %d each",
			p.Rules().WinColumns, strings.Join(tied, ", "), most)
	}
	return fmt.Sprintf("%s has won: all 11 columns are claimed, nobody owns %d, and %s owns the most (%d)",
		engPlayer(w), p.Rules().WinColumns, engPlayer(w), most)
}

// engDescribePosition is a one-line summary of the mover's state.
func engDescribePosition(p engine.Position) string {
	if p.Over() {
		return fmt.Sprintf("Position %s: %s.", p, engDescribeEnd(p))
	}
	rs := p.Runners()
	var parts []string
	for _, c := range rs.Columns() {
		top := ""
		if rs[c] == engine.Height(c) {
			top = " (top)"
		}
		parts = append(parts, fmt.Sprintf("column %d space %d%s", c, rs[c], top))
	}
	runners := "no runners yet"
	if len(parts) > 0 {
		runners = "runners in " + strings.Join(parts, ", ")
	}
	var claims []string
	for pl := 0; pl < p.Players(); pl++ {
		if cs := p.Claimed(pl); len(cs) > 0 {
			claims = append(claims, fmt.Sprintf("%s owns %s", engPlayer(pl), engJoinInts(cs, ", ")))
		}
	}
	s := fmt.Sprintf("Position %s: %s to move, %s, %d left", p, engPlayer(p.Turn()), runners, p.RunnersLeft())
	if len(claims) > 0 {
		s += "; " + strings.Join(claims, "; ")
	}
	return s + "."
}

// engPairingDice shows which dice a pairing adds, the pair making first come first:
// "1+5 and 4+6" for 6 and 10.
func engPairingDice(d engine.Dice, pr engine.Pairing, first int) string {
	a, b := engPairs(d, pr)
	if a[0]+a[1] != first {
		a, b = b, a
	}
	return fmt.Sprintf("%d+%d and %d+%d", a[0], a[1], b[0], b[1])
}

// engPairs are the two pairs of dice a pairing adds, in the dice's order.
func engPairs(d engine.Dice, pr engine.Pairing) ([2]int, [2]int) {
	idx := [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}[pr]
	return [2]int{d[idx[0]], d[idx[1]]}, [2]int{d[idx[2]], d[idx[3]]}
}

// engChoiceDice lists the dice behind a choice's sums, in the order of its sums
// ("5+11" is "1+4 and 5+6"; a lone "6" from 3 3 6 6 is "3+3, not 6+6"), each
// distinct split of the values once (3-4-3-4 splits into 3+4 and 3+4 two ways).
func engChoiceDice(d engine.Dice, c engine.Choice) string {
	var out []string
	seen := map[string]bool{}
	for _, pr := range c.Pairings {
		a, b := engPairs(d, pr)
		if a[0]+a[1] != c.Sums[0] {
			a, b = b, a
		}
		var s string
		if len(c.Sums) == 2 {
			s = fmt.Sprintf("%d+%d and %d+%d", a[0], a[1], b[0], b[1])
		} else {
			s = fmt.Sprintf("%d+%d, not %d+%d", a[0], a[1], b[0], b[1])
		}
		key := fmt.Sprint(min(a[0], a[1]), max(a[0], a[1]), min(b[0], b[1]), max(b[0], b[1]))
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, " or ")
}

func engDescribeStep(s engine.Step) string {
	var out string
	switch {
	case s.New && s.From == 0:
		out = fmt.Sprintf("place a runner in column %d on space %d", s.Column, s.To)
	case s.New:
		out = fmt.Sprintf("place a runner in column %d on space %d (your piece is on %d)", s.Column, s.To, s.From)
	default:
		out = fmt.Sprintf("move the runner in column %d from space %d to %d", s.Column, s.From, s.To)
	}
	switch skipped := s.To - s.From - 1; {
	case skipped == 1:
		out += fmt.Sprintf(", skipping space %d (taken by another player)", s.From+1)
	case skipped > 1:
		out += fmt.Sprintf(", skipping spaces %d-%d (taken by other players)", s.From+1, s.To-1)
	}
	return out
}

func engDescribeChoice(d engine.Dice, c engine.Choice) string {
	steps := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		steps[i] = engDescribeStep(s)
		if s.To == engine.Height(s.Column) {
			steps[i] += " (top)"
		}
	}
	if len(c.Sums) == 2 && c.Sums[0] == c.Sums[1] && len(c.Steps) == 1 {
		steps = append(steps, "the second step is lost past the top")
	}
	return fmt.Sprintf("%s (%s): %s", engJoinInts(c.Sums, "+"), engChoiceDice(d, c), strings.Join(steps, ", then "))
}

// engDescribeRefusal says why a pairing or sum cannot be used.
func engDescribeRefusal(r engine.Refusal) string {
	switch r.Reason {
	case engine.ReasonClaimed:
		return fmt.Sprintf("%d cannot be used: column %d is claimed by %s", r.Sum, r.Column, engPlayer(r.Player))
	case engine.ReasonTop:
		return fmt.Sprintf("%d cannot be used: the runner in column %d is already on the top space (not yet won: stop to claim it)", r.Sum, r.Column)
	case engine.ReasonNoRunner:
		return fmt.Sprintf("%d cannot be used: it needs a new runner and all three are on the board", r.Sum)
	case engine.ReasonMustUseBoth:
		return fmt.Sprintf("%d alone or %d alone is not allowed: both sums can be used, so both must be", r.Sums[0], r.Sums[1])
	case engine.ReasonOneRunnerLeft:
		return fmt.Sprintf("%d and %d together is not possible: both need a new runner and only one is left, so use one of them", r.Sums[0], r.Sums[1])
	case engine.ReasonForcedPlacement:
		what := fmt.Sprintf("%d+%d", r.Sums[0], r.Sums[1])
		if r.Sum != 0 {
			what = fmt.Sprintf("%d alone", r.Sum)
		}
		return fmt.Sprintf("%s is not allowed: with forced placement another choice places more new runners", what)
	case engine.ReasonGameOver:
		if r.Player < 0 {
			return "the game is over: it is a draw"
		}
		return fmt.Sprintf("the game is over: %s has won", engPlayer(r.Player))
	case engine.ReasonStopOnOccupied:
		return fmt.Sprintf("cannot stop: the runner in column %d stands on %s's piece (no_stop_on_occupied)", r.Column, engPlayer(r.Player))
	case engine.ReasonNoRunnersToStop:
		return "cannot stop: no runner has been placed this turn"
	}
	return r.Reason.String()
}

// engStopRuling says whether the mover may stop now instead of rolling, and why.
func engStopRuling(p engine.Position) (bool, string) {
	ok, r := p.CanStop()
	if !ok {
		return false, strings.TrimPrefix(engDescribeRefusal(r), "cannot stop: ")
	}
	rs := p.Runners()
	var banks []string
	for _, c := range rs.Columns() {
		b := fmt.Sprintf("column %d at space %d", c, rs[c])
		if rs[c] == engine.Height(c) {
			b += fmt.Sprintf(" (claiming column %d)", c)
		}
		banks = append(banks, b)
	}
	return true, fmt.Sprintf("stopping makes the runners %s's pieces: %s", engPlayer(p.Turn()), strings.Join(banks, ", "))
}

// engStopAfter is what a choice does to stopping, when it forbids it: "" otherwise.
func engStopAfter(p engine.Position, c engine.Choice) string {
	next, err := p.Update(c)
	if err != nil {
		return ""
	}
	if ok, r := next.CanStop(); !ok && r.Reason == engine.ReasonStopOnOccupied {
		return fmt.Sprintf("; after it you cannot stop (the runner in column %d would stand on %s's piece)", r.Column, engPlayer(r.Player))
	}
	return ""
}

// engNewRunners counts the new runners a pairing's sums would need.
func engNewRunners(p engine.Position, sums [2]int) int {
	rs := p.Runners()
	n := 0
	for i, s := range sums {
		if rs[s] == 0 && (i == 0 || s != sums[0]) {
			n++
		}
	}
	return n
}

// engWriteMoves prints whether the mover may stop, the choices, then the
// refusals grouped by pairing (pairings with the same sums are shown once; a
// pairing refused both whole, by forced placement, and in part, because both
// sums must be used, gets one line naming the choices to take instead).
func engWriteMoves(w io.Writer, p engine.Position, d engine.Dice, a engine.Analysis) {
	fmt.Fprintln(w, engDescribePosition(p))
	ok, why := engStopRuling(p)
	answer := "No"
	if ok {
		answer = "Yes"
	}
	fmt.Fprintf(w, "May %s stop now instead of rolling? %s: %s.\n", engPlayer(p.Turn()), answer, why)
	fmt.Fprintf(w, "Roll %d %d %d %d.\n", d[0], d[1], d[2], d[3])
	switch {
	case p.Over():
		fmt.Fprintln(w, "\nThe game is over: no roll can be used.")
	case a.Bust():
		fmt.Fprintln(w, "\nBUST: no pairing can be used. The runners are removed and the turn passes.")
	default:
		fmt.Fprintf(w, "\nLegal choices (%d):\n", len(a.Choices))
		for i, c := range a.Choices {
			fmt.Fprintf(w, "  %d. %s%s\n", i+1, engDescribeChoice(d, c), engStopAfter(p, c))
		}
	}
	if len(a.Refusals) == 0 {
		return
	}
	fmt.Fprintln(w, "\nNot allowed:")
	forced := map[[2]int]bool{}
	for _, r := range a.Refusals {
		if r.Reason == engine.ReasonForcedPlacement && r.Sum == 0 {
			forced[r.Sums] = true
		}
	}
	seen := map[string]bool{}
	for _, r := range a.Refusals {
		key := fmt.Sprint(r.Sums, r.Sum, r.Reason)
		if r.Reason == engine.ReasonMustUseBoth && forced[r.Sums] || seen[key] {
			continue
		}
		seen[key] = true
		why := engDescribeRefusal(r)
		if r.Reason == engine.ReasonForcedPlacement && r.Sum == 0 {
			why = engForcedWhy(p, a, r)
		}
		fmt.Fprintf(w, "  %d and %d (%s): %s\n", r.Sums[0], r.Sums[1], engPairingDice(d, r.Pairing, r.Sums[0]), why)
	}
}

// engForcedWhy explains a pairing refused by forced placement, naming the
// choices that place more new runners.
func engForcedWhy(p engine.Position, a engine.Analysis, r engine.Refusal) string {
	var better []string
	most := 0
	for _, c := range a.Choices {
		better = append(better, engJoinInts(c.Sums, "+"))
		n := 0
		for _, st := range c.Steps {
			if st.New {
				n++
			}
		}
		most = max(most, n)
	}
	alone := ""
	if r.Sums[0] != r.Sums[1] {
		alone = fmt.Sprintf(" (and %d or %d alone is not allowed either: both sums can be used, so both must be)", r.Sums[0], r.Sums[1])
	}
	places := "no new runner"
	if n := engNewRunners(p, r.Sums); n > 0 {
		places = plural(n, "new runner")
	}
	return fmt.Sprintf("not allowed with forced placement: it places %s, and %s %s%s",
		places, strings.Join(better, " or "), engPlaces(most, len(better)), alone)
}

// engPlaces is "places 1 new runner" or "each place 1 new runner".
func engPlaces(n, choices int) string {
	if choices == 1 {
		return "places " + plural(n, "new runner")
	}
	return "each place " + plural(n, "new runner")
}
