package hw

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Button is one of the four buttons of the device.
type Button int

// The four buttons, in the order NewGPIO takes their pins.
const (
	Prev Button = iota // move the highlight back
	Next               // move the highlight on
	OK                 // read the dice, then confirm the highlighted choice; long: menu
	Stop               // bank the turn
)

func (b Button) String() string {
	switch b {
	case Prev:
		return "Prev"
	case Next:
		return "Next"
	case OK:
		return "OK"
	case Stop:
		return "Stop"
	}
	return fmt.Sprintf("Button(%d)", int(b))
}

// Event is one press of a button.
type Event struct {
	Button Button
	Long   bool      // held at least Opts.LongPress
	At     time.Time // when the button went down
}

func (e Event) String() string {
	if e.Long {
		return "long " + e.Button.String()
	}
	return e.Button.String()
}

// Buttons yields button presses. Both GPIO and Keyboard implement it.
type Buttons interface {
	// Next blocks until the next press: a short press is reported when the
	// button is released, a long press as soon as it has been held for the
	// long-press threshold (its release then reports nothing).
	Next(ctx context.Context) (Event, error)
	Close() error
}

// ErrClosed is returned by Next after Close.
var ErrClosed = errors.New("hw: buttons closed")
