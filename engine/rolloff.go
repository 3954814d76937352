package engine

import (
	"fmt"
	"slices"
)

// Throw is one player's roll-off throw of two dice.
type Throw struct {
	Player int    `json:"player"`
	Dice   [2]int `json:"dice"`
}

// RollOff decides who starts as the Parker/Face2Face sheets do: each player
// rolls two dice, the highest total starts, and tied players roll again among
// themselves until one is highest. Throws come from the real dice; the
// roll-off only keeps score.
type RollOff struct {
	throws     []Throw
	contenders []int       // players in the current round
	round      map[int]int // player → total thrown this round
	first      int
}

// NewRollOff starts a roll-off among players players.
func NewRollOff(players int) (*RollOff, error) {
	if err := validPlayers(players); err != nil {
		return nil, err
	}
	r := &RollOff{first: -1, round: map[int]int{}}
	for pl := 0; pl < players; pl++ {
		r.contenders = append(r.contenders, pl)
	}
	return r, nil
}

// Next lists the players who still have to throw in this round (nil once
// the first player is decided).
func (r *RollOff) Next() []int {
	if r.first >= 0 {
		return nil
	}
	var out []int
	for _, pl := range r.contenders {
		if _, done := r.round[pl]; !done {
			out = append(out, pl)
		}
	}
	return out
}

// Throw records player's two dice. When the round is complete it either
// decides the first player or starts a new round among the tied.
func (r *RollOff) Throw(player int, d [2]int) error {
	if r.first >= 0 {
		return fmt.Errorf("roll-off: already decided, player %d starts", r.first)
	}
	if !slices.Contains(r.Next(), player) {
		return fmt.Errorf("roll-off: player %d does not throw now (waiting for %v)", player, r.Next())
	}
	for _, v := range d {
		if v < 1 || v > 6 {
			return fmt.Errorf("roll-off: dice must be two values 1-6, got %d %d", d[0], d[1])
		}
	}
	r.throws = append(r.throws, Throw{Player: player, Dice: d})
	r.round[player] = d[0] + d[1]
	if len(r.round) < len(r.contenders) {
		return nil
	}
	best := 0
	for _, t := range r.round {
		best = max(best, t)
	}
	var tied []int
	for _, pl := range r.contenders {
		if r.round[pl] == best {
			tied = append(tied, pl)
		}
	}
	if len(tied) == 1 {
		r.first = tied[0]
	}
	r.contenders, r.round = tied, map[int]int{}
	return nil
}

// First is the player who starts, -1 until decided.
func (r *RollOff) First() int { return r.first }

// Throws lists every throw so far, in order.
func (r *RollOff) Throws() []Throw { return slices.Clone(r.throws) }

// ReplayRollOff plays recorded throws again and checks they decide a player.
func ReplayRollOff(players int, throws []Throw) (*RollOff, error) {
	r, err := NewRollOff(players)
	if err != nil {
		return nil, err
	}
	for i, t := range throws {
		if err := r.Throw(t.Player, t.Dice); err != nil {
			return nil, fmt.Errorf("throw %d: %w", i+1, err)
		}
	}
	if r.first < 0 {
		return nil, fmt.Errorf("roll-off: undecided after %d throws, waiting for %v", len(throws), r.Next())
	}
	return r, nil
}
