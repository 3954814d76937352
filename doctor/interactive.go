package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Ask puts a question to the person at the device and returns the answer.
type Ask func(ctx context.Context, question string) (string, error)

// PressTimeout is how long the device waits for each press (ButtonsPressed's wait).
const PressTimeout = 15 * time.Second

// Presses are the device's buttons as ButtonsPressed reads them.
type Presses interface {
	// Press waits for the next press and names the button the device saw.
	Press(ctx context.Context) (string, error)
	Close() error
}

// ButtonsPressed asks for each button in turn (names in order, pins[i] the
// GPIO of names[i]) and reads the presses from open's buttons. A press of
// another button means two wires are swapped; no press within wait, a dead button.
func ButtonsPressed(names, pins []string, wait time.Duration, say func(string), open func() (Presses, error)) Check {
	return Check{Name: "buttons pressed", Timeout: time.Duration(len(names)+1) * wait, Run: func(ctx context.Context) (string, error) {
		b, err := open()
		if err != nil {
			return "", Failed(err, gpioFix(err))
		}
		defer b.Close()
		var bad []string
		var fix []string
		for i, want := range names {
			say(fmt.Sprintf("Press %s (%s) once.", strings.ToUpper(want), pins[i]))
			pctx, cancel := context.WithTimeout(ctx, wait)
			got, err := b.Press(pctx)
			cancel()
			switch {
			case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
				bad = append(bad, fmt.Sprintf("%s gave no press in %v", want, wait))
				fix = append(fix, fmt.Sprintf("check %s's wires: %s to the button, the button to ground", want, pins[i]))
			case err != nil:
				return "", fmt.Errorf("read the buttons: %w", err)
			case !strings.EqualFold(got, want):
				j := index(names, got)
				bad = append(bad, fmt.Sprintf("pressing %s gave %s", want, got))
				if j >= 0 {
					fix = append(fix, fmt.Sprintf("%s and %s are swapped: swap their wires (%s, %s) or their pins in [buttons]", want, got, pins[i], pins[j]))
				}
			}
		}
		if len(bad) > 0 {
			return "", Failed(errors.New(strings.Join(bad, "; ")), strings.Join(fix, "; "))
		}
		return "each of " + strings.Join(names, ", ") + " gave its own press", nil
	}}
}

func index(names []string, s string) int {
	for i, n := range names {
		if strings.EqualFold(n, s) {
			return i
		}
	}
	return -1
}

// DisplayPattern draws a test pattern with draw and asks whether it looks
// right; the display stays on until the answer, then draw's close turns it off.
func DisplayPattern(dev string, draw func() (close func() error, err error), ask Ask) Check {
	return Check{Name: "display pattern", Timeout: 5 * time.Minute, Run: func(ctx context.Context) (string, error) {
		closeDisplay, err := draw()
		if err != nil {
			return "", Failed(err, "check the wiring and the address with i2cdetect")
		}
		defer closeDisplay()
		ans, err := ask(ctx, "Does the display show a frame round its edge, a checkerboard and the word cantstop, upright? [y/n]")
		if err != nil {
			return "", Failed(err, noAnswerFix)
		}
		if a := strings.ToLower(strings.TrimSpace(ans)); a != "y" && a != "yes" {
			return "", Failed(fmt.Errorf("the test pattern on %s does not look right", dev),
				"nothing: check VCC, GND, SDA, SCL; upside down: set [display] rotated = true; garbled or shifted by two columns: the module is an SH1106, which is not supported")
		}
		return "the test pattern looks right on " + dev, nil
	}}
}

// noAnswerFix is the fix when a question gets no answer.
const noAnswerFix = "run cantstop doctor --interactive at a terminal and answer its questions"

// ReadTimeout bounds CameraRead's reading, once the person has rolled.
const ReadTimeout = 30 * time.Second

// CameraRead asks for a roll, then reads one frame and the dice in it with
// read, which says what it found and where it saved the picture (a warning
// when the roll is not read).
func CameraRead(spec string, ask Ask, read func(ctx context.Context) (string, error)) Check {
	return Check{Name: "camera reading", Timeout: 5 * time.Minute, Run: func(ctx context.Context) (string, error) {
		if _, err := ask(ctx, "Roll four dice into the tray, then press Enter."); err != nil {
			return "", Failed(err, noAnswerFix)
		}
		rctx, cancel := context.WithTimeout(ctx, ReadTimeout)
		defer cancel()
		got, err := read(rctx)
		var p *Problem
		if err != nil && !errors.As(err, &p) {
			return "", Failed(err, cameraFix(spec, err))
		}
		return got, err
	}}
}
