package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// closers closes what was opened, last first.
type closers []func() error

func (cs *closers) add(f func() error) { *cs = append(*cs, f) }

func (cs closers) Close() error {
	var errs []error
	for i := len(cs) - 1; i >= 0; i-- {
		errs = append(errs, cs[i]())
	}
	return errors.Join(errs...)
}

// hwPins turns the config's BCM numbers into periph's line names.
func hwPins(b config.Buttons) hw.Pins {
	n := func(p int) string { return fmt.Sprintf("GPIO%d", p) }
	return hw.Pins{Prev: n(b.Prev), Next: n(b.Next), OK: n(b.OK), Stop: n(b.Stop)}
}

func hwOpts(b config.Buttons, log *slog.Logger) hw.Opts {
	o := hw.DefaultOpts()
	o.Debounce, o.LongPress, o.Log = b.Debounce, b.LongPress, log
	return o
}

// openButtons opens the buttons the config names: GPIO, or the keyboard on
// in (a terminal is switched to key-at-a-time input).
func openButtons(c config.Config, in io.Reader, log *slog.Logger) (companion.Buttons, io.Closer, error) {
	if c.Buttons.Input == "keyboard" {
		f, ok := in.(*os.File)
		if !ok {
			k := hw.NewKeyboard(in)
			return k, k, nil
		}
		k, err := hw.OpenTerminal(f)
		if err != nil {
			return nil, nil, fmt.Errorf("keyboard buttons on standard input: %w", err)
		}
		return k, k, nil
	}
	g, err := hw.Open(hwPins(c.Buttons), hwOpts(c.Buttons, log))
	if err != nil {
		return nil, nil, fmt.Errorf("buttons on GPIO %d, %d, %d, %d: %w (check the wiring and [buttons] in the config; cantstop doctor tells more)",
			c.Buttons.Prev, c.Buttons.Next, c.Buttons.OK, c.Buttons.Stop, err)
	}
	return g, g, nil
}

// openScreen opens the display the config names: the OLED, or text on out.
func openScreen(c config.Config, out io.Writer, lang display.Lang) (companion.Renderer, io.Closer, error) {
	if c.Display.Output == "terminal" {
		return display.NewTerminal(out, lang), closerFunc(func() error { return nil }), nil
	}
	oled, closeOLED, err := display.OpenOLEDBus(c.Display.I2CBus, c.Display.Address, c.Display.Rotated, lang)
	if err != nil {
		return nil, nil, fmt.Errorf("display on %s at 0x%02X: %w", c.Display.I2CDev(), c.Display.Address, err)
	}
	return oled, closerFunc(closeOLED), nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// openCamera opens the camera source of the config, calibrated when there is a profile at
// path profile.
func openCamera(ctx context.Context, c config.Config, profile, learnt string, log *slog.Logger) (camera.Source, *dice.Reader, rigExamples, error) {
	if c.Camera.Source == "none" {
		return nil, nil, rigExamples{}, errors.New("camera source is none")
	}
	return openCalibrated(ctx, c, profile, learnt, log)
}

// setAside is the suffix the learnt file is renamed with before learning starts again: ".bad"
// when damaged, ".old" when learnt with another calibration; "" to keep it.
func setAside(rx rigExamples) string {
	switch {
	case errors.Is(rx.bad, calibration.ErrDamaged):
		return ".bad"
	case rx.stale:
		return ".old"
	}
	return ""
}

// learntPath is the file of the dice learnt in play in the state directory, or "" without one.
func learntPath(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, calibration.LearntFile)
}

// cameraWait is how long run waits for a camera that is not there yet: at
// boot a USB camera can appear a few seconds after the service starts.
const cameraWait = 15 * time.Second

// openDice is the companion's dice reader over the camera, or nil (dice
// entered with the buttons) without one ([camera] source = none). A camera that
// does not open within wait fails run when [camera] required is set; else the
// players enter the dice until it opens. A camera that fails later is closed and
// opened again the same way (companion.ReopenReader, tried at the start of a
// roll). With a learnt file it learns the dice the players confirm
// (calibration.Learner).
func openDice(ctx context.Context, c config.Config, profile, learnt string, wait time.Duration, log *slog.Logger) (companion.DiceReader, io.Closer, error) {
	none := closerFunc(func() error { return nil })
	if c.Camera.Source == "none" {
		return nil, none, nil
	}
	reopen := &companion.ReopenReader{Log: log, Open: func() (companion.DiceReader, io.Closer, error) {
		return openDiceOnce(ctx, c, profile, learnt, log)
	}}
	deadline := time.Now().Add(wait)
	for try := 1; ; try++ {
		dr, cl, err := openDiceOnce(ctx, c, profile, learnt, log)
		if err == nil {
			reopen.Use(dr, cl)
			return reopen, reopen, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if c.Camera.Required {
				return nil, nil, fmt.Errorf("camera (required by [camera] required = true): %w", err)
			}
			log.Error("camera failed: the dice are entered with the buttons until it opens (tried at the start of each roll); run cantstop doctor for the fix",
				"source", c.Camera.Source, "err", err)
			return reopen, reopen, nil
		}
		if try == 1 {
			log.Warn("camera not ready: retrying", "source", c.Camera.Source, "for", wait, "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// openDiceOnce opens the camera and its dice reader, learning when there is a learnt file.
func openDiceOnce(ctx context.Context, c config.Config, profile, learnt string, log *slog.Logger) (companion.DiceReader, io.Closer, error) {
	src, r, rx, err := openCamera(ctx, c, profile, learnt, log)
	if err != nil {
		return nil, nil, err
	}
	cr := companion.NewCameraReader(src, r)
	if learnt == "" || rx.moved {
		return cr, src, nil
	}
	if aside := setAside(rx); aside != "" { // kept for a look; learning starts again
		if err := os.Rename(learnt, learnt+aside); err != nil {
			log.Error("cannot set the learnt dice aside: they will be overwritten", "err", err)
		} else {
			log.Warn("learnt dice set aside: learning starts again", "set_aside", learnt+aside)
		}
	}
	l := calibration.NewLearner(learnt, rx.base, rx.learnt, r, log)
	cr.Learn = l.Add
	return cr, closerFunc(func() error { return errors.Join(l.Close(), src.Close()) }), nil
}
