package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// key is one setting: where it lives, what the file says about it, how a
// value is parsed into a Config and how it is written back.
type key struct {
	section, name string
	doc           []string // comment lines written above the key
	set           func(c *Config, v value) error
	get           func(c Config) string
}

// sections lists the sections in file order, with the comment above each.
func sections() []struct{ name, doc string } {
	return []struct{ name, doc string }{
		{"buttons", "The four buttons, each between a GPIO pin and ground (internal pull-ups).\n" +
			"Pins are BCM GPIO numbers (GPIO5 is physical pin 29), not header pin numbers."},
		{"display", "The 128x64 SSD1306 OLED on I2C (VCC 3.3V, GND, SDA GPIO2, SCL GPIO3)."},
		{"camera", "The camera over the dice tray."},
		{"game", "What a new game starts with. A game in progress keeps its own players and rules."},
		{"log", "Logging (to the journal under systemd, else to standard error)."},
	}
}

// keys returns every setting, in file order.
func keys(ch Checks) []key {
	return []key{
		{"buttons", "input", []string{"gpio (the four buttons) or keyboard (standard input, for a desktop or SSH)"},
			func(c *Config, v value) error {
				s, err := v.oneOf("gpio", "keyboard")
				c.Buttons.Input = s
				return err
			}, func(c Config) string { return quote(c.Buttons.Input) }},
		pinKey("prev", "previous choice", func(c *Config) *int { return &c.Buttons.Prev }),
		pinKey("next", "next choice", func(c *Config) *int { return &c.Buttons.Next }),
		pinKey("ok", "read the dice / confirm the highlighted choice", func(c *Config) *int { return &c.Buttons.OK }),
		pinKey("stop", "bank the turn", func(c *Config) *int { return &c.Buttons.Stop }),
		durationKey("buttons", "debounce", "contact bounce to ignore", 0, time.Second,
			func(c *Config) *time.Duration { return &c.Buttons.Debounce }),
		durationKey("buttons", "long_press", "hold this long for a long press (menu: correct dice, undo, rules, new game)",
			100*time.Millisecond, 10*time.Second, func(c *Config) *time.Duration { return &c.Buttons.LongPress }),

		{"display", "output", []string{"oled (the SSD1306) or terminal (standard output, for a desktop or SSH)"},
			func(c *Config, v value) error {
				s, err := v.oneOf("oled", "terminal")
				c.Display.Output = s
				return err
			}, func(c Config) string { return quote(c.Display.Output) }},
		{"display", "i2c_bus", []string{"N of /dev/i2c-N, 0 to 99; the header's SDA/SCL pins are bus 1"},
			func(c *Config, v value) error {
				s := strings.TrimPrefix(v.text, "/dev/i2c-")
				n, err := strconv.Atoi(s)
				if err != nil {
					return errors.New("not a bus number: write it like 1 (for /dev/i2c-1)")
				}
				if n < 0 || n > 99 {
					return fmt.Errorf("bus %d is outside 0 to 99: write it like 1 (for /dev/i2c-1)", n)
				}
				c.Display.I2CBus = n
				return nil
			}, func(c Config) string { return strconv.Itoa(c.Display.I2CBus) }},
		{"display", "address", []string{"7-bit I2C address, 0x03 to 0x77: 0x3C on most modules, 0x3D on some (i2cdetect -y 1 shows it)"},
			func(c *Config, v value) error {
				n, err := strconv.ParseUint(v.text, 0, 16)
				if err != nil {
					return errors.New("i2c address is not a number: write it like 0x3C")
				}
				if n < 0x03 || n > 0x77 {
					return errors.New("i2c address is outside 0x03-0x77: an SSD1306 is at 0x3C or 0x3D")
				}
				c.Display.Address = uint16(n)
				return nil
			}, func(c Config) string { return fmt.Sprintf("0x%02X", c.Display.Address) }},
		boolKey("display", "rotated", "the module is mounted upside down", func(c *Config) *bool { return &c.Display.Rotated }),

		{"camera", "source", []string{
			"v4l2:/dev/video0 (USB webcam), rpicam (Pi Camera Module 2/3 via rpicam-vid),",
			"rpicam:1280x960, gst:PIPELINE, file:roll.jpg, dir:photos/, video:roll.mp4,",
			"or none (no camera: the dice are entered with the buttons); at most 4096 characters"},
			func(c *Config, v value) error {
				if err := checkText(v.text); err != nil {
					return err
				}
				if err := checkSource(v.text); err != nil {
					return err
				}
				if v.text != "none" && ch.Source != nil {
					if err := ch.Source(v.text); err != nil {
						return err
					}
				}
				c.Camera.Source = v.text
				return nil
			}, func(c Config) string { return quote(c.Camera.Source) }},
		{"camera", "calibration", []string{"calibration profile written by cantstop calibrate; relative to this file's folder; at most 4096 characters"},
			func(c *Config, v value) error {
				if err := checkText(v.text); err != nil {
					return err
				}
				c.Camera.Calibration = v.text
				return nil
			}, func(c Config) string { return quote(c.Camera.Calibration) }},
		boolKey("camera", "required", "refuse to start without a working camera (false: the dice are entered with the buttons)",
			func(c *Config) *bool { return &c.Camera.Required }),

		{"game", "language", []string{strings.Join(Languages(), ", ")},
			func(c *Config, v value) error {
				s, err := v.oneOf(Languages()...)
				c.Game.Language = s
				return err
			}, func(c Config) string { return quote(c.Game.Language) }},
		{"game", "players", []string{"2 to 4 names of 1 to 16 letters in seating order, or a number of players 2 to 4 (P1, P2, ...);", "colours go red, blue, green, yellow"},
			setPlayers, func(c Config) string {
				q := make([]string, len(c.Game.Players))
				for i, p := range c.Game.Players {
					q[i] = quote(p)
				}
				return "[" + strings.Join(q, ", ") + "]"
			}},
		{"game", "win_columns", []string{"columns to claim to win: 3 (printed rules), 4 or 5"},
			func(c *Config, v value) error {
				n, err := strconv.Atoi(v.text)
				if err != nil || n < 3 || n > 5 {
					return errors.New("not a rule: write 3, 4 or 5")
				}
				c.Game.Rules.WinColumns = n
				return nil
			}, func(c Config) string { return strconv.Itoa(c.Game.Rules.WinColumns) }},
		boolKey("game", "skip_occupied", "runners jump over spaces held by other players (Sackson's jump)",
			func(c *Config) *bool { return &c.Game.Rules.SkipOccupied }),
		boolKey("game", "no_stop_on_occupied", "a player may not stop with a runner on another player's piece",
			func(c *Config) *bool { return &c.Game.Rules.NoStopOnOccupied }),
		boolKey("game", "forced_placement", "a roll must place as many new runners as it can",
			func(c *Config) *bool { return &c.Game.Rules.ForcedPlacement }),

		{"log", "level", []string{"debug, info, warn or error"},
			func(c *Config, v value) error {
				s, err := v.oneOf("debug", "info", "warn", "error")
				if err == nil {
					err = c.Log.Level.UnmarshalText([]byte(s))
				}
				return err
			}, func(c Config) string { return quote(strings.ToLower(c.Log.Level.String())) }},
	}
}

func pinKey(name, what string, field func(c *Config) *int) key {
	return key{"buttons", name, []string{"GPIO of the " + strings.ToUpper(name) + " button (BCM 2 to 27): " + what},
		func(c *Config, v value) error {
			s := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(v.text), "GPIO"), "BCM")
			n, err := strconv.Atoi(s)
			if err != nil {
				return errors.New("not a GPIO number: write the BCM number 2 to 27, like 5 for GPIO5")
			}
			if n < 0 || n > 27 {
				return fmt.Errorf("GPIO%d is not on the 40-pin header: use a BCM number 2 to 27", n)
			}
			if n <= 1 {
				return fmt.Errorf("GPIO%d is reserved for the HAT ID EEPROM: use a BCM number 2 to 27", n)
			}
			*field(c) = n
			return nil
		}, func(c Config) string { return strconv.Itoa(*field(&c)) }}
}

func durationKey(section, name, doc string, min, max time.Duration, field func(c *Config) *time.Duration) key {
	return key{section, name, []string{fmt.Sprintf("%s, %v to %v, like 30ms or 1s", doc, min, max)},
		func(c *Config, v value) error {
			d, err := time.ParseDuration(v.text)
			if err != nil {
				if _, nerr := strconv.ParseFloat(v.text, 64); nerr == nil {
					return fmt.Errorf("no unit: write it like %sms", v.text)
				}
				return errors.New("not a duration: write it like 30ms or 1s")
			}
			if d < min || d > max {
				return fmt.Errorf("%v is out of range: use %v to %v", d, min, max)
			}
			*field(c) = d
			return nil
		}, func(c Config) string { return quote(field(&c).String()) }}
}

func boolKey(section, name, doc string, field func(c *Config) *bool) key {
	return key{section, name, []string{"true or false: " + doc},
		func(c *Config, v value) error {
			switch strings.ToLower(v.text) {
			case "true", "yes", "on":
				*field(c) = true
			case "false", "no", "off":
				*field(c) = false
			default:
				return errors.New("write true or false")
			}
			return nil
		}, func(c Config) string { return strconv.FormatBool(*field(&c)) }}
}

func setPlayers(c *Config, v value) error {
	names := v.list
	if !v.isList && !strings.Contains(v.text, ",") {
		if n, err := strconv.Atoi(v.text); err == nil {
			if n < 2 || n > 4 {
				return errors.New("Can't Stop is for 2 to 4 players")
			}
			names = nil
			for i := 1; i <= n; i++ {
				names = append(names, fmt.Sprintf("P%d", i))
			}
			c.Game.Players = names
			return nil
		}
	}
	if len(names) < 2 || len(names) > 4 {
		return fmt.Errorf("%d players named: Can't Stop is for 2 to 4 players, write e.g. [\"Ann\", \"Bob\"]", len(names))
	}
	seen := map[string]bool{}
	for _, n := range names {
		switch {
		case n == "":
			return errors.New("an empty name: write e.g. [\"Ann\", \"Bob\"]")
		case len([]rune(n)) > 16:
			return fmt.Errorf("%q is longer than 16 letters, too wide for the display: shorten it", n)
		case strings.IndexFunc(n, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 || !utf8.ValidString(n):
			return fmt.Errorf("%q has a character the display cannot show: use letters, digits and spaces", n)
		case seen[strings.ToLower(n)]:
			return fmt.Errorf("%q is named twice: give each player a different name", n)
		}
		seen[strings.ToLower(n)] = true
	}
	c.Game.Players = append([]string(nil), names...)
	return nil
}

// maxText is the longest path or source spec (PATH_MAX).
const maxText = 4096

// checkText refuses text no path or source spec holds.
func checkText(s string) error {
	switch {
	case len(s) > maxText:
		return fmt.Errorf("%d characters, more than %d", len(s), maxText)
	case !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0:
		return errors.New("holds a control character or is not UTF-8 text: write a plain path or source")
	}
	return nil
}

// checkSource catches what is plainly not a camera source; the camera
// package's own syntax is checked through Checks.Source.
func checkSource(s string) error {
	if strings.HasPrefix(s, "none:") {
		return errors.New("none takes nothing after it: write none")
	}
	return nil
}
