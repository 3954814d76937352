package engine

import (
	"fmt"
	"slices"
)

// ActionKind names a recorded action.
type ActionKind string

// The recorded actions, in the order they happen in a turn.
const (
	ActRoll   ActionKind = "roll"
	ActChoose ActionKind = "choose"
	ActBust   ActionKind = "bust" // follows the roll that busted
	ActStop   ActionKind = "stop"
)

// Action is one step of a game record, by Player.
type Action struct {
	Kind   ActionKind `json:"kind"`
	Player int        `json:"player"`
	Dice   *Dice      `json:"dice,omitempty"`   // roll
	Choice *Choice    `json:"choice,omitempty"` // choose
}

// RecordVersion is the version of the record format written by Record.
const RecordVersion = 1

// Record is a whole game: its setup and every action in order, plus the
// position reached (checked on replay). It is the JSON saved-game format.
type Record struct {
	Version  int       `json:"version"`
	Setup    Setup     `json:"setup"`
	Actions  []Action  `json:"actions"`
	Position *Position `json:"position,omitempty"`
}

// Record returns the game's record.
func (g *Game) Record() Record {
	acts := make([]Action, len(g.actions))
	for i, a := range g.actions {
		acts[i] = a.clone()
	}
	p := g.pos
	return Record{Version: RecordVersion, Setup: g.setup, Actions: acts, Position: &p}
}

func (a Action) clone() Action {
	if a.Dice != nil {
		d := *a.Dice
		a.Dice = &d
	}
	if a.Choice != nil {
		c := *a.Choice
		c.Sums, c.Pairings, c.Steps = slices.Clone(c.Sums), slices.Clone(c.Pairings), slices.Clone(c.Steps)
		a.Choice = &c
	}
	return a
}

// Replay plays a record again. Every action must be legal where it stands,
// and the position reached must be the recorded one when there is one.
func Replay(r Record) (*Game, error) {
	if r.Version != RecordVersion {
		return nil, fmt.Errorf("replay: record version %d, this engine reads version %d", r.Version, RecordVersion)
	}
	g, err := NewGame(r.Setup)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	for i := 0; i < len(r.Actions); i++ {
		a := r.Actions[i]
		if a.Player != g.pos.Turn() {
			return nil, fmt.Errorf("replay: action %d (%s) is player %d's, but player %d is to move", i+1, a.Kind, a.Player, g.pos.Turn())
		}
		switch a.Kind {
		case ActRoll:
			if a.Dice == nil {
				return nil, fmt.Errorf("replay: action %d: roll without dice", i+1)
			}
			an, err := g.Roll(*a.Dice)
			if err != nil {
				return nil, fmt.Errorf("replay: action %d: %w", i+1, err)
			}
			busted := i+1 < len(r.Actions) && r.Actions[i+1].Kind == ActBust
			if an.Bust() != busted {
				return nil, fmt.Errorf("replay: action %d: roll %v busts=%v, but the record says %v", i+1, *a.Dice, an.Bust(), busted)
			}
			if busted {
				i++
			}
		case ActChoose:
			if a.Choice == nil {
				return nil, fmt.Errorf("replay: action %d: choose without a choice", i+1)
			}
			if err := g.Choose(*a.Choice); err != nil {
				return nil, fmt.Errorf("replay: action %d: %w", i+1, err)
			}
		case ActStop:
			if _, err := g.Stop(); err != nil {
				return nil, fmt.Errorf("replay: action %d: %w", i+1, err)
			}
		case ActBust:
			return nil, fmt.Errorf("replay: action %d: bust without the roll that caused it", i+1)
		default:
			return nil, fmt.Errorf("replay: action %d: unknown kind %q (roll, choose, bust, stop)", i+1, a.Kind)
		}
	}
	if r.Position != nil && *r.Position != g.pos {
		return nil, fmt.Errorf("replay: the actions lead to %s, the record says %s", g.pos, r.Position)
	}
	return g, nil
}
