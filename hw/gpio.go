package hw

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"syscall"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// clock is the time source of the pin loops; tests use a fake one.
type clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// GPIO reads the four buttons from GPIO pins, one goroutine per pin.
type GPIO struct {
	events chan Event
	done   chan struct{}
	once   sync.Once
	wg     sync.WaitGroup
}

// NewGPIO configures pins (in Button order: Prev, Next, OK, Stop) as inputs
// with pull-ups and edge detection, and starts watching them. Buttons are
// active low: each connects its pin to ground.
func NewGPIO(pins [4]gpio.PinIn, o Opts) (*GPIO, error) {
	return newGPIO(pins, o, realClock{})
}

func newGPIO(pins [4]gpio.PinIn, o Opts, clk clock) (*GPIO, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	for i, p := range pins {
		if p == nil {
			return nil, fmt.Errorf("hw: no pin for the %v button", Button(i))
		}
		for j := range i {
			if pins[j] == p {
				return nil, fmt.Errorf("hw: %v and %v buttons are both on %s: give each its own pin", Button(j), Button(i), p)
			}
		}
		if err := p.In(gpio.PullUp, gpio.BothEdges); err != nil {
			return nil, fmt.Errorf("hw: set %s (%v button) as input with pull-up and edge detection: %w%s", p, Button(i), err, inHint(err))
		}
	}
	g := &GPIO{events: make(chan Event, 16), done: make(chan struct{})}
	log := o.logger()
	for i, p := range pins {
		held := p.Read() == gpio.Low
		if held {
			log.Warn("button reads pressed at start; ignored until released (held, or pin shorted to ground?)",
				"button", Button(i), "pin", p.String())
		}
		w := &watcher{pin: p, d: newDebouncer(Button(i), o, held), poll: o.Poll, clk: clk, log: log,
			events: g.events, done: g.done}
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			w.run()
		}()
	}
	return g, nil
}

func inHint(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return ": add the user to group gpio (sudo usermod -aG gpio USER, then log in again)"
	case errors.Is(err, syscall.EBUSY):
		return ": the line is held by another program or a device-tree overlay (gpioinfo shows its consumer)"
	}
	return ""
}

// Next returns the next press, in the order presses completed.
func (g *GPIO) Next(ctx context.Context) (Event, error) {
	select {
	case <-g.done:
		return Event{}, ErrClosed
	default:
	}
	select {
	case ev := <-g.events:
		return ev, nil
	case <-ctx.Done():
		return Event{}, ctx.Err()
	case <-g.done:
		return Event{}, ErrClosed
	}
}

// Close stops the pin goroutines and waits for them: at most Opts.Poll.
// Pins stay configured as inputs with pull-ups, which is harmless.
func (g *GPIO) Close() error {
	g.once.Do(func() { close(g.done) })
	g.wg.Wait()
	return nil
}

// watcher is the loop of one pin.
type watcher struct {
	pin    gpio.PinIn
	d      *debouncer
	poll   time.Duration
	clk    clock
	log    *slog.Logger
	events chan<- Event
	done   <-chan struct{}
	warned bool
}

func (w *watcher) run() {
	for {
		select {
		case <-w.done:
			return
		default:
		}
		// Never wait with -1 or 0: on the kernel's GPIO character device -1
		// returns at once and 0 waits forever.
		wait := w.poll
		if dl, ok := w.d.deadline(); ok {
			wait = min(wait, dl.Sub(w.clk.Now()))
		}
		wait = max(wait, time.Millisecond)
		start := w.clk.Now()
		edge := w.pin.WaitForEdge(wait)
		now := w.clk.Now()
		if edge {
			w.d.edge(now)
		} else if early := wait - now.Sub(start); early > wait/2 {
			// The pin did not wait (edge detection not working): sleep out
			// the wait rather than spin, and carry on by polling the level.
			if !w.warned {
				w.warned = true
				w.log.Warn("pin returned from WaitForEdge at once; polling its level instead", "pin", w.pin.String(), "button", w.d.button)
			}
			select {
			case <-w.clk.After(early):
			case <-w.done:
				return
			}
			now = w.clk.Now()
		}
		if ev, ok := w.d.poll(now, w.pin.Read() == gpio.Low); ok {
			select {
			case w.events <- ev:
			case <-w.done:
				return
			}
		}
	}
}
