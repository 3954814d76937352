package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/sdlog"
	"github.com/cantstop/cantstop/service"
)

func runCmd() *cobra.Command {
	var f deviceFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the table companion on the device (the systemd service's command)",
		Long: `run is the appliance: it reads the configuration, opens the camera, the buttons and
the display, resumes the saved game and plays until stopped. Under systemd it reports
ready, feeds the watchdog while the game loop answers, and logs to the journal.

Without a working camera it still runs: the dice are entered with the buttons
(unless [camera] required = true).`,
		Example: `  sudo systemctl start cantstop          # as installed by the package
  cantstop run --config my.conf --state-dir ~/games
  journalctl -u cantstop -f              # follow the service's log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			level := new(slog.LevelVar)
			w := cmd.ErrOrStderr()
			file, isFile := w.(*os.File)
			log := sdlog.New(w, level, isFile && sdlog.UnderJournal(os.Getenv("JOURNAL_STREAM"), file))
			err := run(cmd, &f, level, log)
			if err != nil {
				log.Error("cantstop run failed", "err", err)
				service.Systemd("STATUS=failed: " + err.Error())
			}
			return err
		},
	}
	f.add(cmd, true)
	return cmd
}

func run(cmd *cobra.Command, f *deviceFlags, level *slog.LevelVar, log *slog.Logger) error {
	ctx := cmd.Context()
	loc := f.location()
	cfg, found, err := loc.Load(configChecks())
	if err != nil {
		return fmt.Errorf("configuration (fix it, then check with cantstop config check %s):\n%w", loc.Path, err)
	}
	level.Set(cfg.Log.Level)
	if found {
		log.Info("configuration loaded", "path", loc.Path)
	} else {
		log.Info("no configuration file: using the defaults", "path", loc.Path)
	}
	stateDir := f.state()
	if stateDir == "" {
		stateDir = userStateDir()
	}
	if stateDir == "" {
		return errors.New("no directory for saved games: pass --state-dir DIR (systemd sets $STATE_DIRECTORY)")
	}
	if err := os.MkdirAll(stateDir, 0o750); err != nil {
		return fmt.Errorf("saved-game directory: %w", err)
	}
	lang, err := display.ParseLang(cfg.Game.Language)
	if err != nil {
		return fmt.Errorf("[game] language: %w", err)
	}

	var open closers
	defer func() {
		if err := open.Close(); err != nil {
			log.Warn("closing devices", "err", err)
		}
	}()
	screen, sc, err := openScreen(cfg, cmd.OutOrStdout(), lang)
	if err != nil {
		return err
	}
	open.add(sc.Close)
	buttons, bc, err := openButtons(cfg, cmd.InOrStdin(), log)
	if err != nil {
		return err
	}
	open.add(bc.Close)
	service.Systemd("STATUS=opening the camera " + cfg.Camera.Source)
	rig := &diceRig{}
	rig.dr, rig.c, err = openDice(ctx, cfg, profilePath(cfg, loc.Path, stateDir), learntPath(stateDir), cameraWait, log)
	if err != nil {
		return err
	}
	open.add(rig.Close)

	deps := companion.Deps{Buttons: buttons, Dice: rig.dr, Screen: screen, Log: log}
	if cfg.Camera.Source != "none" {
		cal := &menuCalibrator{cfg: cfg, configPath: loc.Path, state: stateDir, screen: screen, rig: rig, log: log}
		deps.Calibrate = cal.calibrate
	}
	c, err := companion.New(deps,
		companion.Options{StateDir: stateDir, Lang: lang, Players: players(cfg), Rules: cfg.Game.Rules, Log: log})
	if err != nil {
		return err
	}
	open.add(c.Close)

	camera := cfg.Camera.Source
	if rr, ok := rig.dr.(*companion.ReopenReader); ok && rr.Current() == nil {
		camera += " (not open: dice entered with the buttons until it opens)"
	} else if rig.dr == nil {
		camera = "none (dice entered with the buttons)"
	}
	log.Info("companion running", "state_dir", stateDir, "camera", camera, "display", cfg.Display.Output,
		"buttons", cfg.Buttons.Input, "language", lang)
	wd := service.WatchdogInterval()
	return service.Run(ctx, c, service.Systemd, service.Options{
		Watchdog: wd, Log: log, Status: "playing; camera " + camera})
}

// players turns the config's names into seats, coloured in order.
func players(c config.Config) []display.Player {
	ps := companion.DefaultPlayers(len(c.Game.Players))
	for i := range ps {
		ps[i].Name = c.Game.Players[i]
	}
	return ps
}

// userStateDir is where run keeps games outside systemd:
// $XDG_STATE_HOME/cantstop or ~/.local/state/cantstop.
func userStateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "cantstop")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "cantstop")
	}
	return ""
}
