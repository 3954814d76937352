package companion

import (
	"context"
	"fmt"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// step runs the phase the game is in until one thing has happened.
func (c *Companion) step(ctx context.Context) error {
	switch {
	case c.t.setup == nil:
		return c.setup(ctx)
	case !c.t.started:
		return c.rollOff(ctx)
	case c.t.pos.Over():
		return c.winner(ctx)
	}
	return c.turn(ctx)
}

// odds fills in the chance of busting on the mover's next roll.
func (c *Companion) odds(s display.Screen) display.Screen {
	o := engine.BustOdds(c.t.pos)
	s.BustRolls, s.Rolls = o.Bust, engine.Rolls
	return s
}

// waiting is the screen between rolls: whose turn it is, or what the last
// choice moved; both carry the odds of busting on the next roll.
func (c *Companion) waiting() display.Screen {
	p := c.t.pos
	s := display.Screen{Kind: display.KindTurn, Player: p.Turn(), RunnersLeft: p.RunnersLeft()}
	if last := c.lastAction(); last != nil && last.Op == OpMove && p.Runners().Count() > 0 {
		s.Kind, s.Steps = display.KindMove, last.Steps
	}
	return c.odds(s)
}

func (c *Companion) lastAction() *Action {
	if n := len(c.t.actions); n > 0 {
		return &c.t.actions[n-1]
	}
	return nil
}

// turn waits for the mover to roll (OK), bank (STOP) or open the menu.
func (c *Companion) turn(ctx context.Context) error {
	s := c.waiting()
	showOdds := false
	for {
		if showOdds {
			c.show(c.odds(display.Screen{Kind: display.KindOdds, Player: s.Player}))
		} else {
			c.show(s)
		}
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		switch {
		case ev.Long:
			d, err := c.menu(ctx, nil)
			if d != nil {
				c.fromCamera = false // entered by hand: no reading to confirm
				return c.decide(ctx, *d)
			}
			return err
		case ev.Button == hw.OK:
			d, err := c.readDice(ctx)
			if err != nil {
				return err
			}
			return c.decide(ctx, d)
		case ev.Button == hw.Stop:
			return c.stop(ctx)
		default:
			showOdds = !showOdds
		}
	}
}

// decide shows what a roll allows, the choices or a bust, until the players
// confirm one (or correct the dice first).
func (c *Companion) decide(ctx context.Context, d engine.Dice) error {
	sel := 0
	for {
		an := engine.Explain(c.t.pos, d)
		p := c.t.pos.Turn()
		if an.Bust() {
			c.show(display.Screen{Kind: display.KindBust, Player: p, Next: (p + 1) % c.t.pos.Players(), Dice: d})
		} else {
			sel = min(sel, len(an.Choices)-1)
			c.show(display.Screen{Kind: display.KindChoices, Player: p, Dice: d, Choices: an.Choices, Selected: sel})
		}
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		switch {
		case ev.Long:
			nd, err := c.menu(ctx, &d)
			if err != nil {
				return err
			}
			if nd == nil { // undo, new game: the pending roll no longer applies
				return errBack
			}
			d = *nd
		case ev.Button == hw.OK && an.Bust():
			c.confirm(d)
			return c.record(Action{Op: OpBust, Dice: d})
		case ev.Button == hw.Stop && an.Bust():
			// A bust is often a misread: the dice are on the screen, and STOP corrects them.
			v, err := c.enterDice(ctx, d[:], 0, 4)
			if err == errBack {
				continue
			}
			if err != nil {
				return err
			}
			c.log.Info("dice corrected", "from", d, "to", v)
			d = engine.Dice{v[0], v[1], v[2], v[3]}
		case ev.Button == hw.Stop:
			// Why not? The pairings and sums this roll cannot use, then back to the choices.
			if err := c.rules(ctx, &d); err != nil {
				return err
			}
		case ev.Button == hw.OK:
			ch := an.Choices[sel]
			r := ch.Runners
			c.confirm(d)
			return c.record(Action{Op: OpMove, Dice: d, Runner: &r, Sums: ch.Sums, Steps: ch.Steps})
		case ev.Button == hw.Next && !an.Bust():
			sel = (sel + 1) % len(an.Choices)
		case ev.Button == hw.Prev && !an.Bust():
			sel = (sel + len(an.Choices) - 1) % len(an.Choices)
		}
	}
}

// stop banks the turn, or explains why it may not.
func (c *Companion) stop(ctx context.Context) error {
	ok, why := c.t.pos.CanStop()
	if !ok {
		c.log.Info("stop refused", "reason", why.Reason.String(), "column", why.Column, "player", why.Player)
		c.show(display.Screen{Kind: display.KindRules, Player: c.t.pos.Turn(), Refusals: []engine.Refusal{why}})
		_, err := c.next(ctx)
		if err != nil {
			return err
		}
		return errBack
	}
	p := c.t.pos.Turn()
	_, res, err := c.t.pos.Stop()
	if err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	if err := c.record(Action{Op: OpStop}); err != nil {
		return err
	}
	st := display.Stop{Pieces: res.Moves, Claimed: res.Claimed}
	for _, r := range res.Removed {
		st.Removed = append(st.Removed, display.Removal{Player: r.Player, Column: r.Column})
	}
	sel := 0
	for {
		c.show(display.Screen{Kind: display.KindStop, Player: p, Stop: st, Selected: sel})
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		switch {
		case ev.Long:
			_, err := c.menu(ctx, nil)
			return err
		case ev.Button == hw.Next:
			sel++
		case ev.Button == hw.Prev:
			sel = max(0, sel-1)
		default:
			return nil
		}
	}
}

// winner shows the winner until OK, then files the game away.
func (c *Companion) winner(ctx context.Context) error {
	p := c.t.pos
	c.show(display.Screen{Kind: display.KindWinner, Player: p.Winner(), Draw: p.Draw(), WinColumns: p.Rules().WinColumns})
	ev, err := c.next(ctx)
	if err != nil {
		return err
	}
	if ev.Long {
		_, err := c.menu(ctx, nil)
		return err
	}
	if ev.Button != hw.OK {
		return errBack
	}
	return c.newGame()
}

// newGame archives the journal and starts a setup with the last game's seats.
func (c *Companion) newGame() error {
	if c.t.setup != nil {
		c.opts.Players, c.opts.Rules = c.t.setup.Players, c.t.setup.Rules
	}
	path, err := c.j.Archive()
	if err != nil {
		return fmt.Errorf("archive game: %w", err)
	}
	c.log.Info("game archived", "path", path)
	c.t = table{}
	return nil
}

// mover is the player to move, or the next roller of the roll-off.
func (c *Companion) mover() int {
	if c.t.started {
		return c.t.pos.Turn()
	}
	return max(0, c.t.roll.roller())
}
