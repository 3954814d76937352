package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/cantstop/cantstop/companion/sim"
	"github.com/cantstop/cantstop/display"
)

// companionCmds returns the commands owned by the companion loop: play.
func companionCmds() []*cobra.Command { return []*cobra.Command{newPlayCmd()} }

func newPlayCmd() *cobra.Command {
	var (
		simFlag, auto, stats, verbose bool
		learn                         bool
		seed                          uint64
		games, players                int
		stateDir, lang, logLevel      string
		screen, screens               string
	)
	cmd := &cobra.Command{
		Use:   "play --sim",
		Short: "Play on a simulated table: random dice drawn as camera frames, the keyboard as buttons",
		Long: `play runs the companion's game loop on a simulated table: dice are rolled at random,
drawn as synthetic camera frames and read by the real dice reader; the keyboard stands in
for the four buttons and the terminal for the display, drawn pixel for pixel as the OLED
shows it (--screen). The game is saved in --state-dir after every action and resumes there.

With --auto, automatic players play --games complete games unattended and a summary is
printed; the command fails if any dice read differ from the dice drawn.`,
		Example: `  cantstop play --sim
  cantstop play --sim --lang fr --screen oled-compact
  cantstop play --sim --auto --lang ru --screens /tmp/screens-ru   # every screen a game shows, as PNGs
  cantstop play --sim --auto --seed 7 --games 20 --players 3 --stats
  cantstop play --sim --auto --seed 4 --games 3 --learn   # the reader learns the drawn dice as it plays`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !simFlag {
				return fmt.Errorf("play needs --sim (the device itself runs with 'cantstop run')")
			}
			l, err := display.ParseLang(lang)
			if err != nil {
				return fmt.Errorf("--lang: %w", err)
			}
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level %q: use debug, info, warn or error", logLevel)
			}
			if !cmd.Flags().Changed("seed") {
				seed = uint64(os.Getpid())
			}
			tmp := ""
			if stateDir == "" {
				if auto {
					if tmp, err = os.MkdirTemp("", "cantstop-sim-"); err != nil {
						return fmt.Errorf("state directory: %w", err)
					}
					defer os.RemoveAll(tmp)
					stateDir = tmp
				} else if stateDir, err = defaultSimStateDir(); err != nil {
					return err
				}
			}
			// Logs go to stderr in auto mode; interactively to a file, so they do not tear the screen.
			logOut := os.Stderr
			if !auto {
				if err := os.MkdirAll(stateDir, 0o750); err != nil {
					return fmt.Errorf("state directory %s: %w", stateDir, err)
				}
				f, err := os.OpenFile(filepath.Join(stateDir, "sim.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
				if err != nil {
					return fmt.Errorf("log file: %w", err)
				}
				defer f.Close()
				logOut = f
			}
			log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: level}))
			if auto {
				fmt.Fprintf(cmd.OutOrStdout(), "simulated table: seed %d, %d games, %d players\n", seed, games, players)
			}
			sum, err := sim.Play(cmd.Context(), sim.Config{Seed: seed, Auto: auto, Games: games, Players: players,
				StateDir: stateDir, Lang: l, In: os.Stdin, Out: cmd.OutOrStdout(), Verbose: verbose, Log: log,
				Screen: fitScreen(screen, os.Stdout), ScreensDir: screens, Learn: learn})
			if auto || sum.Reads.Reads > 0 {
				sum.Write(cmd.OutOrStdout())
			}
			if stats {
				if m, perr := sim.ReadMemory(); perr == nil {
					mb := func(kb int) float64 { return float64(kb) / 1024 }
					fmt.Fprintf(cmd.OutOrStdout(), "memory: peak RSS (VmHWM) %.1f MB; now RSS %.1f MB = %.1f MB own (RssAnon) + %.1f MB mapped files (RssFile: the binary and its shared libraries)\n",
						mb(m.PeakRSS), mb(m.RSS), mb(m.Anon), mb(m.File))
				}
			}
			if !auto {
				fmt.Fprintf(cmd.OutOrStdout(), "game saved in %s (log: sim.log)\n", stateDir)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVar(&simFlag, "sim", false, "simulated table (required)")
	f.BoolVar(&auto, "auto", false, "automatic players; play --games games and print a summary")
	f.Uint64Var(&seed, "seed", 0, "seed of the dice and the automatic players (default: the process id)")
	f.IntVar(&games, "games", 1, "games to play with --auto")
	f.IntVar(&players, "players", 2, "players with --auto (2-4)")
	f.StringVar(&stateDir, "state-dir", "", "where games are saved (default: a temporary directory with --auto, else the user's state directory)")
	f.StringVar(&lang, "lang", "en", "display language: "+langList())
	f.BoolVar(&learn, "learn", false, "the reader learns the table's dice from every roll played, as the device does (kept in --state-dir)")
	f.BoolVar(&stats, "stats", false, "print the peak memory (RSS) at the end")
	f.BoolVarP(&verbose, "verbose", "v", false, "with --auto, show every screen")
	f.StringVar(&screen, "screen", "auto", "how the terminal shows screens: oled (the OLED's 128×64 pixels, 130 columns), oled-compact (Braille, 66 columns), text, or auto (the largest that fits the terminal)")
	f.StringVar(&screens, "screens", "", "save each distinct screen shown as a 128×64 PNG in this folder")
	f.StringVar(&logLevel, "log-level", "warn", "log level: debug, info, warn, error")
	return cmd
}

func langList() string {
	s := ""
	for i, l := range display.Languages() {
		if i > 0 {
			s += ", "
		}
		s += string(l)
	}
	return s
}

// defaultSimStateDir is $XDG_STATE_HOME/cantstop/sim (~/.local/state/cantstop/sim).
func defaultSimStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "cantstop", "sim"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no --state-dir and no home directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "cantstop", "sim"), nil
}

// fitScreen resolves --screen auto: the OLED's pixels at full size when the
// terminal has 130 columns and 37 lines (the screen, its border, the key
// help), in Braille when 66 and 21, else text (also when the output is no terminal).
func fitScreen(screen string, out *os.File) string {
	if screen != "auto" {
		return screen
	}
	w, h, err := term.GetSize(int(out.Fd()))
	switch {
	case err != nil:
		return "text"
	case w >= display.Width+2 && h >= display.Height/2+5:
		return "oled"
	case w >= display.Width/2+2 && h >= display.Height/4+5:
		return "oled-compact"
	}
	return "text"
}
