// Package hw reads the companion's four buttons — Prev, Next, OK and Stop — from GPIO pins
// on a Raspberry Pi, or from a keyboard on a desktop or over SSH. Both give the same Buttons
// interface, so the game loop cannot tell them apart; a Keyboard over a byte stream is also
// the test double.
//
//	b, err := hw.Open(hw.DefaultPins(), hw.DefaultOpts()) // GPIO5/6/13/19; or hw.OpenTerminal(os.Stdin)
//	if err != nil { ... }
//	defer b.Close()
//	ev, err := b.Next(ctx) // hw.Event{Button: hw.OK, Long: false, At: ...}
//
// # Presses
//
// A short press is reported when the button is released. A long press is
// reported as soon as the button has been held for Opts.LongPress (700 ms by
// default), so the player gets feedback without letting go; its release
// then reports nothing. Long OK opens the menu (correct the dice, undo,
// rules, new game). Event.At is when the button went down.
//
// # GPIO
//
// Open looks the pins of a Pins config up by name (DefaultPins: Prev GPIO5,
// Next GPIO6, OK GPIO13, Stop GPIO19; WIRING.md has the table and diagram)
// through periph's host drivers, which use the kernel's GPIO character
// device on the Pi 4 and Pi 5. NewGPIO takes any periph gpio.PinIn, such as
// gpiotest pins. Each button joins its pin to ground; the internal pull-up
// holds it high, so a pressed button reads low. The user must be in group
// gpio.
//
// One goroutine watches each pin. Contact bounce and noise are filtered by
// time, not by trusting edges: after the last edge of a train the line must
// be quiet for Opts.Debounce (20 ms) before its level is read and counted,
// so bounces of a few milliseconds and spikes that return are ignored, and
// two presses need that much quiet between them. Waits for edges are always
// bounded (never WaitForEdge(-1), which on the character device returns at
// once and would spin); if a pin still returns at once, its loop sleeps and
// falls back to polling the level. The level is also re-read at every wait,
// so a missed edge cannot leave a button stuck. A button that is down when
// the program starts is ignored until released.
//
// # Keyboard
//
//	Prev   ← ↑ a h      long: Shift+← A H
//	Next   → ↓ d l      long: Shift+→ D L
//	OK     Enter space  long (menu): m M
//	Stop   s            long: S
//
// Other keys are ignored. Ctrl-C arriving as a byte ends Next with
// ErrInterrupt, Ctrl-D or the end of input with io.EOF. OpenTerminal turns
// line buffering and echo off on a terminal so single keys arrive, and
// Close turns them back on. Keyboard.Help gives the same table for a
// screen.
package hw
