package companion

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
)

// Op names an action in the journal.
type Op string

const (
	OpSetup   Op = "setup"   // the game's seats, rules and language
	OpRollOff Op = "rolloff" // one player's two dice in the roll-off for the first player
	OpFirst   Op = "first"   // the first player named directly
	OpMove    Op = "move"    // a roll and the choice confirmed for it
	OpBust    Op = "bust"    // a roll that allowed nothing
	OpStop    Op = "stop"    // the mover banked
	OpUndo    Op = "undo"    // the last action not yet undone is taken back
)

// Action is one journal line: everything needed to replay the game exactly.
type Action struct {
	Op     Op              `json:"op"`
	At     time.Time       `json:"at"`
	Setup  *GameSetup      `json:"setup,omitempty"`
	Player int             `json:"player,omitempty"`  // rolloff, first
	Pair   [2]int          `json:"pair,omitempty"`    // rolloff
	Dice   engine.Dice     `json:"dice,omitempty"`    // move, bust
	Runner *engine.Runners `json:"runners,omitempty"` // move: the runners the choice leads to (identifies it)
	Sums   []int           `json:"sums,omitempty"`    // move: for people reading the file
	Steps  []engine.Step   `json:"steps,omitempty"`   // move: what was moved on the board
}

// GameSetup is what the setup screen decides.
type GameSetup struct {
	Players []display.Player `json:"players"`
	Rules   engine.Rules     `json:"rules"`
	Lang    display.Lang     `json:"lang"`
}

// table is the game as the journal describes it: the setup, the roll-off and
// the engine position after every action not undone.
type table struct {
	actions []Action // effective actions (undone ones removed)
	setup   *GameSetup
	roll    rollOff
	pos     engine.Position
	started bool // first player known, pos valid
}

// apply performs one action; on error the table is unchanged.
func (t *table) apply(a Action) error {
	if a.Op == OpUndo {
		if len(t.actions) == 0 {
			return fmt.Errorf("nothing to undo")
		}
		return t.rebuild(t.actions[:len(t.actions)-1])
	}
	n := *t // do replaces the roll-off and position, never changes what t shares
	if err := n.do(a); err != nil {
		return fmt.Errorf("%s: %w", a.Op, err)
	}
	n.actions = append(slices.Clip(t.actions), a)
	*t = n
	return nil
}

func (t *table) do(a Action) error {
	if a.Op != OpSetup && t.setup == nil {
		return fmt.Errorf("no game set up")
	}
	switch a.Op {
	case OpSetup:
		if t.setup != nil || a.Setup == nil {
			return fmt.Errorf("setup twice or empty")
		}
		if err := a.Setup.Rules.Validate(); err != nil {
			return err
		}
		if n := len(a.Setup.Players); n < engine.MinPlayers || n > engine.MaxPlayers {
			return fmt.Errorf("%d players: a game has 2 to 4", n)
		}
		r, err := newRollOff(len(a.Setup.Players))
		if err != nil {
			return err
		}
		t.setup, t.roll = a.Setup, r
		return nil
	case OpRollOff, OpFirst:
		if t.started {
			return fmt.Errorf("the first player is already known")
		}
		if a.Op == OpFirst {
			if a.Player < 0 || a.Player >= len(t.setup.Players) {
				return fmt.Errorf("no player %d", a.Player+1)
			}
			t.roll.first = a.Player
		} else if err := t.roll.add(a.Player, a.Pair); err != nil {
			return err
		}
		if t.roll.first >= 0 {
			p, err := engine.NewPosition(len(t.setup.Players), t.setup.Rules, t.roll.first)
			if err != nil {
				return err
			}
			t.pos, t.started = p, true
		}
		return nil
	}
	if !t.started {
		return fmt.Errorf("the first player is not known yet")
	}
	if t.pos.Over() {
		return fmt.Errorf("the game is over")
	}
	if a.Op == OpMove || a.Op == OpBust {
		if err := a.Dice.Validate(); err != nil {
			return err
		}
	}
	switch a.Op {
	case OpMove:
		if a.Runner == nil {
			return fmt.Errorf("move without its outcome")
		}
		for _, c := range engine.Legal(t.pos, a.Dice) {
			if c.Runners == *a.Runner {
				p, err := t.pos.Update(c)
				if err != nil {
					return err
				}
				t.pos = p
				return nil
			}
		}
		return fmt.Errorf("dice %v do not allow runners in %v here", a.Dice, a.Runner.Columns())
	case OpBust:
		if len(engine.Legal(t.pos, a.Dice)) > 0 {
			return fmt.Errorf("dice %v are not a bust here", a.Dice)
		}
		t.pos = t.pos.Bust()
		return nil
	case OpStop:
		p, _, err := t.pos.Stop()
		if err != nil {
			return err
		}
		t.pos = p
		return nil
	}
	return fmt.Errorf("unknown action %q", a.Op)
}

// rebuild replays actions from an empty table.
func (t *table) rebuild(actions []Action) error {
	var n table
	for i, a := range actions {
		if err := n.apply(a); err != nil {
			return fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	*t = n
	return nil
}

// load replays journal payloads: every line, undos included, in order.
func load(payloads [][]byte) (table, error) {
	var t table
	for i, p := range payloads {
		var a Action
		if err := json.Unmarshal(p, &a); err != nil {
			return t, fmt.Errorf("journal line %d: %w", i+1, err)
		}
		if err := t.apply(a); err != nil {
			return t, fmt.Errorf("journal line %d: %w", i+1, err)
		}
	}
	return t, nil
}
