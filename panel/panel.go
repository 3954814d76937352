// Package panel asks calibration's questions on the device's four buttons and its small
// display, so that a rig is calibrated without a keyboard (`cantstop calibrate --buttons`).
//
// Every question is a status screen answered with OK (done, take it, keep it) or STOP (quit; on
// the learning rolls: enough); a long press quits. The dice's values are confirmed or corrected
// on the screen the players correct dice with in play: ◀▶ change the highlighted die, OK moves
// on, STOP goes back. The tray found is shown on the camera's picture: OK takes it, ◀▶ start
// moving its edges one by one (◀▶ move the edge, OK moves on to the next, STOP goes back).
package panel

import (
	"context"
	"fmt"
	"image"
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
	if q.Kind == calibration.AskTray && !q.Box.Empty() && q.Box.In(image.Rectangle{Max: q.Frame}) {
		return p.tray(ctx, q)
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
// when every die was read, else on the first die not read, the dice not read at the values the
// reader leaned to, marked "?".
func (p *Panel) values(ctx context.Context, q calibration.Question) (string, error) {
	n := len(q.Dice)
	if n != len(engine.Dice{}) {
		return "", fmt.Errorf("panel: %d dice to confirm: the display shows the game's %d (calibrate other counts with the keyboard)", n, len(engine.Dice{}))
	}
	var d engine.Dice
	var unsure [4]bool // dice set to the reader's guess, until changed
	sel := len(d)      // "use these dice"
	for i, v := range q.Dice {
		d[i] = v
		if v < 1 || v > 6 {
			d[i] = 1
			if i < len(q.Lean) && q.Lean[i] >= 1 && q.Lean[i] <= 6 {
				d[i], unsure[i] = q.Lean[i], true
			}
			sel = min(sel, i)
		}
	}
	for {
		if err := p.r.Show(display.Screen{Kind: display.KindCorrect, Dice: d, Unsure: unsure, Selected: sel}); err != nil {
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
			d[sel], unsure[sel] = d[sel]%6+1, false
		case ev.Button == hw.Prev:
			d[sel], unsure[sel] = (d[sel]+4)%6+1, false
		}
	}
}

// tray shows the tray found on the camera's picture and lets the person move its edges. It
// answers "" for the box found, or the box moved as "x0,y0,x1,y1" (calibration.AskTray).
func (p *Panel) tray(ctx context.Context, q calibration.Question) (string, error) {
	tb := display.TrayBox{Picture: q.Picture, Frame: q.Frame, Box: q.Box.Canon(), Found: true}
	step := max(1, max(q.Frame.X, q.Frame.Y)/trayStep)
	least := max(1, min(q.Frame.X, q.Frame.Y)/8) // the smallest tray side an edge may leave
	sel := display.EdgeNone
	for {
		if err := p.r.Show(display.Screen{Kind: display.KindTray, Tray: tb, Selected: sel}); err != nil {
			return "", fmt.Errorf("panel: %w", err)
		}
		ev, err := p.b.Next(ctx)
		if err != nil {
			return "", fmt.Errorf("wait for a button: %w", err)
		}
		switch {
		case ev.Long:
			return "q", nil
		case sel == display.EdgeNone && ev.Button == hw.OK:
			if tb.Found {
				return "", nil
			}
			b := tb.Box
			return fmt.Sprintf("%d,%d,%d,%d", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y), nil
		case sel == display.EdgeNone && ev.Button == hw.Stop:
			return "q", nil
		case sel == display.EdgeNone: // ◀ or ▶: move the edges, the left one first
			sel = display.EdgeLeft
		case ev.Button == hw.OK:
			sel++ // after the bottom edge: EdgeNone, the whole box for OK
		case ev.Button == hw.Stop:
			if sel == display.EdgeLeft {
				sel = display.EdgeNone
			} else {
				sel--
			}
		case ev.Button == hw.Next, ev.Button == hw.Prev:
			d := step
			if ev.Button == hw.Prev {
				d = -step
			}
			if b := moveEdge(tb.Box, sel, d, q.Frame, least); b != tb.Box {
				tb.Box, tb.Found = b, false
			}
		}
	}
}

// trayStep: one press moves a tray edge by this fraction of the frame's longer side.
const trayStep = 40

// moveEdge moves edge e of b by d pixels (▶ and down are positive), within the frame and
// leaving the box at least least pixels a side (a box found smaller may grow, not shrink).
func moveEdge(b image.Rectangle, e, d int, frame image.Point, least int) image.Rectangle {
	switch e {
	case display.EdgeLeft:
		b.Min.X = within(b.Min.X, d, 0, b.Max.X-least)
	case display.EdgeTop:
		b.Min.Y = within(b.Min.Y, d, 0, b.Max.Y-least)
	case display.EdgeRight:
		b.Max.X = within(b.Max.X, d, b.Min.X+least, frame.X)
	case display.EdgeBottom:
		b.Max.Y = within(b.Max.Y, d, b.Min.Y+least, frame.Y)
	}
	return b
}

// within is v moved by d and kept in [lo, hi]; a v already outside may only move back in.
func within(v, d, lo, hi int) int {
	n := v + d
	if n > hi {
		n = min(n, max(v, hi))
	}
	if n < lo {
		n = max(n, min(v, lo))
	}
	return n
}

// Done shows that calibration is saved.
func (p *Panel) Done() error {
	return p.r.Show(display.Screen{Kind: display.KindStatus, Status: display.StatusCalDone})
}
