package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/panel"
	"github.com/spf13/cobra"
)

// calibrateCmds returns `cantstop calibrate` (and `calibrate show`).
func calibrateCmds() []*cobra.Command {
	var (
		spec, profile, picture string
		dice, frames, rolls    int
		cf                     controlFlags
		onButtons              bool
		df                     deviceFlags
	)
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Calibrate the camera rig: tray, dice size, and the game's own dice",
		Long: `calibrate guides you through calibrating a new rig. It looks at the empty tray, then at a
roll of the game's dice, shows what it measured (tray, dice size) and the values it read, and
lets you confirm or correct them. Then it asks for more rolls (--rolls in all, and a few more
while a value has not been seen twice), each confirmed or corrected the same way: the reader
learns your dice from them. It then saves a calibration profile with those dice and a picture
of what it saw (tray outline, each die's box and value) next to it. In play the reader goes on
learning from every roll the players confirm (cantstop doctor says how far it got).

The profile goes to --profile, else $CANTSTOP_CONFIG_DIR/calibration.json, else systemd's
$CONFIGURATION_DIRECTORY/calibration.json, else ~/.config/cantstop/calibration.json.

With --buttons it asks on the device's buttons and display instead of the terminal (OK: done,
take it, keep it; STOP: quit, or enough rolls; the dice are corrected as in play), and takes
the camera, the buttons, the display, the language and where the profile goes from the
configuration (--config), as the service does: stop the service first.

Camera sources: ` + sourceHelp,
		Example: `  cantstop calibrate --camera v4l2:/dev/video0 --exposure 150 --wb-temperature 4600
  cantstop calibrate --camera rpicam:1280x960 --shutter 8000 --gain 1.5 --awbgains 1.6,1.4
  sudo cantstop calibrate --buttons      # on the device, the service stopped
  cantstop calibrate show`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := cf.controls()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			out := cmd.OutOrStdout()
			var prompt calibration.Prompter = calibration.NewTerminal(cmd.InOrStdin(), out)
			var done func() error
			if df.config != "" && !onButtons {
				return fmt.Errorf("--config goes with --buttons (the terminal calibration takes --camera and --profile)")
			}
			if onButtons {
				if dice != 4 {
					return fmt.Errorf("--dice %d: --buttons calibrates the game's 4 dice (use the keyboard for other counts)", dice)
				}
				p, where, source, closeAll, err := buttonsPrompt(cmd, df, log)
				if err != nil {
					return err
				}
				defer closeAll.Close()
				prompt, done = p, p.Done
				if profile == "" {
					profile = where
				}
				if spec == "" {
					spec = source
				}
			}
			if profile == "" {
				if profile, err = calibration.DefaultPath(); err != nil {
					return err
				}
			}
			if picture == "" {
				picture = picturePath(profile)
			}
			// Recalibrating keeps the camera controls of the last calibration
			// unless some are given now.
			if !cf.changed(cmd) {
				if old, err := calibration.Load(profile); err == nil {
					c = old.Controls
					fmt.Fprintln(cmd.OutOrStdout(), "Using the camera controls of", profile)
				}
			}
			if spec == "" {
				spec = defaultCamera()
			}
			src, err := camera.Open(ctx, spec, c, log)
			if err != nil {
				return err
			}
			defer src.Close()
			res, err := calibration.Run(ctx, src, prompt, calibration.Options{
				Dice: dice, Camera: spec, Controls: c, Frames: frames, Rolls: rolls,
			})
			if err != nil {
				return err
			}
			defer res.Close()
			for _, n := range res.Notes {
				fmt.Fprintln(out, "Note:", n)
			}
			if err := res.Profile.Save(profile); err != nil {
				return err
			}
			fmt.Fprintln(out, "Saved the calibration profile to", profile)
			if err := res.WritePicture(picture); err != nil {
				return err
			}
			fmt.Fprintln(out, "Look at what was seen in", picture)
			if done != nil {
				return done()
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec, "camera", "", "camera source (default rpicam if rpicam-vid is installed, else v4l2:/dev/video0)")
	f.StringVar(&profile, "profile", "", "where to save the profile (default: the config directory's calibration.json)")
	f.StringVar(&picture, "picture", "", "where to write the annotated picture (default: the profile's name with .png)")
	f.IntVar(&dice, "dice", 4, "dice in play")
	f.IntVar(&rolls, "rolls", calibration.DefaultRolls, "confirmed rolls the reader learns your dice from, the measuring roll among them (1: that roll alone)")
	f.IntVar(&frames, "frames", 3, "frames read at each look, the last one kept (1 for file and folder sources)")
	f.BoolVar(&onButtons, "buttons", false, "ask on the device's buttons and display (from the configuration) instead of the terminal")
	df.add(cmd, false)
	cf.register(cmd)
	cmd.AddCommand(calibrateShowCmd())
	return []*cobra.Command{cmd}
}

// buttonsPrompt opens the buttons and display the configuration names and returns the panel
// on them, with where the configuration keeps the profile and its camera source.
func buttonsPrompt(cmd *cobra.Command, df deviceFlags, log *slog.Logger) (*panel.Panel, string, string, io.Closer, error) {
	loc := df.location()
	cfg, _, err := loc.Load(configChecks())
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("configuration (fix it, then check with cantstop config check %s):\n%w", loc.Path, err)
	}
	lang, err := display.ParseLang(cfg.Game.Language)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("[game] language: %w", err)
	}
	var open closers
	screen, sc, err := openScreen(cfg, cmd.OutOrStdout(), lang)
	if err != nil {
		return nil, "", "", nil, err
	}
	open.add(sc.Close)
	buttons, bc, err := openButtons(cfg, cmd.InOrStdin(), log)
	if err != nil {
		open.Close()
		return nil, "", "", nil, err
	}
	open.add(bc.Close)
	return panel.New(buttons, screen, cmd.OutOrStdout()), cfg.CalibrationPath(loc.Path), cfg.Camera.Source, open, nil
}

const sourceHelp = `v4l2:/dev/video0 (or v4l2:0, /dev/video0, 0) for a USB webcam; rpicam or
rpicam:1280x960 for a Raspberry Pi Camera Module (via rpicam-vid); gst:PIPELINE (ending in
appsink); file:roll.jpg; dir:photos/ (images in name order; ?loop to repeat); video:roll.mp4.`

func calibrateShowCmd() *cobra.Command {
	var profile string
	cmd := &cobra.Command{
		Use:     "show",
		Short:   "Check a calibration profile and show what it holds",
		Example: "  cantstop calibrate show --profile /etc/cantstop/calibration.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if profile == "" {
				if profile, err = calibration.DefaultPath(); err != nil {
					return err
				}
			}
			p, err := calibration.Load(profile)
			if err != nil {
				return err
			}
			printProfile(cmd.OutOrStdout(), profile, p)
			return nil
		},
	}
	cmd.Flags().StringVar(&profile, "profile", "", "profile to check (default: the config directory's calibration.json)")
	return cmd
}

func printProfile(w io.Writer, path string, p calibration.Profile) {
	fmt.Fprintf(w, "%s: version %d, made %s with camera %q\n", path, p.Version, p.Created.Format("2006-01-02 15:04 MST"), p.Camera)
	fmt.Fprintf(w, "tray: %v in a %dx%d frame (%.0f%% of the view)\n", p.Tray.Box, p.Tray.Frame.X, p.Tray.Frame.Y, 100*p.Tray.Share)
	fmt.Fprintf(w, "dice: %d, %.1f px wide; calibration roll %v\n", p.Dice.Count, p.Dice.SidePx, p.Dice.Values)
	fmt.Fprintf(w, "examples: %s\n", calibration.DescribeExamples(p.Examples))
	for _, u := range p.Upgraded {
		fmt.Fprintf(w, "upgraded: %s\n", u)
	}
}

// defaultCamera picks the Pi camera when rpicam-vid is installed.
func defaultCamera() string {
	if _, err := exec.LookPath("rpicam-vid"); err == nil {
		return "rpicam"
	}
	return "v4l2:/dev/video0"
}

// controlFlags are the camera controls as command-line flags.
type controlFlags struct {
	width, height, shutter  int
	fps, exposure, wb, gain float64
	focus, lens, awb        string
}

func (cf *controlFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&cf.width, "width", 0, "frame width in pixels (0: camera default)")
	f.IntVar(&cf.height, "height", 0, "frame height in pixels (0: camera default)")
	f.Float64Var(&cf.fps, "fps", 0, "frames per second (0: camera default)")
	f.Float64Var(&cf.exposure, "exposure", 0, "V4L2 absolute exposure, camera units (0: auto)")
	f.Float64Var(&cf.wb, "wb-temperature", 0, "V4L2 white balance temperature in kelvin (0: auto)")
	f.StringVar(&cf.focus, "focus", "", "V4L2 absolute focus (empty: autofocus)")
	f.IntVar(&cf.shutter, "shutter", 0, "rpicam shutter time in microseconds (0: auto)")
	f.Float64Var(&cf.gain, "gain", 0, "rpicam analogue gain (0: auto)")
	f.StringVar(&cf.awb, "awbgains", "", "rpicam red,blue white balance gains, e.g. 1.6,1.4 (empty: auto)")
	f.StringVar(&cf.lens, "lens-position", "", "rpicam lens position in dioptres, 0 = infinity (empty: camera's choice)")
}

// changed reports whether any control flag was given.
func (cf *controlFlags) changed(cmd *cobra.Command) bool {
	for _, n := range []string{"width", "height", "fps", "exposure", "wb-temperature", "focus", "shutter", "gain", "awbgains", "lens-position"} {
		if cmd.Flags().Changed(n) {
			return true
		}
	}
	return false
}

func (cf *controlFlags) controls() (camera.Controls, error) {
	c := camera.Controls{Width: cf.width, Height: cf.height, FPS: cf.fps, Exposure: cf.exposure,
		WBTemperature: cf.wb, ShutterUS: cf.shutter, Gain: cf.gain}
	opt := func(name, s string) (*float64, error) {
		if s == "" {
			return nil, nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("--%s %q: want a number", name, s)
		}
		return &v, nil
	}
	var err error
	if c.Focus, err = opt("focus", cf.focus); err != nil {
		return c, err
	}
	if c.LensPosition, err = opt("lens-position", cf.lens); err != nil {
		return c, err
	}
	if cf.awb != "" {
		r, b, ok := strings.Cut(cf.awb, ",")
		rv, err1 := strconv.ParseFloat(r, 64)
		bv, err2 := strconv.ParseFloat(b, 64)
		if !ok || err1 != nil || err2 != nil {
			return c, errors.New("--awbgains " + strconv.Quote(cf.awb) + ": want red,blue gains, e.g. 1.6,1.4")
		}
		c.AWBGains = [2]float64{rv, bv}
	}
	return c, c.Validate()
}
