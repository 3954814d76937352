// Package config reads the device's configuration file, cantstop.conf: the
// button pins, the display's I2C bus and address, the camera source, the
// language, the players and the rule options.
//
// The format is INI-like and a subset of TOML: [sections], key = value lines
// and # comments. Strings may be quoted ("..." or '...') or bare; lists are
// ["a", "b"] or a bare comma-separated list. Parsing is strict: an unknown
// section or key, a repeated key or a bad value is an error that names the file,
// the line and the fix, and every such error in the file is reported at once.
// Keys left out keep their defaults, which fit the wiring in hw/WIRING.md.
package config
