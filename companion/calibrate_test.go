package companion

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// isStatus checks a status screen's status (and, if given, that its detail holds detail).
func isStatus(st display.Status, detail string) func(display.Screen) error {
	return func(s display.Screen) error {
		if s.Status != st || !strings.Contains(s.Detail, detail) {
			return fmt.Errorf("status %d %q, want %d with %q", s.Status, s.Detail, st, detail)
		}
		return nil
	}
}

// calibrateFromMenu opens the menu on the move screen, checks it offers "Calibrate camera"
// second from the end, and answers OK to its question.
var calibrateFromMenu = seq(
	press(display.KindMove, long(hw.OK)),
	step{kind: display.KindMenu, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Prev), short(hw.Prev), ok} },
		check: func(s display.Screen) error {
			if n := len(s.Menu); n < 2 || s.Menu[n-2] != display.MenuCalibrate {
				return fmt.Errorf("menu %v: want Calibrate camera second from the end", s.Menu)
			}
			return nil
		}},
	step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
		check: isStatus(display.StatusCalibrate, "")},
)

// TestCalibrateFromMenu: the Calibrator asks on the companion's own buttons (the presses come
// through the loop), and the dice are read from then on with the reader it returns; the game
// goes on where it was.
func TestCalibrateFromMenu(t *testing.T) {
	old, fresh := reads([]int{2, 4, 4, 4}), reads([]int{3, 3, 5, 5})
	calls := 0
	script := concat(startGame, seq(nameFirst(0, 2), press(display.KindTurn, ok), choose(6, 8)), calibrateFromMenu, seq(
		// The Calibrator's question, answered through the loop.
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Stop)} },
			check: isStatus(display.StatusCalEmpty, "")},
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: isStatus(display.StatusCalDone, "")},
		press(display.KindMove, ok), // roll again: read with the new reader
		choose(6, 10),
	))
	playWith(t, t.TempDir(), func(d *driver) Deps {
		return Deps{Dice: old, Calibrate: func(ctx context.Context, b Buttons) (DiceReader, error) {
			calls++
			d.Show(display.Screen{Kind: display.KindStatus, Status: display.StatusCalEmpty})
			if ev, err := b.Next(ctx); err != nil || ev.Button != hw.Stop {
				return nil, fmt.Errorf("press %v, %v: want STOP", ev, err)
			}
			return fresh, nil
		}}
	}, Options{}, script...)
	if calls != 1 {
		t.Errorf("Calibrator called %d times, want 1", calls)
	}
	if !slices.Equal(old.wants, []int{4}) || !slices.Equal(fresh.wants, []int{4}) {
		t.Errorf("rolls read: %v by the old reader, %v by the new; want one each", old.wants, fresh.wants)
	}
}

// TestCalibrateFromMenuFails: a calibration that fails (or is quit) is shown, and the dice are
// read as before; STOP at the question calibrates nothing.
func TestCalibrateFromMenuFails(t *testing.T) {
	old := reads([]int{2, 4, 4, 4}, []int{3, 3, 5, 5})
	calls := 0
	script := concat(startGame, seq(nameFirst(0, 2), press(display.KindTurn, ok), choose(6, 8),
		press(display.KindMove, long(hw.OK)),
		press(display.KindMenu, short(hw.Prev), short(hw.Prev), ok),
		press(display.KindStatus, short(hw.Stop)), // not now
		press(display.KindMenu, short(hw.Stop))),
		calibrateFromMenu, seq(
			step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
				check: isStatus(display.StatusError, "calibration not done: calibration cancelled")},
			press(display.KindMove, ok),
			choose(6, 10),
		))
	playWith(t, t.TempDir(), func(d *driver) Deps {
		return Deps{Dice: old, Calibrate: func(ctx context.Context, b Buttons) (DiceReader, error) {
			calls++
			return nil, errors.New("calibration cancelled")
		}}
	}, Options{}, script...)
	if calls != 1 {
		t.Errorf("Calibrator called %d times, want 1 (STOP at the question calibrates nothing)", calls)
	}
	if !slices.Equal(old.wants, []int{4, 4}) {
		t.Errorf("rolls read by the reader in use: %v, want both", old.wants)
	}
}

// TestMenuWithoutCalibrator: no Calibrator, no "Calibrate camera".
func TestMenuWithoutCalibrator(t *testing.T) {
	script := concat(startGame, seq(nameFirst(0, 2), press(display.KindTurn, ok), choose(6, 8),
		press(display.KindMove, long(hw.OK)),
		step{kind: display.KindMenu, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Stop)} },
			check: func(s display.Screen) error {
				if slices.Contains(s.Menu, display.MenuCalibrate) {
					return fmt.Errorf("menu %v offers calibration with no Calibrator", s.Menu)
				}
				return nil
			}},
		press(display.KindMove, short(hw.Stop)),
	))
	play(t, t.TempDir(), reads([]int{2, 4, 4, 4}), Options{}, script...)
}
