package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Setup is how a game starts. Names may be empty (or one per player). The
// first player is named directly, or decided by RollOff throws, which must
// then decide First.
type Setup struct {
	Players int      `json:"players"`
	Names   []string `json:"names,omitempty"`
	Rules   Rules    `json:"rules"`
	First   int      `json:"first"`
	RollOff []Throw  `json:"roll_off,omitempty"`
}

// Game is a position plus the record of how it was reached. Every action is
// recorded; Undo takes back the last one exactly and Replay rebuilds a game
// from its record. Once the game is over (Position.Over) Roll, Choose and
// Stop refuse with a *RefusedError (ReasonGameOver); Undo still works. A
// Game is not safe for concurrent use.
type Game struct {
	setup   Setup
	pos     Position
	rolled  bool     // a roll awaits a choice
	roll    Dice     // that roll
	legal   []Choice // its legal choices
	actions []Action
	undo    []snapshot // state before each undoable step
}

type snapshot struct {
	pos      Position
	rolled   bool
	roll     Dice
	legal    []Choice
	nActions int
}

// ErrNothingToUndo is returned by Undo at the start of a game.
var ErrNothingToUndo = errors.New("undo: nothing to undo")

// NewGame starts a game.
func NewGame(s Setup) (*Game, error) {
	if len(s.Names) != 0 && len(s.Names) != s.Players {
		return nil, fmt.Errorf("setup: %d names for %d players: give one name per player or none", len(s.Names), s.Players)
	}
	if len(s.RollOff) > 0 {
		r, err := ReplayRollOff(s.Players, s.RollOff)
		if err != nil {
			return nil, fmt.Errorf("setup: %w", err)
		}
		if r.First() != s.First {
			return nil, fmt.Errorf("setup: the roll-off decides player %d starts, not player %d", r.First(), s.First)
		}
	}
	p, err := NewPosition(s.Players, s.Rules, s.First)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	s.Names, s.RollOff = slices.Clone(s.Names), slices.Clone(s.RollOff)
	return &Game{setup: s, pos: p}, nil
}

// Setup returns how the game started.
func (g *Game) Setup() Setup { return g.setup }

// Position is the current position.
func (g *Game) Position() Position { return g.pos }

// Pending returns the roll awaiting a choice and its legal choices.
func (g *Game) Pending() (Dice, []Choice, bool) {
	if !g.rolled {
		return Dice{}, nil, false
	}
	return g.roll, cloneChoices(g.legal), true
}

func cloneChoices(cs []Choice) []Choice {
	out := make([]Choice, len(cs))
	for i, c := range cs {
		c.Sums, c.Pairings, c.Steps = slices.Clone(c.Sums), slices.Clone(c.Pairings), slices.Clone(c.Steps)
		out[i] = c
	}
	return out
}

func (g *Game) save() {
	g.undo = append(g.undo, snapshot{pos: g.pos, rolled: g.rolled, roll: g.roll, legal: g.legal, nActions: len(g.actions)})
}

// Roll records a roll and returns what it allows. When it allows nothing
// the bust is recorded too and the turn passes; undoing takes back both.
func (g *Game) Roll(d Dice) (Analysis, error) {
	if err := d.Validate(); err != nil {
		return Analysis{}, fmt.Errorf("roll: %w", err)
	}
	if g.pos.Over() {
		return Analysis{}, g.over()
	}
	if g.rolled {
		return Analysis{}, fmt.Errorf("roll: choose one of the %d choices for roll %v first", len(g.legal), g.roll)
	}
	a := Explain(g.pos, d)
	g.save()
	player := g.pos.Turn()
	g.actions = append(g.actions, Action{Kind: ActRoll, Player: player, Dice: &d})
	if a.Bust() {
		g.pos = g.pos.Bust()
		g.actions = append(g.actions, Action{Kind: ActBust, Player: player})
		return a, nil
	}
	// The game keeps its own copy: the caller may change what it got.
	g.rolled, g.roll, g.legal = true, d, cloneChoices(a.Choices)
	return a, nil
}

// Choose applies one of the pending roll's legal choices, found by its
// runners (the outcome is what identifies a choice).
func (g *Game) Choose(c Choice) error {
	if g.pos.Over() {
		return g.over()
	}
	if !g.rolled {
		return errors.New("choose: no roll is waiting for a choice: roll first")
	}
	i := slices.IndexFunc(g.legal, func(l Choice) bool { return l.Runners == c.Runners })
	if i < 0 {
		return fmt.Errorf("choose: runners %v are not a legal outcome of roll %v", c.Runners, g.roll)
	}
	next, err := g.pos.Update(g.legal[i])
	if err != nil {
		return fmt.Errorf("choose: %w", err)
	}
	g.save()
	chosen := g.legal[i]
	g.actions = append(g.actions, Action{Kind: ActChoose, Player: g.pos.Turn(), Choice: &chosen})
	g.pos, g.rolled, g.roll, g.legal = next, false, Dice{}, nil
	return nil
}

// Stop banks the turn (see Position.Stop). A refused stop is a *RefusedError.
func (g *Game) Stop() (StopResult, error) {
	if g.pos.Over() {
		return StopResult{Winner: g.pos.Winner(), Draw: g.pos.Draw()}, g.over()
	}
	if g.rolled {
		return StopResult{Winner: -1}, fmt.Errorf("stop: choose one of the %d choices for roll %v first", len(g.legal), g.roll)
	}
	player := g.pos.Turn()
	next, res, err := g.pos.Stop()
	if err != nil {
		return res, err
	}
	g.save()
	g.actions = append(g.actions, Action{Kind: ActStop, Player: player})
	g.pos = next
	return res, nil
}

// over is the refusal of any action once the game is over.
func (g *Game) over() error {
	return &RefusedError{Refusal{Reason: ReasonGameOver, Player: g.pos.Winner()}}
}

// Undo takes back the last roll (with its bust), choice or stop, restoring
// the state before it exactly.
func (g *Game) Undo() error {
	if len(g.undo) == 0 {
		return ErrNothingToUndo
	}
	s := g.undo[len(g.undo)-1]
	g.undo = g.undo[:len(g.undo)-1]
	g.pos, g.rolled, g.roll, g.legal = s.pos, s.rolled, s.roll, s.legal
	g.actions = g.actions[:s.nActions]
	return nil
}
