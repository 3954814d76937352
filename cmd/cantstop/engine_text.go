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
		return fmt.Sprintf("player %d has won", w)
	}
	most, tied := 0, []string{}
	for pl := 0; pl < p.Players(); pl++ {
		switch n := len(p.Claimed(pl)); {
		case n > most:
			most, tied = n, []string{strconv.Itoa(pl)}
		case n == most:
			tied = append(tied, strconv.Itoa(pl))
		}
	}
	if p.Draw() {
		return fmt.Sprintf("the game is a draw: all 11 columns are claimed, nobody owns %d, and players %s tie with %d each",
			p.Rules().WinColumns, strings.Join(tied, ", "), most)
	}
	return fmt.Sprintf("player %d has won: all 11 columns are claimed, nobody owns %d, and player %d owns the most (%d)",
		w, p.Rules().WinColumns, w, most)
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
			claims = append(claims, fmt.Sprintf("player %d owns %s", pl, engJoinInts(cs, ", ")))
		}
	}
	s := fmt.Sprintf("Position %s: player %d to move, %s, %d left", p, p.Turn(), runners, p.RunnersLeft())
	if len(claims) > 0 {
		s += "; " + strings.Join(claims, "; ")
	}
	return s + "."
}

// engPairingDice shows which dice a pairing adds: "1+5 and 4+6".
func engPairingDice(d engine.Dice, pr engine.Pairing) string {
	idx := [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}[pr]
	return fmt.Sprintf("%d+%d and %d+%d", d[idx[0]], d[idx[1]], d[idx[2]], d[idx[3]])
}

// engPairingsDice lists the dice of several pairings, each distinct split
// of the values once (3-4-3-4 splits into 3+4 and 3+4 two ways).
func engPairingsDice(d engine.Dice, prs []engine.Pairing) string {
	var out []string
	seen := map[[2][2]int]bool{}
	for _, pr := range prs {
		idx := [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}[pr]
		a := [2]int{min(d[idx[0]], d[idx[1]]), max(d[idx[0]], d[idx[1]])}
		b := [2]int{min(d[idx[2]], d[idx[3]]), max(d[idx[2]], d[idx[3]])}
		if a[0] > b[0] || (a[0] == b[0] && a[1] > b[1]) {
			a, b = b, a
		}
		if !seen[[2][2]int{a, b}] {
			seen[[2][2]int{a, b}] = true
			out = append(out, engPairingDice(d, pr))
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
	return fmt.Sprintf("%s (%s): %s", engJoinInts(c.Sums, "+"), engPairingsDice(d, c.Pairings), strings.Join(steps, ", then "))
}

// engDescribeRefusal says why a pairing or sum cannot be used.
func engDescribeRefusal(r engine.Refusal) string {
	switch r.Reason {
	case engine.ReasonClaimed:
		return fmt.Sprintf("%d cannot be used: column %d is claimed by player %d", r.Sum, r.Column, r.Player)
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
		return fmt.Sprintf("the game is over: player %d has won", r.Player)
	case engine.ReasonStopOnOccupied:
		return fmt.Sprintf("cannot stop: the runner in column %d stands on player %d's piece (no_stop_on_occupied)", r.Column, r.Player)
	case engine.ReasonNoRunnersToStop:
		return "cannot stop: no runner has been placed this turn"
	}
	return r.Reason.String()
}

// engWriteMoves prints the choices, then the refusals grouped by pairing
// (pairings with the same sums are shown once).
func engWriteMoves(w io.Writer, p engine.Position, d engine.Dice, a engine.Analysis) {
	fmt.Fprintln(w, engDescribePosition(p))
	fmt.Fprintf(w, "Roll %d %d %d %d.\n", d[0], d[1], d[2], d[3])
	switch {
	case p.Over():
		fmt.Fprintln(w, "\nThe game is over: no roll can be used.")
	case a.Bust():
		fmt.Fprintln(w, "\nBUST: no pairing can be used. The runners are removed and the turn passes.")
	default:
		fmt.Fprintf(w, "\nLegal choices (%d):\n", len(a.Choices))
		for i, c := range a.Choices {
			fmt.Fprintf(w, "  %d. %s\n", i+1, engDescribeChoice(d, c))
		}
	}
	if len(a.Refusals) == 0 {
		return
	}
	fmt.Fprintln(w, "\nNot allowed:")
	seen := map[string]bool{}
	for _, r := range a.Refusals {
		line := fmt.Sprintf("  %d and %d (%s): %s", r.Sums[0], r.Sums[1], engPairingDice(d, r.Pairing), engDescribeRefusal(r))
		key := fmt.Sprint(r.Sums, r.Sum, r.Reason)
		if seen[key] {
			continue
		}
		seen[key] = true
		fmt.Fprintln(w, line)
	}
}
