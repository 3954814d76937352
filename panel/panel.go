// Package panel asks calibration's questions on the device's four buttons and its small
// display, so that a rig is calibrated without a keyboard (`cantstop calibrate --buttons`).
//
// Every question is a status screen answered with OK (done, take it, keep it) or STOP (quit; on
// the learning rolls: enough); a long press quits. The dice's values are confirmed or corrected
// on the screen the players correct dice with in play: ◀▶ change the highlighted die, OK moves
// on, STOP goes back.
package panel

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// Buttons yields button presses (hw.GPIO, hw.Keyboard).
type Buttons interface {
	Next(ctx context.Context) (hw.Event, error)
}

// Renderer shows a screen (display.OLED, display.Terminal).
type Renderer interface {
	Show(s display.Screen) error
}

// Panel is a calibration.Prompter on buttons and a display. What calibration says besides its
// questions (measurements, warnings) goes to a writer: the terminal or log of whoever started it.
type Panel struct {
	b   Buttons
	r   Renderer
	out io.Writer
}

// New returns a Panel; out receives what calibration says (io.Discard for nothing).
func New(b Buttons, r Renderer, out io.Writer) *Panel { return &Panel{b: b, r: r, out: out} }

// Say writes msg to the Panel's writer.
func (p *Panel) Say(msg string) { fmt.Fprintln(p.out, msg) }

// screen is the status screen of a question kind, and what OK and STOP answer on it.
func screen(k calibration.Asking) (s display.Status, ok, stop string, found bool) {
	switch k {
	case calibration.AskEmpty:
		return display.StatusCalEmpty, "", "q", true
	case calibration.AskRoll:
		return display.StatusCalRoll, "", "q", true
	case calibration.AskTray:
		return display.StatusCalTray, "", "q", true
	case calibration.AskKeep:
		return display.StatusCalKeep, "y", "q", true
	case calibration.AskLearn:
		return display.StatusCalLearn, "", "s", true
	}
	return 0, "", "", false
}

// Ask shows the question's screen and waits for its answer.
func (p *Panel) Ask(ctx context.Context, q calibration.Question) (string, error) {
	if q.Kind == calibration.AskValues {
		return p.values(ctx, q)
	}
	st, okAns, stopAns, found := screen(q.Kind)
	if !found {
		return "", fmt.Errorf("panel: question kind %d has no screen", q.Kind)
	}
	detail := q.Why
	if q.Kind == calibration.AskLearn {
		detail = strings.TrimSpace(fmt.Sprintf("%d/%d %s", q.Roll, q.Of, detail))
	}
	if err := p.r.Show(display.Screen{Kind: display.KindStatus, Status: st, Detail: detail}); err != nil {
		return "", fmt.Errorf("panel: %w", err)
	}
	for {
		ev, err := p.b.Next(ctx)
		switch {
		case err != nil:
			return "", fmt.Errorf("wait for a button: %w", err)
		case ev.Long:
			return "q", nil
		case ev.Button == hw.OK:
			return okAns, nil
		case ev.Button == hw.Stop:
			return stopAns, nil
		}
	}
}

// values lets the person confirm the dice read or correct them: it starts on "use these dice"
// when every die was read, else on the first die not read.
func (p *Panel) values(ctx context.Context, q calibration.Question) (string, error) {
	n := len(q.Dice)
	if n != len(engine.Dice{}) {
		return "", fmt.Errorf("panel: %d dice to confirm: the display shows the game's %d (calibrate other counts with the keyboard)", n, len(engine.Dice{}))
	}
	var d engine.Dice
	sel := len(d) // "use these dice"
	for i, v := range q.Dice {
		d[i] = v
		if v < 1 || v > 6 {
			d[i] = 1
			sel = min(sel, i)
		}
	}
	for {
		if err := p.r.Show(display.Screen{Kind: display.KindCorrect, Dice: d, Selected: sel}); err != nil {
			return "", fmt.Errorf("panel: %w", err)
		}
		ev, err := p.b.Next(ctx)
		if err != nil {
			return "", fmt.Errorf("wait for a button: %w", err)
		}
		switch {
		case ev.Long:
			return "q", nil
		case ev.Button == hw.OK && sel == len(d):
			s := make([]string, n)
			for i := range s {
				s[i] = strconv.Itoa(d[i])
			}
			return strings.Join(s, " "), nil
		case ev.Button == hw.OK:
			if sel++; sel >= n {
				sel = len(d)
			}
		case ev.Button == hw.Stop:
			if sel == len(d) {
				sel = n
			}
			sel = max(0, sel-1)
		case sel == len(d):
		case ev.Button == hw.Next:
			d[sel] = d[sel]%6 + 1
		case ev.Button == hw.Prev:
			d[sel] = (d[sel]+4)%6 + 1
		}
	}
}

// Done shows that calibration is saved.
func (p *Panel) Done() error {
	return p.r.Show(display.Screen{Kind: display.KindStatus, Status: display.StatusCalDone})
}
