package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// Config is one run of the simulated table.
type Config struct {
	Seed     uint64
	Auto     bool // automatic players instead of the keyboard
	Games    int  // Auto: games to play
	Players  int  // Auto: seats
	StateDir string
	Lang     display.Lang
	In       *os.File  // the keyboard (interactive)
	Out      io.Writer // the display
	Verbose  bool      // Auto: show every screen on Out too
	// Screen is how Out shows screens: "oled" (the OLED's pixels, half blocks),
	// "oled-compact" (Braille dots) or "text" (plain lines, whole lists); "" is "oled".
	Screen string
	// ScreensDir, when set, receives each distinct screen shown as a 128×64 PNG.
	ScreensDir string
	Log        *slog.Logger
	// Learn: the reader learns the table's dice from every roll the players play, as the
	// service does (calibration.Learner, the dice kept in StateDir).
	Learn bool
	// NewReader builds the dice reader over the table's frames; default:
	// the real dice reader (package dice) through camera.NewImageSource.
	NewReader func(t *Table) (companion.DiceReader, func(), error)
}

// Summary is what a run did.
type Summary struct {
	Seed    uint64
	Games   GameStats
	Reads   ReadStats
	Elapsed time.Duration
}

// Write prints the summary, one fact a line.
func (s Summary) Write(w io.Writer) {
	g, r := s.Games, s.Reads
	if g.Wins == nil { // interactive: only the reader's figures
		fmt.Fprintf(w, "seed %d: reads: %d, read %d, refused %d, misread %d, mean %.1f ms\n",
			s.Seed, r.Reads, r.Read, r.Unreadable, len(r.Wrong), r.MeanMS())
		return
	}
	fmt.Fprintf(w, "seed %d: %d games, %d turns, %d moves, %d busts, %d stops (%d refused) in %s\n",
		s.Seed, g.Games, g.Turns, g.Moves, g.Busts, g.Stops, g.Refused, s.Elapsed.Round(time.Millisecond))
	wins := make([]string, len(g.Wins))
	for i, n := range g.Wins {
		wins[i] = fmt.Sprintf("P%d %d", i+1, n)
	}
	if g.Draws > 0 {
		wins = append(wins, fmt.Sprintf("draws %d", g.Draws))
	}
	fmt.Fprintf(w, "winners: %s\n", strings.Join(wins, ", "))
	fmt.Fprintf(w, "reads: %d, read %d, refused %d, misread %d, mean %.1f ms\n",
		r.Reads, r.Read, r.Unreadable, len(r.Wrong), r.MeanMS())
	for _, m := range r.Wrong {
		fmt.Fprintf(w, "MISREAD %s (reproduce: cantstop play --sim --auto --seed %d)\n", m, m.Seed)
	}
}

// DefaultReader is the real dice reader looking at the table's frames,
// told where the tray is as a calibration would.
func DefaultReader(t *Table) (companion.DiceReader, func(), error) {
	cr, _, stop, err := tableReader(t)
	if err != nil {
		return nil, nil, err // not a nil *CameraReader in the interface
	}
	return cr, stop, nil
}

// tableReader is DefaultReader's camera reader and the reader inside it.
func tableReader(t *Table) (*companion.CameraReader, *dice.Reader, func(), error) {
	r, err := dice.NewReader(dice.Opts{Expect: 4, Tray: t.Tray()})
	if err != nil {
		return nil, nil, nil, err
	}
	src := camera.NewImageSource(t.Frame)
	return companion.NewCameraReader(src, r), r, func() { src.Close(); r.Close() }, nil
}

// learningReader is DefaultReader learning the table's dice, its store in dir. The automatic
// players roll at once, so the game waits for the learner when its queue is full, as players who
// take seconds a roll would never notice: nothing is dropped unlearnt.
func learningReader(ctx context.Context, dir string, log *slog.Logger) func(t *Table) (companion.DiceReader, func(), error) {
	return func(t *Table) (companion.DiceReader, func(), error) {
		path := filepath.Join(dir, calibration.LearntFile)
		store, err := calibration.LoadLearnt(path)
		if err != nil {
			return nil, nil, err
		}
		cr, r, stop, err := tableReader(t)
		if err != nil {
			return nil, nil, err
		}
		if _, err := r.Adapt(store.Examples); err != nil {
			stop()
			return nil, nil, err
		}
		if err := r.LearnBackground(dice.BackgroundScenes, store.Background); err != nil { // as the service does without a calibration
			stop()
			return nil, nil, err
		}
		l := calibration.NewLearner(path, nil, store, r, log)
		cr.Learn = func(c dice.Confirmation) {
			if err := l.AddWait(ctx, c); err != nil {
				log.Warn("dice learnt in play dropped", "err", err)
			}
		}
		return cr, func() { l.Close(); stop() }, nil
	}
}

// Play runs the simulated table until ctx ends (interactive) or the games
// are played (Auto). In Auto mode any disagreement between the dice drawn
// and the dice read is an error.
func Play(ctx context.Context, cfg Config) (Summary, error) {
	start := time.Now()
	sum := Summary{Seed: cfg.Seed}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Out == nil {
		cfg.Out = os.Stdout
	}
	if cfg.Lang == "" {
		cfg.Lang = display.English
	}
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.Players < 2 || cfg.Players > 4 {
		return sum, fmt.Errorf("--players %d: a game has 2 to 4 players", cfg.Players)
	}
	if cfg.Auto && cfg.Games < 1 {
		return sum, fmt.Errorf("--games %d: play at least one game", cfg.Games)
	}
	if cfg.StateDir == "" {
		return sum, fmt.Errorf("no state directory for the simulated table's saved games")
	}
	table := NewTable(cfg.Seed)
	newReader := cfg.NewReader
	switch {
	case newReader != nil:
	case cfg.Learn:
		newReader = learningReader(ctx, cfg.StateDir, log)
	default:
		newReader = DefaultReader
	}
	real, closeReader, err := newReader(table)
	if err != nil {
		return sum, err
	}
	defer closeReader()
	reader := &Reader{Table: table, Read: real, Log: log, SaveDir: cfg.StateDir}
	term, err := terminal(cfg)
	if err != nil {
		return sum, err
	}
	opts := companion.DefaultOptions(cfg.StateDir)
	opts.Lang, opts.Log = cfg.Lang, log
	opts.Players = companion.DefaultPlayers(cfg.Players)

	var deps companion.Deps
	var auto *Auto
	if cfg.Auto {
		auto = NewAuto(cfg.Players, cfg.Games, cfg.Seed)
		if cfg.Verbose {
			auto.Mirror = term
		}
		deps = companion.Deps{Buttons: auto, Dice: reader, Screen: auto}
	} else {
		in := cfg.In
		if in == nil {
			in = os.Stdin
		}
		kb, err := hw.OpenTerminal(in)
		if err != nil {
			return sum, fmt.Errorf("keyboard: %w", err)
		}
		defer kb.Close()
		deps = companion.Deps{Buttons: kb, Dice: reader, Screen: withHelp{term, cfg.Out, keysLine}}
	}
	if cfg.ScreensDir != "" {
		if err := os.MkdirAll(cfg.ScreensDir, 0o755); err != nil {
			return sum, fmt.Errorf("--screens: %w", err)
		}
		pngs := display.NewPNG(cfg.ScreensDir, cfg.Lang)
		pngs.Distinct = true
		deps.Screen = tee{deps.Screen, pngs}
	}
	c, err := companion.New(deps, opts)
	if err != nil {
		return sum, err
	}
	defer c.Close()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Run(runCtx) }()
	if auto != nil {
		select {
		case <-auto.Done():
			cancel()
			err = <-done
		case err = <-done:
		}
		sum.Games = auto.Stats()
	} else {
		err = <-done
	}
	sum.Reads = reader.Stats()
	sum.Elapsed = time.Since(start)
	if errors.Is(err, io.EOF) || errors.Is(err, hw.ErrInterrupt) || errors.Is(err, ErrFinished) {
		err = nil
	}
	if err != nil {
		return sum, err
	}
	if auto != nil {
		if err := auto.Err(); err != nil {
			return sum, err
		}
		if n := len(sum.Reads.Wrong); n > 0 {
			return sum, fmt.Errorf("%d readings disagree with the dice drawn; first: %s", n, sum.Reads.Wrong[0])
		}
	}
	return sum, nil
}

// terminal is the renderer cfg.Screen names.
func terminal(cfg Config) (companion.Renderer, error) {
	switch cfg.Screen {
	case "", "oled":
		return display.NewOLEDTerminal(cfg.Out, cfg.Lang, false), nil
	case "oled-compact":
		return display.NewOLEDTerminal(cfg.Out, cfg.Lang, true), nil
	case "text":
		return display.NewTerminal(cfg.Out, cfg.Lang), nil
	}
	return nil, fmt.Errorf("--screen %q: use oled (the OLED's pixels), oled-compact (Braille, 66 columns) or text", cfg.Screen)
}

// tee shows each screen on both renderers (the terminal and the PNG files).
type tee [2]companion.Renderer

func (t tee) Show(s display.Screen) error {
	err := t[0].Show(s)
	if perr := t[1].Show(s); err == nil {
		err = perr
	}
	return err
}

// keysLine is the help line under every screen of the interactive table.
const keysLine = "keys: ←/a prev · →/d next · Enter OK (roll, confirm) · s STOP · m menu (correct, undo, rules) · Ctrl-C quit"

// withHelp shows the key help under each screen.
type withHelp struct {
	r    companion.Renderer
	w    io.Writer
	help string
}

func (h withHelp) Show(s display.Screen) error {
	err := h.r.Show(s)
	fmt.Fprintf(h.w, "\r\n\x1b[2m%s\x1b[0m\r\n", h.help)
	return err
}

// Memory is the process's memory from /proc/self/status, in KiB (Linux).
type Memory struct {
	PeakRSS int // VmHWM: peak resident set
	RSS     int // VmRSS now
	Anon    int // RssAnon: the program's own heap and stacks
	File    int // RssFile: mapped files, mostly shared libraries (OpenCV)
}

// ReadMemory reads the process's memory figures.
func ReadMemory() (Memory, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return Memory{}, fmt.Errorf("memory: %w", err)
	}
	defer f.Close()
	var m Memory
	fields := map[string]*int{"VmHWM:": &m.PeakRSS, "VmRSS:": &m.RSS, "RssAnon:": &m.Anon, "RssFile:": &m.File}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "\t")
		if dst, ok := fields[k]; ok {
			*dst, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	if m.PeakRSS == 0 {
		return m, fmt.Errorf("memory: no VmHWM in /proc/self/status")
	}
	return m, sc.Err()
}
