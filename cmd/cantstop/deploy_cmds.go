package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/config"
)

// deployCmds returns the commands that run and check the device: run (the
// systemd service's entry point), config, doctor and version.
func deployCmds() []*cobra.Command {
	return []*cobra.Command{runCmd(), configCmd(), doctorCmd(), versionCmd()}
}

// deviceFlags are the flags of the commands that use the device's files.
type deviceFlags struct {
	config   string
	stateDir string
}

func (f *deviceFlags) add(cmd *cobra.Command, stateDir bool) {
	cmd.Flags().StringVar(&f.config, "config", "",
		"configuration file (default: $CONFIGURATION_DIRECTORY/cantstop.conf, else /etc/cantstop/cantstop.conf, else ~/.config/cantstop/cantstop.conf)")
	if stateDir {
		cmd.Flags().StringVar(&f.stateDir, "state-dir", "",
			"directory for saved games (default: $STATE_DIRECTORY, set by systemd to /var/lib/cantstop)")
	}
}

// location picks the configuration file.
func (f *deviceFlags) location() config.Location { return config.Locate(f.config, os.Getenv) }

// state returns the saved-game directory: --state-dir, else $STATE_DIRECTORY.
func (f *deviceFlags) state() string {
	if f.stateDir != "" {
		return f.stateDir
	}
	first, _, _ := strings.Cut(os.Getenv("STATE_DIRECTORY"), ":")
	return first
}

// configChecks adds the camera package's own source syntax to the config's checks.
func configChecks() config.Checks {
	return config.Checks{Source: func(s string) error {
		_, err := camera.ParseSpec(s)
		return err
	}}
}
