package hw

import (
	"fmt"
	"io"
	"log/slog"
	"time"
)

// Opts tunes how GPIO turns pin levels into presses.
type Opts struct {
	// Debounce is how long a pin must keep one level, after its last edge,
	// before that level counts. Contact bounce on tactile switches lasts
	// 1–10 ms, and noise spikes shorter than this are ignored.
	Debounce time.Duration
	// LongPress is how long a button must be held to be a long press. The
	// long press is reported when the threshold passes, while still held.
	LongPress time.Duration
	// Poll is the longest single wait for an edge. It bounds how long Close
	// takes and how often the level is re-read in case an edge was missed.
	Poll time.Duration
	// Log receives warnings (a button held at start, a pin that does not
	// wait for edges). Nil discards them.
	Log *slog.Logger
}

// DefaultOpts returns the settings used by the device: 20 ms debounce,
// 700 ms long press, 100 ms poll.
func DefaultOpts() Opts {
	return Opts{Debounce: 20 * time.Millisecond, LongPress: 700 * time.Millisecond, Poll: 100 * time.Millisecond}
}

// Validate reports the first setting that cannot work.
func (o Opts) Validate() error {
	d := DefaultOpts()
	switch {
	case o.Debounce <= 0:
		return fmt.Errorf("hw: debounce must be positive, got %v (default %v)", o.Debounce, d.Debounce)
	case o.LongPress <= o.Debounce:
		return fmt.Errorf("hw: long press (%v) must be longer than debounce (%v); default %v", o.LongPress, o.Debounce, d.LongPress)
	case o.Poll <= 0:
		return fmt.Errorf("hw: poll must be positive, got %v (default %v)", o.Poll, d.Poll)
	}
	return nil
}

func (o Opts) logger() *slog.Logger {
	if o.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o.Log
}

// Pins names the GPIO line of each button, as periph's gpioreg knows it
// (BCM numbering: "GPIO5"). Each button connects its pin to a ground pin;
// the internal pull-up holds the pin high until the button is pressed.
type Pins struct {
	Prev, Next, OK, Stop string
}

// DefaultPins returns the wiring in WIRING.md:
//
//	Prev GPIO5  (physical pin 29), ground on pin 30
//	Next GPIO6  (physical pin 31), ground on pin 30
//	OK   GPIO13 (physical pin 33), ground on pin 34
//	Stop GPIO19 (physical pin 35), ground on pin 39
func DefaultPins() Pins {
	return Pins{Prev: "GPIO5", Next: "GPIO6", OK: "GPIO13", Stop: "GPIO19"}
}

// Names returns the pin names in Button order.
func (p Pins) Names() [4]string {
	return [4]string{p.Prev, p.Next, p.OK, p.Stop}
}

// Validate checks that every button has its own pin.
func (p Pins) Validate() error {
	names := p.Names()
	for i, n := range names {
		if n == "" {
			return fmt.Errorf("hw: no pin set for the %v button (default %s)", Button(i), DefaultPins().Names()[i])
		}
		for j := range i {
			if names[j] == n {
				return fmt.Errorf("hw: %v and %v buttons are both on %s: give each its own pin", Button(j), Button(i), n)
			}
		}
	}
	return nil
}
