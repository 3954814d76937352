// Package config reads the device's configuration file, cantstop.conf. It holds the button
// pins, the display's I2C bus and address, the camera source and calibration profile, the
// language, the players and the rule options, with their defaults and allowed ranges.
//
//	loc := config.Locate(flagPath, os.Getenv) // --config, $CONFIGURATION_DIRECTORY, /etc/cantstop, ~/.config
//	cfg, found, err := loc.Load(config.Checks{Source: checkSpec})
//	if err != nil { ... } // every mistake in the file at once: file:line, key, allowed range, fix
//	fmt.Print(config.Format(cfg)) // the effective configuration (cantstop config show)
//
// The format is INI-like and a subset of TOML: [sections], key = value lines
// and # comments. Strings may be quoted ("..." or '...') or bare; lists are
// ["a", "b"] or a bare comma-separated list. Parsing is strict: an unknown
// section or key, a repeated key or a bad value is an error that names the file,
// the line, the allowed range and the fix, and every such error in the file is
// reported at once (Errors). Keys left out keep their defaults, which fit the
// wiring in hw/WIRING.md.
package config
