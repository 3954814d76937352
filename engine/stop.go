package engine

import "fmt"

// Removal is another player's piece taken off a column the mover claimed.
type Removal struct {
	Player int `json:"player"`
	Column int `json:"column"`
	Space  int `json:"space"`
}

// StopResult is what a stop does on the board: the mover's pieces moved up to
// the runners (a Step per column; From 0 and New = a piece newly placed), the
// columns claimed, the pieces removed, and how the game stands: the winner
// (-1 = none), or Draw when the stop claimed the last column with several
// players tied for the most (see Position.Over).
type StopResult struct {
	Moves   []Step    `json:"moves"`
	Claimed []int     `json:"claimed"`
	Removed []Removal `json:"removed"`
	Winner  int       `json:"winner"`
	Draw    bool      `json:"draw,omitempty"`
}

// RefusedError is returned when an action is refused for a rules reason.
type RefusedError struct{ Refusal Refusal }

func (e *RefusedError) Error() string {
	r := e.Refusal
	switch r.Reason {
	case ReasonStopOnOccupied:
		return fmt.Sprintf("stop refused (%s): the runner in column %d stands on player %d's piece", r.Reason, r.Column, r.Player)
	case ReasonGameOver:
		if r.Player < 0 {
			return fmt.Sprintf("refused (%s): the game is over, a draw", r.Reason)
		}
		return fmt.Sprintf("refused (%s): player %d has won", r.Reason, r.Player)
	case ReasonNoRunnersToStop:
		return fmt.Sprintf("stop refused (%s): no runner on the board yet, roll first", r.Reason)
	}
	return fmt.Sprintf("refused (%s)", r.Reason)
}

// CanStop reports whether the mover may stop now, and if not, why: the game
// is over, no runner is on the board, or (no_stop_on_occupied) a runner
// stands on another player's piece (Column and Player say where).
func (p Position) CanStop() (bool, Refusal) {
	no := Refusal{Player: -1}
	switch {
	case p.players == 0:
		no.Reason = ReasonNoRunnersToStop
		return false, no
	case p.Over():
		no.Reason, no.Player = ReasonGameOver, int(p.winner) // -1: a draw
		return false, no
	case p.runners.Count() == 0:
		no.Reason = ReasonNoRunnersToStop
		return false, no
	}
	if p.rules.NoStopOnOccupied {
		for c := MinColumn; c <= MaxColumn; c++ {
			if p.runners[c] == 0 {
				continue
			}
			if pl, occ := p.occupiedByOther(c, p.runners[c]); occ {
				no.Reason, no.Column, no.Player = ReasonStopOnOccupied, c, pl
				return false, no
			}
		}
	}
	return true, Refusal{Player: -1}
}

// Stop banks the turn: each runner becomes the mover's piece, a runner on a
// top space claims that column and removes every other player's piece from
// it, the result is decided, and the turn passes unless the game is over:
// won by win_columns, or, with all 11 columns claimed, won by the most
// columns or drawn.
// A refused stop returns a *RefusedError.
func (p Position) Stop() (Position, StopResult, error) {
	if ok, why := p.CanStop(); !ok {
		return p, StopResult{Winner: int(p.winner), Draw: p.draw}, &RefusedError{why}
	}
	res := StopResult{Winner: -1}
	t := int(p.turn)
	for c := MinColumn; c <= MaxColumn; c++ {
		to := p.runners[c]
		if to == 0 {
			continue
		}
		from := int(p.pieces[t][c])
		res.Moves = append(res.Moves, Step{Column: c, From: from, To: to, New: from == 0})
		p.pieces[t][c] = int8(to)
		if to != heights[c] {
			continue
		}
		res.Claimed = append(res.Claimed, c)
		for pl := 0; pl < int(p.players); pl++ {
			if pl != t && p.pieces[pl][c] != 0 {
				res.Removed = append(res.Removed, Removal{Player: pl, Column: c, Space: int(p.pieces[pl][c])})
				p.pieces[pl][c] = 0
			}
		}
	}
	p.runners = Runners{}
	p.derive()
	res.Winner, res.Draw = int(p.winner), p.draw
	if !p.Over() {
		p.turn = (p.turn + 1) % p.players
	}
	return p, res, nil
}
