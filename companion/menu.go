package companion

import (
	"context"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// menuItems are the long-press menu's entries, in order: "Calibrate camera" when there is a
// Calibrator.
func (c *Companion) menuItems() []display.MenuItem {
	items := []display.MenuItem{display.MenuCorrect, display.MenuUndo, display.MenuRules,
		display.MenuOdds, display.MenuNewGame}
	if c.deps.Calibrate != nil {
		items = append(items, display.MenuCalibrate)
	}
	return append(items, display.MenuBack)
}

// menu runs the long-press menu. dice is the roll awaiting a choice, if any.
// It returns dice to use instead (corrected or entered by hand), or nil when
// the caller should go back to the game as it now stands.
func (c *Companion) menu(ctx context.Context, dice *engine.Dice) (*engine.Dice, error) {
	sel := 0
	menuItems := c.menuItems()
	for {
		c.show(display.Screen{Kind: display.KindMenu, Menu: menuItems, Selected: sel})
		ev, err := c.next(ctx)
		if err != nil {
			return nil, err
		}
		switch {
		case ev.Long || ev.Button == hw.Stop:
			return dice, nil
		case ev.Button == hw.Next:
			sel = (sel + 1) % len(menuItems)
		case ev.Button == hw.Prev:
			sel = (sel + len(menuItems) - 1) % len(menuItems)
		case ev.Button == hw.OK:
			switch menuItems[sel] {
			case display.MenuBack:
				return dice, nil
			case display.MenuCorrect:
				if !c.t.started {
					c.status(ctx, display.StatusError, "no roll to correct yet")
					continue
				}
				var start []int
				if dice != nil {
					start = dice[:]
				}
				v, err := c.enterDice(ctx, start, 0, 4)
				if err == errBack {
					continue
				}
				if err != nil {
					return nil, err
				}
				d := engine.Dice{v[0], v[1], v[2], v[3]}
				c.log.Info("dice corrected", "from", dice, "to", d)
				return &d, nil
			case display.MenuUndo:
				if len(c.t.actions) <= 1 { // the setup is undone by a new game
					c.status(ctx, display.StatusError, "nothing to undo")
					continue
				}
				undone := c.lastAction().Op
				if err := c.record(Action{Op: OpUndo}); err != nil {
					return nil, err
				}
				c.log.Info("undone", "op", undone)
				return nil, nil
			case display.MenuRules: // then back to the game, not the menu
				return dice, c.rules(ctx, dice)
			case display.MenuOdds:
				if c.t.started {
					c.show(c.odds(display.Screen{Kind: display.KindOdds, Player: c.t.pos.Turn()}))
					if _, err := c.next(ctx); err != nil {
						return nil, err
					}
				}
			case display.MenuNewGame:
				if c.t.setup != nil && len(c.t.actions) > 1 { // a game in progress: ask first
					c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusNewGame})
					ev, err := c.next(ctx)
					if err != nil {
						return nil, err
					}
					if ev.Long || ev.Button != hw.OK {
						continue
					}
				}
				return nil, c.newGame()
			case display.MenuCalibrate:
				c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusCalibrate})
				ev, err := c.next(ctx)
				if err != nil {
					return nil, err
				}
				if ev.Long || ev.Button != hw.OK {
					continue
				}
				return dice, c.calibrate(ctx)
			}
		}
	}
}

// rules explains every unusable pairing and sum of the pending roll (or the
// last roll played), one per screen: Prev/Next scroll, any other press returns.
func (c *Companion) rules(ctx context.Context, dice *engine.Dice) error {
	var refs []engine.Refusal
	switch last := c.lastAction(); {
	case !c.t.started:
	case dice != nil:
		refs = engine.Explain(c.t.pos, *dice).Refusals
	case last.Op == OpMove || last.Op == OpBust:
		// The roll just played, in the position it was played in.
		var before table
		if err := before.rebuild(c.t.actions[:len(c.t.actions)-1]); err == nil {
			refs = engine.Explain(before.pos, last.Dice).Refusals
		}
	}
	if ok, why := c.t.pos.CanStop(); c.t.started && !ok && why.Reason == engine.ReasonStopOnOccupied {
		refs = append(refs, why)
	}
	sel := 0
	for {
		c.show(display.Screen{Kind: display.KindRules, Player: c.mover(), Refusals: refs, Selected: sel})
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		switch {
		case ev.Long:
			return nil
		case ev.Button == hw.Next && sel+1 < len(refs):
			sel++
		case ev.Button == hw.Prev && sel > 0:
			sel--
		case ev.Button == hw.OK || ev.Button == hw.Stop:
			return nil
		}
	}
}

// calibrate runs the Calibrator and reads the dice with the reader it sets up. A calibration
// that fails or that the players quit is shown, and the game goes on with the reader it had;
// only the buttons failing, or ctx ending, ends the loop.
func (c *Companion) calibrate(ctx context.Context) error {
	c.log.Info("calibrating the camera from the menu")
	b := &loopButtons{c: c}
	dr, err := c.deps.Calibrate(ctx, b)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case b.err != nil:
		return b.err
	case err != nil:
		c.log.Warn("calibration from the menu not done: the dice are read as before", "err", err)
		c.status(ctx, display.StatusError, "calibration not done: "+err.Error())
		return ctx.Err()
	}
	c.deps.Dice = noTypedNil(dr)
	c.camFails = 0
	c.log.Info("calibrated from the menu: the dice reader uses the new calibration", "camera", c.deps.Dice != nil)
	c.status(ctx, display.StatusCalDone, "")
	return ctx.Err()
}

// loopButtons are the companion's buttons lent to a Calibrator: presses come through the
// loop, which answers the watchdog's pings meanwhile; a buttons failure is kept for the loop.
type loopButtons struct {
	c   *Companion
	err error
}

func (b *loopButtons) Next(ctx context.Context) (hw.Event, error) {
	ev, err := b.c.next(ctx)
	if err != nil && ctx.Err() == nil {
		b.err = err
	}
	return ev, err
}

// status shows a status screen until any press.
func (c *Companion) status(ctx context.Context, st display.Status, detail string) {
	c.show(display.Screen{Kind: display.KindStatus, Status: st, Detail: detail})
	c.next(ctx)
}
