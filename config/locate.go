package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the configuration file's name in its directory.
const FileName = "cantstop.conf"

// SystemPath is where the package installs the configuration.
const SystemPath = "/etc/cantstop/" + FileName

// Location is the configuration file a program reads and how it was chosen.
type Location struct {
	Path     string
	Explicit bool // named by the user (--config): it must exist
	Why      string
}

// Locate picks the configuration file: the --config flag; else
// $CONFIGURATION_DIRECTORY/cantstop.conf (set by systemd's
// ConfigurationDirectory=); else /etc/cantstop/cantstop.conf if it exists; else
// cantstop/cantstop.conf in the user's config directory if it exists; else
// /etc/cantstop/cantstop.conf (missing: defaults). getenv is os.Getenv in
// programs.
func Locate(flag string, getenv func(string) string) Location {
	if flag != "" {
		return Location{Path: flag, Explicit: true, Why: "--config"}
	}
	if d := getenv("CONFIGURATION_DIRECTORY"); d != "" {
		first, _, _ := strings.Cut(d, ":") // systemd lists several directories with colons
		return Location{Path: filepath.Join(first, FileName), Why: "$CONFIGURATION_DIRECTORY"}
	}
	if exists(SystemPath) {
		return Location{Path: SystemPath, Why: "system"}
	}
	if d := userConfigDir(getenv); d != "" {
		if p := filepath.Join(d, "cantstop", FileName); exists(p) {
			return Location{Path: p, Why: "user"}
		}
	}
	return Location{Path: SystemPath, Why: "default location"}
}

// Load reads the configuration at l. A missing file that the user did not
// name gives the defaults and found = false, so the caller can log it.
func (l Location) Load(ch Checks) (c Config, found bool, err error) {
	c, err = Load(l.Path, ch)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		if l.Explicit {
			return Default(), false, fmt.Errorf("config file %s does not exist: check the --config path, or leave --config out to use the defaults", l.Path)
		}
		return Default(), false, nil
	}
	if err != nil && errors.Is(err, fs.ErrPermission) {
		return c, false, fmt.Errorf("%w: make it readable by the user running cantstop (sudo chmod 644 %s)", err, l.Path)
	}
	return c, err == nil, err
}

// CalibrationPath resolves the calibration profile's path: a relative name is
// in the configuration file's directory.
func (c Config) CalibrationPath(configPath string) string {
	p := c.Camera.Calibration
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(configPath), p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// userConfigDir is os.UserConfigDir through getenv.
func userConfigDir(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config")
	}
	return ""
}
