package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/user"
	"strings"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"github.com/spf13/cobra"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/doctor"
	"github.com/cantstop/cantstop/hw"
	"github.com/cantstop/cantstop/sdlog"
)

func doctorCmd() *cobra.Command {
	var f deviceFlags
	var timeout time.Duration
	var interactive bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the device: config, calibration, saved-game directory, camera, buttons, display",
		Long: `doctor checks everything cantstop run needs and prints one PASS, WARN or FAIL line
each, with the fix. It exits non-zero when a check fails. Stop the service first
(it holds the camera and the GPIO lines), and run it as the service's user to see
what the service sees:

  sudo systemctl stop cantstop
  sudo -u cantstop cantstop doctor
  sudo systemctl start cantstop

With --interactive it then asks for each button in turn (a swapped or dead one
is named), draws a test pattern on the display and asks whether it looks right,
and reads the dice in one camera frame, saving the picture.`,
		Example: `  cantstop doctor
  cantstop doctor --interactive
  cantstop doctor --config ./cantstop.conf --state-dir /tmp/games`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			checks, cfg, path := doctorChecks(cmd.Context(), &f)
			if interactive {
				checks = append(checks, interactiveChecks(cfg, path, doctorStateDir(&f), cmd.InOrStdin(), cmd.OutOrStdout())...)
			}
			rs := doctor.Run(cmd.Context(), checks, timeout, cmd.OutOrStdout())
			if n := doctor.Failures(rs); n > 0 {
				return fmt.Errorf("%d of %d checks failed", n, len(rs))
			}
			return nil
		},
	}
	f.add(cmd, true)
	cmd.Flags().DurationVar(&timeout, "timeout", 15*time.Second, "longest wait for each check")
	cmd.Flags().BoolVar(&interactive, "interactive", false, "also press each button, look at a test pattern on the display and read one roll")
	return cmd
}

// doctorChecks builds the device's checks from its configuration, and returns
// that configuration (the defaults when it does not load) and its path.
func doctorChecks(ctx context.Context, f *deviceFlags) ([]doctor.Check, config.Config, string) {
	loc := f.location()
	cfg, found, err := loc.Load(configChecks())
	checks := []doctor.Check{doctor.Config(loc.Path, found, err)}
	if err != nil {
		cfg = config.Default() // check the devices at their defaults anyway
	}
	log := sdlog.New(io.Discard, nil, false)
	profile := profilePath(cfg, loc.Path, doctorStateDir(f))
	var groups []string
	if cfg.Buttons.Input == "gpio" {
		groups = append(groups, "gpio")
	}
	if cfg.Camera.Source != "none" {
		groups = append(groups, "video")
	}
	if cfg.Display.Output == "oled" {
		groups = append(groups, "i2c")
	}
	checks = append(checks,
		doctor.Groups(os.Getuid(), processGroups, groups...),
		doctor.StateDir(doctorStateDir(f)),
		doctor.Calibration(profile, func(path string) (string, error) {
			return checkCalibration(path, menuProfile(doctorStateDir(f)))
		}),
		doctor.RigDice(func(ctx context.Context) (string, error) {
			return checkLearnt(profile, learntPath(doctorStateDir(f)))
		}),
		doctor.Camera(cfg.Camera.Source, func(ctx context.Context) (doctor.Frames, error) {
			src, r, _, err := openCamera(ctx, cfg, profile, "", log)
			if r != nil {
				r.Close()
			}
			if err != nil {
				return nil, err
			}
			return &frames{src: src}, nil
		}),
	)
	if cfg.Camera.Source != "none" {
		checks = append(checks, doctor.Tray(func(ctx context.Context) (string, error) {
			return checkTray(ctx, cfg, profile, log)
		}))
	}
	if cfg.Buttons.Input == "gpio" {
		pins := fmt.Sprintf("GPIO%d (prev), GPIO%d (next), GPIO%d (ok), GPIO%d (stop)",
			cfg.Buttons.Prev, cfg.Buttons.Next, cfg.Buttons.OK, cfg.Buttons.Stop)
		checks = append(checks, doctor.Buttons(pins, func() (io.Closer, error) {
			return hw.Open(hwPins(cfg.Buttons), hwOpts(cfg.Buttons, log))
		}))
	}
	if cfg.Display.Output == "oled" {
		checks = append(checks, doctor.Display(cfg.Display.I2CDev(), cfg.Display.Address, func() (io.Closer, error) {
			lang, _ := display.ParseLang(cfg.Game.Language)
			_, c, err := openScreen(cfg, io.Discard, lang) // initialising the SSD1306 needs its answer on the bus
			return c, err
		}))
	}
	return checks, cfg, loc.Path
}

// doctorStateDir is the directory the service would use: --state-dir,
// $STATE_DIRECTORY, /var/lib/cantstop when it exists, else the user's.
func doctorStateDir(f *deviceFlags) string {
	if d := f.state(); d != "" {
		return d
	}
	if _, err := os.Stat("/var/lib/cantstop"); err == nil {
		return "/var/lib/cantstop"
	}
	return userStateDir()
}

// frames adapts a camera source to the doctor's Frames.
type frames struct{ src camera.Source }

func (f *frames) Grab(ctx context.Context) (doctor.Frame, error) {
	m, err := f.src.Frame(ctx)
	if err != nil {
		return doctor.Frame{}, err
	}
	defer m.Close()
	out := doctor.Frame{Width: m.Cols(), Height: m.Rows()}
	if share, over := camera.Overexposed(m); over {
		out.Overexposed = share
	}
	return out, nil
}

func (f *frames) Close() error { return f.src.Close() }

// processGroups names this process's groups.
func processGroups() ([]string, error) {
	ids, err := os.Getgroups()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, id := range ids {
		if g, err := user.LookupGroupId(fmt.Sprint(id)); err == nil {
			names = append(names, g.Name)
		}
	}
	return names, nil
}

// interactiveChecks are the checks a person takes part in: each button
// pressed in turn, the display's test pattern looked at, a roll read.
func interactiveChecks(cfg config.Config, configPath, stateDir string, in io.Reader, out io.Writer) []doctor.Check {
	log := sdlog.New(io.Discard, nil, false)
	ask := asker(in, out)
	var checks []doctor.Check
	if cfg.Buttons.Input == "gpio" {
		b := cfg.Buttons
		pins := []string{fmt.Sprintf("GPIO%d", b.Prev), fmt.Sprintf("GPIO%d", b.Next), fmt.Sprintf("GPIO%d", b.OK), fmt.Sprintf("GPIO%d", b.Stop)}
		checks = append(checks, doctor.ButtonsPressed([]string{"Prev", "Next", "OK", "Stop"}, pins, doctor.PressTimeout,
			func(s string) { fmt.Fprintln(out, s) },
			func() (doctor.Presses, error) {
				g, err := hw.Open(hwPins(b), hwOpts(b, log))
				return gpioPresses{g}, err
			}))
	}
	if cfg.Display.Output == "oled" {
		checks = append(checks, doctor.DisplayPattern(cfg.Display.I2CDev(), func() (func() error, error) {
			oled, closeOLED, err := display.OpenOLEDBus(cfg.Display.I2CBus, cfg.Display.Address, cfg.Display.Rotated, display.English)
			if err != nil {
				return nil, err
			}
			if err := oled.TestPattern(); err != nil {
				closeOLED()
				return nil, err
			}
			return closeOLED, nil // after the answer: closing turns the display off
		}, ask))
	}
	if cfg.Camera.Source != "none" {
		checks = append(checks, doctor.CameraRead(cfg.Camera.Source, ask, func(ctx context.Context) (string, error) {
			src, r, _, err := openCamera(ctx, cfg, profilePath(cfg, configPath, stateDir), learntPath(stateDir), log)
			if err != nil {
				return "", err
			}
			defer src.Close()
			defer r.Close()
			return readOneRoll(ctx, src, r)
		}))
	}
	return checks
}

// asker asks on out and reads the answer, a line, from in. One goroutine reads
// the lines, so a question given up on (its check timed out) leaves no read
// behind to take the next answer.
func asker(in io.Reader, out io.Writer) doctor.Ask {
	lines := make(chan string)
	var once sync.Once
	return func(ctx context.Context, q string) (string, error) {
		once.Do(func() {
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(in)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
		})
		fmt.Fprint(out, q+" ")
		select {
		case s, ok := <-lines:
			if !ok {
				return "", fmt.Errorf("no answer: the input ended")
			}
			return strings.TrimSpace(s), nil
		case <-ctx.Done():
			return "", fmt.Errorf("no answer: %w", ctx.Err())
		}
	}
}

// readOneRoll reads the dice in one frame and saves the frame with what was
// found drawn in (a new file in the temporary folder), for cantstop doctor --interactive.
func readOneRoll(ctx context.Context, src camera.Source, r *dice.Reader) (string, error) {
	frame, err := src.Frame(ctx)
	if err != nil {
		return "", fmt.Errorf("read a frame: %w", err)
	}
	defer frame.Close()
	rd := r.Read(frame)
	a := dice.Annotate(frame, rd)
	defer a.Close()
	saved := "no picture saved"
	if f, err := os.CreateTemp("", "cantstop-doctor-*.png"); err == nil {
		f.Close()
		saved = "picture: " + f.Name()
		if !gocv.IMWrite(f.Name(), a) {
			saved = "the picture could not be written to " + f.Name()
		}
	}
	got := fmt.Sprintf("frame %dx%d: %s %v (%s)", frame.Cols(), frame.Rows(), rd.Status, rd.Values(), saved)
	if rd.Status != dice.StatusRead {
		return "", doctor.Warning(got+": "+rd.Why, "look at the picture; aim and light the tray (cantstop camera preview), then cantstop calibrate")
	}
	return got, nil
}

// gpioPresses adapts the GPIO buttons to the doctor's Presses.
type gpioPresses struct{ g *hw.GPIO }

func (p gpioPresses) Press(ctx context.Context) (string, error) {
	ev, err := p.g.Next(ctx)
	return ev.Button.String(), err
}

func (p gpioPresses) Close() error { return p.g.Close() }
