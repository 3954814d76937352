package main

import (
	"fmt"
	"image/color"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	"gocv.io/x/gocv"
	"golang.org/x/term"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/preview"
)

// cameraCmds returns the commands for mounting and aiming the camera: camera preview.
func cameraCmds() []*cobra.Command {
	cmd := &cobra.Command{Use: "camera", Short: "Mount and aim the camera: a live view with the tray and dice drawn in"}
	cmd.AddCommand(cameraPreviewCmd())
	return []*cobra.Command{cmd}
}

func cameraPreviewCmd() *cobra.Command {
	var (
		dev      deviceFlags
		cam      string
		listen   string
		noTerm   bool
		interval float64
	)
	cmd := &cobra.Command{
		Use:   "preview",
		Short: "Show what the camera sees, live, with the tray and the dice found drawn in",
		Long: "preview shows the camera's view continuously, read by the dice reader as the device would (with the\n" +
			"calibration profile's tray when there is one): in the terminal, and as a web page on --listen for a\n" +
			"headless Pi. The page is bound to 127.0.0.1, so reach it through SSH (ssh -L 8080:localhost:8080 pi),\n" +
			"or say --listen 0.0.0.0:8080 to open it to the network; the service itself serves nothing.\n" +
			"Stop the service first (sudo systemctl stop cantstop): one program at a time can use the camera.",
		Example: `  cantstop camera preview
  cantstop camera preview --camera rpicam:1280x960 --listen 0.0.0.0:8080
  cantstop camera preview --camera v4l2:/dev/video0 --no-terminal`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			var src camera.Source
			var r *dice.Reader
			var err error
			if cam == "" {
				loc := dev.location()
				c, found, lerr := loc.Load(configChecks())
				switch {
				case lerr != nil:
					return lerr
				case found && c.Camera.Source == "none":
					return fmt.Errorf("%s sets [camera] source = none: name the camera to aim with --camera (e.g. --camera %s)", loc.Path, defaultCamera())
				case found:
					src, r, _, err = openCamera(ctx, c, profilePath(c, loc.Path, doctorStateDir(&dev)), learntPath(doctorStateDir(&dev)), log)
				default:
					cam = defaultCamera()
				}
			}
			if cam != "" {
				if src, err = camera.Open(ctx, cam, camera.Controls{}, log); err == nil {
					r, err = dice.NewReader(dice.Opts{})
					if err != nil {
						src.Close()
					}
				}
			}
			if err != nil {
				return err
			}
			defer src.Close()
			defer r.Close()
			o := preview.Opts{Listen: listen, Interval: time.Duration(interval * float64(time.Second)), Log: log,
				Ready: func(addr string) { fmt.Fprintf(cmd.ErrOrStderr(), "preview: http://%s/ (Ctrl-C stops)\n", addr) }}
			if w, h, terr := term.GetSize(int(os.Stdout.Fd())); terr == nil && !noTerm {
				o.Terminal, o.Cols, o.Rows = cmd.OutOrStdout(), w, h
			}
			if o.Terminal == nil && listen == "" {
				return fmt.Errorf("nowhere to show the preview: the output is no terminal and --listen is empty")
			}
			_, err = preview.Run(ctx, src, lookDice(r), o)
			return err
		},
	}
	dev.add(cmd, false)
	cmd.Flags().StringVar(&cam, "camera", "", "camera or source spec (default: the config's [camera] source and calibration, else "+defaultCamera()+")")
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:8080", "address of the web page (empty: none)")
	cmd.Flags().BoolVar(&noTerm, "no-terminal", false, "only the web page")
	cmd.Flags().Float64Var(&interval, "interval", 0.2, "seconds between frames shown at least")
	return cmd
}

// lookDice reads each frame and draws the tray searched and the dice found.
func lookDice(r *dice.Reader) preview.Look {
	return func(frame gocv.Mat) (gocv.Mat, string) {
		rd := r.Read(frame)
		out := dice.Annotate(frame, rd)
		if t := r.Opts().Tray; !t.Empty() {
			gocv.Rectangle(&out, t, color.RGBA{255, 200, 0, 0}, max(1, frame.Cols()/400))
		}
		status := fmt.Sprintf("%s %v", rd.Status, rd.Values())
		if rd.Why != "" {
			status += ": " + rd.Why
		}
		return out, fmt.Sprintf("%s  (%dx%d)", status, frame.Cols(), frame.Rows())
	}
}
