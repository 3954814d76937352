package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/dicebench"
)

// diceCmds returns `cantstop dice` with its subcommands read and bench.
func diceCmds() []*cobra.Command {
	grp := &cobra.Command{
		Use:   "dice",
		Short: "Read dice from a picture or a camera, and benchmark the reader",
	}
	grp.AddCommand(diceReadCmd(), diceBenchCmd())
	return []*cobra.Command{grp}
}

// pictureFile checks that FILE names a readable file before OpenCV is asked to decode it
// (OpenCV only says it could not), and points a source spec given as FILE to --camera.
func pictureFile(name string) error {
	fi, err := os.Stat(name)
	if err == nil && fi.IsDir() {
		return fmt.Errorf("read %s: a folder, not a picture (name one picture in it, or use --camera dir:%s)", name, name)
	}
	if err == nil {
		return nil
	}
	if _, perr := camera.ParseSpec(name); perr == nil && strings.Contains(name, ":") {
		return fmt.Errorf("read %s: no such file; to read from a source, use --camera %s", name, name)
	}
	return fmt.Errorf("read picture: %w", err)
}

func diceReadCmd() *cobra.Command {
	var (
		cam, out string
		model    string
		asJSON   bool
		expect   int
		settle   bool
	)
	cmd := &cobra.Command{
		Use:   "read [FILE]",
		Short: "Read the dice in one picture (or one settled camera frame)",
		Long: "read prints the reading's status and values, then each die with its box and confidence.\n\n" +
			"Exit codes: 0 read; 3 unreadable (a face not read surely, or no dice found); 4 wrong count (--expect);\n" +
			"5 not settled (--settle); 1 an error (file, camera); 2 a bad command line.",
		Example: `  cantstop dice read roll.jpg --out roll-annotated.png
  cantstop dice read --camera v4l2:/dev/video0 --expect 4 --json
  cantstop dice read --camera rpicam --settle
  cantstop dice read roll.jpg --model runs/fold2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (len(args) == 1) == (cam != "") {
				return fmt.Errorf("give either a picture FILE or --camera SPEC (e.g. --camera v4l2:/dev/video0)")
			}
			r, err := dice.NewReader(dice.Opts{Expect: expect, Model: model})
			if err != nil {
				return err
			}
			defer r.Close()
			var frame gocv.Mat
			var rd dice.Reading
			if len(args) == 1 {
				if err := pictureFile(args[0]); err != nil {
					return err
				}
				if frame, err = camera.LoadImage(args[0]); err != nil {
					return fmt.Errorf("read %w", err)
				}
				rd = r.Read(frame)
			} else {
				src, err := camera.Open(cmd.Context(), cam, camera.Controls{}, slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil)))
				if err != nil {
					return err
				}
				defer src.Close()
				if settle {
					if rd, err = dice.Settle(cmd.Context(), src, r, dice.DefaultSettleOpts()); err != nil {
						return err
					}
				}
				if frame, err = src.Frame(cmd.Context()); err != nil {
					return fmt.Errorf("camera %s: %w", cam, err)
				}
				if !settle {
					rd = r.Read(frame)
				}
			}
			defer frame.Close()
			if out != "" {
				a := dice.Annotate(frame, rd)
				defer a.Close()
				if !gocv.IMWrite(out, a) {
					return fmt.Errorf("write %s: cannot encode (use a .png or .jpg name in a writable folder)", out)
				}
			}
			if err := printReading(cmd.OutOrStdout(), rd, asJSON); err != nil {
				return err
			}
			switch rd.Status {
			case dice.StatusUnreadable:
				return &exitCodeError{code: exitUnreadable}
			case dice.StatusWrongCount:
				return &exitCodeError{code: exitWrongCount}
			case dice.StatusNotSettled:
				return &exitCodeError{code: exitNotSettled}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&cam, "camera", "", "read from a camera or source spec ("+strings.Join(camera.Schemes(), ", ")+")")
	cmd.Flags().StringVar(&out, "out", "", "write the picture with boxes and values drawn in")
	cmd.Flags().StringVar(&model, "model", "", "read with the networks in this folder (detector.onnx, face.onnx, model.json) instead of the built-in ones")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the reading as JSON")
	cmd.Flags().IntVar(&expect, "expect", 0, "number of dice that must be found (0 = any)")
	cmd.Flags().BoolVar(&settle, "settle", false, "with --camera: wait until the dice stop and frames agree")
	return cmd
}

func printReading(w io.Writer, rd dice.Reading, asJSON bool) error {
	if asJSON {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(rd)
	}
	fmt.Fprintf(w, "%s %v\n", rd.Status, rd.Values())
	if rd.Why != "" {
		fmt.Fprintf(w, "why: %s\n", rd.Why)
	}
	if len(rd.Dice) == 0 {
		// "[]" alone says nothing of why; say plainly that nothing was seen, and where to look.
		fmt.Fprintln(w, "no dice found: if dice are in view, look at the picture --out writes to see what was seen")
	}
	for _, d := range rd.Dice {
		v := fmt.Sprint(d.Value)
		if d.Value == 0 {
			v = "?"
		}
		if d.Why != "" {
			v += " (" + d.Why + ")"
		}
		fmt.Fprintf(w, "  die at %v: %s, confidence %.2f\n", d.Box, v, d.Confidence)
	}
	return nil
}

func diceBenchCmd() *cobra.Command {
	var (
		asJSON   bool
		maxDice  int
		failures string
		vary     string
		model    string
		cuts     bool
		settle   int
		adapt    int
		noBG     bool
		learnBG  bool
	)
	cmd := &cobra.Command{
		Use:   "bench DIR...",
		Short: "Score the reader on folders of labelled photos (labels.csv: file,values)",
		Example: `  cantstop dice bench ../shared/dice-photos/*/ --max-dice 6
  cantstop dice bench photos/ --json --failures /tmp/misread
  cantstop dice bench ../shared/dice-photos/*/ --max-dice 6 --vary bright1.4
  cantstop dice bench ../shared/dice-photos/nell-byler --max-dice 6 --cut --failures /tmp/cut
  cantstop dice bench ../shared/dice-photos/*/ --max-dice 6 --settle 12
  cantstop dice bench ../shared/dice-photos/*/ --max-dice 6 --model runs/fold2
  cantstop dice bench ../shared/dice-photos/nell-byler --max-dice 6 --adapt 10
  cantstop dice bench ../shared/dice-photos/nell-byler --max-dice 6 --settle 5 --learn-background`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := dicebench.BenchOpts{MaxDice: maxDice, Failures: failures, Vary: vary, Settle: settle, Adapt: adapt, NoBackground: noBG,
				LearnBackground: learnBG}
			if settle < 0 {
				return fmt.Errorf("--settle %d: give a number of frames above 0", settle)
			}
			if noBG && adapt == 0 {
				return fmt.Errorf("--no-background goes with --adapt K: without it no background is made")
			}
			if adapt < 0 {
				return fmt.Errorf("--adapt %d: give the number of photos to learn each folder's dice from, 0 or more", adapt)
			}
			if learnBG && (settle == 0 || adapt != 0) {
				return fmt.Errorf("--learn-background learns from settled scenes, as in play: give --settle N, and leave out --adapt")
			}
			r, err := dice.NewReader(dice.Opts{Model: model})
			if err != nil {
				return err
			}
			defer r.Close()
			if cuts {
				if vary != "" || settle != 0 || adapt != 0 {
					return fmt.Errorf("--cut cuts the photos as they are on disk: leave out --vary, --settle and --adapt")
				}
				return benchCuts(cmd, args, r, o)
			}
			rep, err := dicebench.Bench(cmd.Context(), args, r, o)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return benchJSON(w, rep)
			}
			printBench(w, rep)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().IntVar(&maxDice, "max-dice", 0, "count photos with at most N dice in the total; report the others apart")
	cmd.Flags().StringVar(&failures, "failures", "", "write annotated pictures of photos not read exactly to this folder")
	cmd.Flags().StringVar(&vary, "vary", "", "change every photo first, as another rig would ("+strings.Join(dicebench.Variations(), ", ")+
		"; noise8@SEED: the noise of another frame; scaleK: resized by any K from 0.2 to 4, as scale0.5; jpegQ: recompressed at JPEG quality Q, as jpeg50; a+b: b after a, as blur+noise8); dice are then matched by value, not by box")
	cmd.Flags().StringVar(&model, "model", "", "score the networks in this folder (detector.onnx, face.onnx, model.json; a held-out fold's weights) instead of the built-in ones")
	cmd.Flags().IntVar(&settle, "settle", 0, "read each photo as the companion reads a still tray: settle over up to N frames of it, "+
		"each with its own sensor noise (noise8@1, @2, ...) and read averaged with the frames before it, after --vary if given; no reading agreed counts as unreadable")
	cmd.Flags().IntVar(&adapt, "adapt", 0, "learn each folder's dice from its first K photos by name (their labels standing in for the players' confirmations, as in play), make the rig's background from them (the empty tray calibration keeps) and measure the rest")
	cmd.Flags().BoolVar(&noBG, "no-background", false, "with --adapt: make no background (to see what it gives)")
	cmd.Flags().BoolVar(&learnBG, "learn-background", false, "with --settle: the reader learns each folder's background from the scenes it settles on, "+
		"the photos in name order, with no labels, as the service does without a calibration; every photo is measured")
	cmd.Flags().BoolVar(&cuts, "cut", false, "cut each photo with boxes.csv through each die (0.3, 0.5, 0.7 of it, from each side) and "+
		"count the cut photos refused, read right and misread (--failures: pictures of the misread ones)")
	return cmd
}

// benchJSON prints a bench report as indented JSON, its set names ("nell-byler<=6") as they are.
func benchJSON(w io.Writer, rep any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	e.SetEscapeHTML(false)
	return e.Encode(rep)
}

func benchCuts(cmd *cobra.Command, dirs []string, r *dice.Reader, o dicebench.BenchOpts) error {
	rep, err := dicebench.BenchCuts(cmd.Context(), dirs, r, o)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if len(rep.Sets) == 0 {
		return fmt.Errorf("bench --cut: no photo with labelled boxes in %s: --cut needs a boxes.csv (file,value,x0,y0,x1,y1)", strings.Join(dirs, ", "))
	}
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
		return benchJSON(w, rep)
	}
	fmt.Fprintln(w, "every photo cut through each die in turn")
	fmt.Fprintf(w, "%-18s %6s %8s %6s %8s %8s %8s\n", "set", "cuts", "refused", "read", "misread", "med ms", "p95 ms")
	for _, s := range append(rep.Sets, rep.Total) {
		fmt.Fprintf(w, "%-18s %6d %8d %6d %8d %8.1f %8.1f\n", s.Name, s.Cuts, s.Refused, s.Read, s.Misread, s.MedianMS, s.P95MS)
	}
	fmt.Fprintln(w, "\nrefused: reported other than read; read: every die read the value of its box;")
	fmt.Fprintln(w, "misread: reported read with a die not the value of its box")
	for _, s := range rep.Sets {
		for _, m := range s.Misreads {
			fmt.Fprintf(w, "misread in %s: %s\n", s.Name, m)
		}
	}
	return nil
}

func printBench(w io.Writer, rep dicebench.BenchReport) {
	if rep.Settle > 0 {
		fmt.Fprintf(w, "every photo settled over up to %d frames of sensor noise\n", rep.Settle)
	}
	if rep.LearnBackground {
		fmt.Fprintf(w, "each folder's background learnt from the scenes settled on, the photos in name order (%d a time)\n", dice.BackgroundScenes)
	}
	if rep.Variation != "" {
		fmt.Fprintf(w, "every photo changed first: %s\n", rep.Variation)
	}
	for _, s := range rep.Sets {
		if a := s.Adapted; a != nil {
			use := "general network"
			if a.Adaptation.Used {
				use = "rig's head"
			}
			fmt.Fprintf(w, "%s: learnt %d dice from its first %d photos in %.0f ms; reads with the %s: %s; background from %d photos\n",
				s.Name, a.Learnt, len(a.Photos), a.MS, use, a.Adaptation.Why, a.Background)
			u := a.Untaught
			fmt.Fprintf(w, "%s: untaught, the same %d photos: %.1f%% exact, %d misread, %d incomplete\n",
				s.Name, u.Photos, u.ExactPct(), u.Misread, u.Incomplete)
		}
	}
	fmt.Fprintf(w, "%-18s %6s %7s %6s %7s %7s %6s %6s %8s %8s %12s\n", "set", "photos", "exact%", "dice", "dice%", "misread", "incompl", "unread", "med ms", "p95 ms", "boxes found")
	row := func(s dicebench.BenchSet) {
		boxes := ""
		if s.Boxes > 0 {
			boxes = fmt.Sprintf("%d/%d +%d", s.BoxesHit, s.Boxes, s.FalseDice)
		}
		fmt.Fprintf(w, "%-18s %6d %7.1f %6d %7.1f %7d %6d %6d %8.1f %8.1f %12s\n", s.Name, s.Photos, s.ExactPct(), s.Dice, s.DicePct(), s.Misread, s.Incomplete, s.Unreadable, s.MedianMS, s.P95MS, boxes)
	}
	for _, s := range rep.Sets {
		row(s)
	}
	row(rep.Total)
	fmt.Fprintln(w, "\nmisread: reported read with a wrong value; incompl: reported read, values right, dice missed;")
	fmt.Fprintln(w, "unread: reported unreadable; boxes found: true dice found / labelled (+ false dice)")
	fmt.Fprintf(w, "silent: %d of the %d misread photos have as many dice as labelled; a reader told the count (the companion's 4) refuses the others\n", rep.Total.Silent, rep.Total.Misread)
	fmt.Fprintf(w, "guesses: of the %d unread photos, the dice read and the values the others leaned to are the roll in %d, one die off in %d (where the players' correction starts)\n",
		rep.Total.Unreadable, rep.Total.GuessRight, rep.Total.GuessOneOff)
	fmt.Fprintln(w, "\nconfusion (total): rows true value (0 = no such die), columns read value (0 = unreadable, 7 = missed)")
	fmt.Fprintf(w, "%5s", "")
	for j := 0; j < 8; j++ {
		fmt.Fprintf(w, "%6d", j)
	}
	fmt.Fprintln(w)
	for i, r := range rep.Total.Confusion {
		fmt.Fprintf(w, "%5d", i)
		for _, n := range r {
			fmt.Fprintf(w, "%6d", n)
		}
		fmt.Fprintln(w)
	}
	var names []string
	for _, s := range rep.Sets {
		if len(s.Failed) > 0 {
			names = append(names, fmt.Sprintf("%s: %d", s.Name, len(s.Failed)))
		}
	}
	sort.Strings(names)
	if len(names) > 0 {
		fmt.Fprintln(w, "\nphotos not read exactly:", strings.Join(names, ", "))
	}
	for _, s := range rep.Sets {
		for _, m := range s.MisreadPhotos {
			fmt.Fprintf(w, "misread in %s: %s\n", s.Name, m)
		}
	}
}
