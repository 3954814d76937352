package config

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cantstop/cantstop/engine"
)

// Config is the whole device configuration. Default returns the values a
// file with no keys gives.
type Config struct {
	Buttons Buttons
	Display Display
	Camera  Camera
	Game    Game
	Log     Log
}

// Buttons says where the four buttons are and how presses are timed.
type Buttons struct {
	Input     string        // "gpio" (the four buttons) or "keyboard" (standard input)
	Prev      int           // BCM GPIO numbers (GPIO5 = 5), buttons to ground
	Next      int           //
	OK        int           //
	Stop      int           //
	Debounce  time.Duration // contact bounce to ignore
	LongPress time.Duration // held this long = a long press (menu)
}

// Pins returns the button pins in the order Prev, Next, OK, Stop.
func (b Buttons) Pins() [4]int { return [4]int{b.Prev, b.Next, b.OK, b.Stop} }

// Display says where the screen is.
type Display struct {
	Output  string // "oled" (SSD1306 over I2C) or "terminal" (standard output)
	I2CBus  int    // N of /dev/i2c-N
	Address uint16 // 7-bit I2C address, usually 0x3C (some modules 0x3D)
	Rotated bool   // the module is mounted upside down
}

// I2CDev is the bus's device file, for messages.
func (d Display) I2CDev() string { return fmt.Sprintf("/dev/i2c-%d", d.I2CBus) }

// Camera names the frame source and the calibration profile.
type Camera struct {
	Source      string // camera.Open spec: v4l2:/dev/video0, rpicam, file:..., dir:...
	Calibration string // profile path; relative paths are in the configuration directory
	Required    bool   // false: without a camera the dice are entered with the buttons
}

// Game holds what a new game starts with.
type Game struct {
	Language string       // en it fr ru nl es de
	Players  []string     // 2 to 4 names, in seating order
	Rules    engine.Rules // rule options of RULES.md
}

// Log sets how much is logged.
type Log struct {
	Level slog.Level
}

// Languages returns the language codes a config may name: those the
// display has.
func Languages() []string { return []string{"en", "it", "fr", "ru", "nl", "es", "de"} }

// Default returns the configuration of a device wired as in hw/WIRING.md:
// buttons on GPIO5, 6, 13, 19; an SSD1306 at 0x3C on /dev/i2c-1; the first
// USB camera; English; two players (P1 red, P2 blue); the printed rules.
func Default() Config {
	return Config{
		Buttons: Buttons{Input: "gpio", Prev: 5, Next: 6, OK: 13, Stop: 19,
			Debounce: 20 * time.Millisecond, LongPress: 700 * time.Millisecond},
		Display: Display{Output: "oled", I2CBus: 1, Address: 0x3C},
		Camera:  Camera{Source: "v4l2:/dev/video0", Calibration: "calibration.json"},
		Game:    Game{Language: "en", Players: []string{"P1", "P2"}, Rules: engine.DefaultRules()},
		Log:     Log{Level: slog.LevelInfo},
	}
}

// Validate checks every value against its documented range (as Parse does,
// for a Config built in code) and what single keys cannot: values that must
// agree with each other. Parse runs the latter too and ties its errors to a line.
func (c Config) Validate() error {
	var errs []error
	for _, e := range c.problems() {
		errs = append(errs, errors.New(e.msg))
	}
	return errors.Join(errs...)
}

// problem is a cross-key error and the key it is best reported at.
type problem struct {
	section string
	keys    []string // the keys involved, as section.key
	msg     string
}

func (c Config) problems() []problem {
	var ps []problem
	// Each value, written as Format writes it, must parse back: the ranges
	// are those the keys' own checks enforce (and their comments document).
	for _, k := range keys(Checks{}) {
		text := k.get(c)
		v, err := parseValue(text)
		if err == nil {
			var scratch Config
			err = k.set(&scratch, v)
		}
		if err != nil {
			ps = append(ps, problem{k.section, []string{k.section + "." + k.name}, fmt.Sprintf("%s = %s: %v", k.name, text, err)})
		}
	}
	if c.Buttons.Input == "gpio" {
		names := []string{"prev", "next", "ok", "stop"}
		pins := c.Buttons.Pins()
		for i := range pins {
			for j := 0; j < i; j++ {
				if pins[i] == pins[j] {
					ps = append(ps, problem{"buttons", []string{"buttons." + names[j], "buttons." + names[i]}, fmt.Sprintf(
						"%s and %s are both GPIO%d: each button needs its own pin", names[j], names[i], pins[i])})
				}
			}
			if c.Display.Output == "oled" && c.Display.I2CBus == 1 && (pins[i] == 2 || pins[i] == 3) {
				ps = append(ps, problem{"buttons", []string{"buttons." + names[i], "display.output", "display.i2c_bus"}, fmt.Sprintf(
					"%s = %d: GPIO2 and GPIO3 are SDA and SCL of the display's bus /dev/i2c-1: use another pin, e.g. 26", names[i], pins[i])})
			}
		}
	}
	if c.Buttons.LongPress <= c.Buttons.Debounce {
		ps = append(ps, problem{"buttons", []string{"buttons.debounce", "buttons.long_press"}, fmt.Sprintf(
			"long_press %v is not longer than debounce %v: make it longer, e.g. 800ms", c.Buttons.LongPress, c.Buttons.Debounce)})
	}
	if err := c.Game.Rules.Validate(); err != nil {
		ps = append(ps, problem{"game", []string{"game.win_columns", "game.skip_occupied", "game.no_stop_on_occupied"}, err.Error()})
	}
	return ps
}
