package engine

import (
	"errors"
	"fmt"
)

// Position is the whole game state between two actions: the rules, whose turn
// it is, every player's pieces and the mover's runners. It is immutable: every
// change returns a new Position. The zero value is not a game; build one with
// NewPosition or ParsePosition.
//
// A piece on its column's top space means that player has claimed the column,
// exactly as on the physical board. Positions compare with ==.
type Position struct {
	rules   Rules
	players int8
	turn    int8
	winner  int8
	draw    bool   // every column claimed, several players tied for most
	claimed uint16 // bit c = column c claimed; derived from pieces by derive
	pieces  [MaxPlayers][MaxColumn + 1]int8
	runners Runners
}

// NewPosition is the empty board for players players, first to move.
func NewPosition(players int, rules Rules, first int) (Position, error) {
	if err := rules.ValidateFor(players); err != nil {
		return Position{}, err
	}
	if first < 0 || first >= players {
		return Position{}, fmt.Errorf("first player %d does not exist: players are 0-%d", first, players-1)
	}
	return Position{rules: rules, players: int8(players), turn: int8(first), winner: -1}, nil
}

// Rules returns the rule options of the game.
func (p Position) Rules() Rules { return p.rules }

// Players is the number of players.
func (p Position) Players() int { return int(p.players) }

// Turn is the player to move; once the game is over, the player whose stop
// ended it (after a win by win_columns: the winner).
func (p Position) Turn() int { return int(p.turn) }

// Piece is the space of player's piece in column, 0 = none.
func (p Position) Piece(player, column int) int {
	if player < 0 || player >= int(p.players) || Height(column) == 0 {
		return 0
	}
	return int(p.pieces[player][column])
}

// Runner is the space of the mover's runner in column, 0 = none.
func (p Position) Runner(column int) int {
	if Height(column) == 0 {
		return 0
	}
	return p.runners[column]
}

// Runners returns the mover's runners this turn.
func (p Position) Runners() Runners { return p.runners }

// RunnersLeft is how many of the three runners are still off the board.
func (p Position) RunnersLeft() int { return MaxRunners - p.runners.Count() }

// ClaimedBy is the player who owns column, -1 = nobody.
func (p Position) ClaimedBy(column int) int {
	h := Height(column)
	if h == 0 {
		return -1
	}
	for pl := 0; pl < int(p.players); pl++ {
		if int(p.pieces[pl][column]) == h {
			return pl
		}
	}
	return -1
}

// Claimed lists the columns player owns, in increasing order.
func (p Position) Claimed(player int) []int {
	var cs []int
	for c := MinColumn; c <= MaxColumn; c++ {
		if p.Piece(player, c) == heights[c] {
			cs = append(cs, c)
		}
	}
	return cs
}

// Winner is the player who has won, -1 while the game goes on or after a
// draw. A player wins by owning win_columns columns, or, when all 11
// columns are claimed without that, by owning the most of them.
func (p Position) Winner() int { return int(p.winner) }

// Draw reports a game over without a winner: all 11 columns are claimed,
// nobody owns win_columns, and several players tie for the most.
func (p Position) Draw() bool { return p.draw }

// Over reports whether the game has ended, with a winner or a draw. A game
// over has no legal choices and refuses stops.
func (p Position) Over() bool { return p.winner >= 0 || p.draw }

// result says how the game ended, for messages: "player 1 has won" or
// "the game is a draw".
func (p Position) result() string {
	if p.draw {
		return "the game is a draw"
	}
	return fmt.Sprintf("player %d has won", p.winner)
}

// Count is the number of runners on the board.
func (r Runners) Count() int {
	n := 0
	for c := MinColumn; c <= MaxColumn; c++ {
		if r[c] > 0 {
			n++
		}
	}
	return n
}

// Columns lists the columns holding a runner, in increasing order.
func (r Runners) Columns() []int {
	var cs []int
	for c := MinColumn; c <= MaxColumn; c++ {
		if r[c] > 0 {
			cs = append(cs, c)
		}
	}
	return cs
}

// allColumns has the bit of every column set.
const allColumns = 1<<(MaxColumn+1) - 1<<MinColumn

// derive recomputes what follows from the pieces: claims and the result.
func (p *Position) derive() {
	p.claimed = 0
	for c := MinColumn; c <= MaxColumn; c++ {
		if p.ClaimedBy(c) >= 0 {
			p.claimed |= 1 << c
		}
	}
	p.winner, p.draw = p.findResult()
}

// findResult is the player owning at least WinColumns columns; failing
// that, once every column is claimed (no roll could ever be used again),
// the player owning the most, or a draw when several tie for the most.
func (p *Position) findResult() (winner int8, draw bool) {
	most, tied := 0, false
	winner = -1
	for pl := 0; pl < int(p.players); pl++ {
		n := 0
		for c := MinColumn; c <= MaxColumn; c++ {
			if int(p.pieces[pl][c]) == heights[c] {
				n++
			}
		}
		if n >= p.rules.WinColumns {
			return int8(pl), false
		}
		switch {
		case n > most:
			most, tied, winner = n, false, int8(pl)
		case n == most:
			tied = true
		}
	}
	switch {
	case p.claimed != allColumns:
		return -1, false
	case tied:
		return -1, true
	}
	return winner, false
}

// occupiedByOther reports whether a player other than the mover has a piece
// on space s of column c, and which.
func (p *Position) occupiedByOther(c, s int) (int, bool) {
	for pl := 0; pl < int(p.players); pl++ {
		if pl != int(p.turn) && int(p.pieces[pl][c]) == s {
			return pl, true
		}
	}
	return -1, false
}

// next is the space a runner moves to from space s of column c. Under
// skip_occupied it jumps spaces holding another player's piece. The top space
// of an open column never holds another player's piece (a piece there claims
// the column), so next never passes the top when s is below it.
func (p *Position) next(c, s int) int {
	to := s + 1
	if p.rules.SkipOccupied {
		for to < heights[c] {
			if _, occ := p.occupiedByOther(c, to); !occ {
				break
			}
			to++
		}
	}
	return to
}

// block says why sum c cannot be used with runners r, n of them on the
// board (ReasonNone = usable) and, for a claimed column, its owner.
func (p *Position) block(r *Runners, n, c int) (Reason, int) {
	if p.claimed&(1<<c) != 0 {
		return ReasonClaimed, p.ClaimedBy(c)
	}
	if r[c] == 0 {
		if n >= MaxRunners {
			return ReasonNoRunner, -1
		}
		return ReasonNone, -1
	}
	if r[c] >= heights[c] {
		return ReasonTop, -1
	}
	return ReasonNone, -1
}

// advance places or moves the runner for sum c, if it can be used; n is
// the number of runners in r.
func (p *Position) advance(r *Runners, n, c int) (Step, bool) {
	if why, _ := p.block(r, n, c); why != ReasonNone {
		return Step{}, false
	}
	from, isNew := r[c], r[c] == 0
	if isNew {
		from = int(p.pieces[p.turn][c])
	}
	to := p.next(c, from)
	r[c] = to
	return Step{Column: c, From: from, To: to, New: isNew}, true
}

// Update applies a choice made for this position (one of Legal's for the
// roll) and returns the new position. It checks that the choice's sums can be
// applied here and lead to its runners; whether the roll allowed the choice
// is the caller's to know (Game checks it against the recorded roll).
func (p Position) Update(c Choice) (Position, error) {
	if p.players == 0 {
		return p, errors.New("update: not a position (use NewPosition or ParsePosition)")
	}
	if p.Over() {
		return p, fmt.Errorf("update: the game is over, %s", p.result())
	}
	if len(c.Sums) < 1 || len(c.Sums) > 2 {
		return p, fmt.Errorf("update: a choice uses one or two sums, got %v", c.Sums)
	}
	r := p.runners
	for i, s := range c.Sums {
		if Height(s) == 0 {
			return p, fmt.Errorf("update: sum %d is not a column: columns are 2-12", s)
		}
		if i == 1 && s == c.Sums[0] && r[s] == heights[s] {
			continue // 7+7: the second step past the top is lost
		}
		if _, ok := p.advance(&r, r.Count(), s); !ok {
			why, _ := p.block(&r, r.Count(), s)
			return p, fmt.Errorf("update: sum %d cannot be used here (%s)", s, why)
		}
	}
	if r != c.Runners {
		return p, fmt.Errorf("update: choice %v leads to runners %v here, not %v", c.Sums, r, c.Runners)
	}
	p.runners = r
	return p, nil
}

// Bust ends the turn of a roll that allowed nothing: the runners are removed
// and the turn passes. A finished game is returned unchanged.
func (p Position) Bust() Position {
	if p.players == 0 || p.Over() {
		return p
	}
	p.runners = Runners{}
	p.turn = (p.turn + 1) % p.players
	return p
}
