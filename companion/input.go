package companion

import (
	"context"
	"fmt"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// pump turns blocking button reads into events the loop can select on.
func (c *Companion) pump(ctx context.Context) {
	for {
		ev, err := c.deps.Buttons.Next(ctx)
		select {
		case c.evs <- buttonEvent{ev, err}:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// next waits for a button press, answering pings meanwhile.
func (c *Companion) next(ctx context.Context) (hw.Event, error) {
	for {
		select {
		case r := <-c.pings:
			close(r)
		case b := <-c.evs:
			if b.err != nil {
				return hw.Event{}, fmt.Errorf("buttons: %w", b.err)
			}
			c.log.Debug("press", "button", b.ev.String())
			return b.ev, nil
		case <-ctx.Done():
			return hw.Event{}, ctx.Err()
		}
	}
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
	c.fromCamera = false
	for {
		if c.deps.Dice == nil {
			return c.enterDice(ctx, nil, 0, want)
		}
		c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusReading})
		res, err := c.read(ctx, want)
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
			return c.enterDice(ctx, nil, 0, want)
		}
		c.camFails = 0
		c.fromCamera = true
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
			return c.enterDice(ctx, res.Guess, res.Unsure, want)
		case ev.Button != hw.OK:
			return nil, errBack
		}
	}
}

// read runs one reading, answering pings meanwhile (settling can take a
// while) but only until the reading is overdue: a reader that ignores its
// deadline stops the pings, and with them the watchdog.
func (c *Companion) read(ctx context.Context, want int) (DiceResult, error) {
	rctx, cancel := context.WithTimeout(ctx, c.opts.ReadTimeout)
	defer cancel()
	type out struct {
		res DiceResult
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := c.deps.Dice.ReadDice(rctx, want)
		done <- out{res, err}
	}()
	overdue := time.NewTimer(c.opts.ReadTimeout + 2*time.Second)
	defer overdue.Stop()
	pings := c.pings
	for {
		select {
		case o := <-done:
			return o.res, o.err
		case r := <-pings:
			close(r)
		case <-overdue.C:
			c.log.Error("dice reader ignores its deadline: no more watchdog pings", "timeout", c.opts.ReadTimeout)
			pings = nil
		case <-ctx.Done():
			return DiceResult{}, ctx.Err()
		}
	}
}

// confirm tells a learning dice reader the values the players played, if they came from its
// last reading.
func (c *Companion) confirm(d engine.Dice) {
	l, ok := c.deps.Dice.(Learner)
	if !ok || !c.fromCamera {
		return
	}
	c.fromCamera = false
	l.Confirm(d[:])
}

// enterDice lets the players set want dice with the buttons, starting from
// start (dice past it at 1), whose last unsure values are the reader's guesses:
// those are marked until changed, and the first is highlighted first.
// Prev/Next change the highlighted die, OK moves on (and confirms after the
// last), STOP goes back a die, a long press cancels.
func (c *Companion) enterDice(ctx context.Context, start []int, unsure, want int) ([]int, error) {
	var d engine.Dice
	var marked [4]bool
	for i := 0; i < want; i++ {
		d[i] = 1
		if i < len(start) && start[i] >= 1 && start[i] <= 6 {
			d[i] = start[i]
			marked[i] = i >= len(start)-unsure
		}
	}
	sel := 0
	if first := len(start) - unsure; unsure > 0 && first < want {
		sel = first
	}
	for {
		c.show(display.Screen{Kind: display.KindCorrect, Player: c.mover(), Dice: d, Unsure: marked, Selected: sel})
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
			d[sel], marked[sel] = d[sel]%6+1, false
		case ev.Button == hw.Prev:
			d[sel], marked[sel] = (d[sel]+4)%6+1, false
		}
	}
}
