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
	case c.t.pos.Winner() >= 0:
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
			return c.record(Action{Op: OpBust, Dice: d})
		case ev.Button == hw.OK:
			ch := an.Choices[sel]
			r := ch.Runners
			return c.record(Action{Op: OpMove, Dice: d, Runner: &r, Sums: ch.Sums, Steps: ch.Steps})
		case ev.Button == hw.Next && !an.Bust():
			sel = (sel + 1) % len(an.Choices)
		case ev.Button == hw.Prev && !an.Bust():
			sel = (sel + len(an.Choices) - 1) % len(an.Choices)
		case ev.Button == hw.Stop && !an.Bust():
			// Banking needs a choice first: the roll must be used. Say why.
			c.show(display.Screen{Kind: display.KindRules, Player: p, Refusals: an.Refusals})
			if _, err := c.next(ctx); err != nil {
				return err
			}
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
	w := c.t.pos.Winner()
	c.show(display.Screen{Kind: display.KindWinner, Player: w})
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

// readDice reads a settled roll of four dice, or has the players enter it.
func (c *Companion) readDice(ctx context.Context) (engine.Dice, error) {
	v, err := c.readValues(ctx, 4)
	if err != nil {
		return engine.Dice{}, err
	}
	return engine.Dice{v[0], v[1], v[2], v[3]}, nil
}

// readValues reads want dice with the camera; without one (or when it
// fails) the players enter them with the buttons. A bad reading is shown and
// OK reads again, a long press corrects it by hand.
func (c *Companion) readValues(ctx context.Context, want int) ([]int, error) {
	for {
		if c.deps.Dice == nil {
			return c.enterDice(ctx, nil, want)
		}
		c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusReading})
		rctx, cancel := context.WithTimeout(ctx, c.opts.ReadTimeout)
		res, err := c.deps.Dice.ReadDice(rctx, want)
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			c.camFails++
			c.log.Warn("dice reader failed: enter the dice with the buttons", "err", err, "failures", c.camFails)
			if c.camFails == 1 {
				c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusCameraMissing, Detail: err.Error()})
				if _, err := c.next(ctx); err != nil {
					return nil, err
				}
			}
			return c.enterDice(ctx, nil, want)
		}
		c.camFails = 0
		if res.Status == Read && len(res.Values) == want {
			c.log.Info("dice read", "values", res.Values)
			return res.Values, nil
		}
		c.log.Warn("dice not read", "status", res.Status.String(), "why", res.Why, "values", res.Values)
		s := display.Screen{Kind: display.KindStatus, Detail: res.Why}
		switch res.Status {
		case NotSettled:
			s.Status = display.StatusNotSettled
		case WrongCount, Read:
			s.Status = display.StatusWrongCount
		default:
			s = display.Screen{Kind: display.KindDice, DiceRead: false}
			copy(s.Dice[:], res.Values)
		}
		c.show(s)
		ev, err := c.next(ctx)
		if err != nil {
			return nil, err
		}
		switch {
		case ev.Long:
			return c.enterDice(ctx, res.Values, want)
		case ev.Button != hw.OK:
			return nil, errBack
		}
	}
}

// enterDice lets the players set want dice with the buttons: Prev/Next change
// the highlighted die, OK moves on (and confirms after the last), STOP goes
// back a die, a long press cancels.
func (c *Companion) enterDice(ctx context.Context, start []int, want int) ([]int, error) {
	var d engine.Dice
	for i := 0; i < want; i++ {
		d[i] = 1
		if i < len(start) && start[i] >= 1 && start[i] <= 6 {
			d[i] = start[i]
		}
	}
	sel := 0
	for {
		c.show(display.Screen{Kind: display.KindCorrect, Player: c.mover(), Dice: d, Selected: sel})
		ev, err := c.next(ctx)
		if err != nil {
			return nil, err
		}
		switch {
		case ev.Long:
			return nil, errBack
		case ev.Button == hw.OK && sel == 4:
			c.log.Info("dice entered by hand", "values", d[:want])
			return append([]int(nil), d[:want]...), nil
		case ev.Button == hw.OK:
			if sel++; sel >= want {
				sel = 4
			}
		case ev.Button == hw.Stop:
			if sel == 4 {
				sel = want
			}
			if sel--; sel < 0 {
				return nil, errBack
			}
		case sel == 4:
		case ev.Button == hw.Next:
			d[sel] = d[sel]%6 + 1
		case ev.Button == hw.Prev:
			d[sel] = (d[sel]+4)%6 + 1
		}
	}
}

// mover is the player to move, or the next roller of the roll-off.
func (c *Companion) mover() int {
	if c.t.started {
		return c.t.pos.Turn()
	}
	return max(0, c.t.roll.roller())
}
