package config

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestRanges: every key's value outside its documented range is refused with
// an error naming the key, the value and the range.
func TestRanges(t *testing.T) {
	cases := []struct {
		file string
		want []string // fragments: key, value, range
	}{
		{"[buttons]\ninput = mouse", []string{"input = mouse", "gpio, keyboard"}},
		{"[buttons]\nprev = 28", []string{"prev = 28", "2 to 27"}},
		{"[buttons]\nnext = -1", []string{"next = -1", "2 to 27"}},
		{"[buttons]\nok = five", []string{"ok = five", "2 to 27"}},
		{"[buttons]\nstop = 0", []string{"stop = 0", "2 to 27"}},
		{"[buttons]\ndebounce = 2s", []string{"debounce = 2s", "2s is out of range", "0s to 1s"}},
		{"[buttons]\ndebounce = -5ms", []string{"debounce = -5ms", "0s to 1s"}},
		{"[buttons]\nlong_press = 50ms", []string{"long_press = 50ms", "100ms to 10s"}},
		{"[display]\noutput = hdmi", []string{"output = hdmi", "oled, terminal"}},
		{"[display]\ni2c_bus = 150", []string{"i2c_bus = 150", "bus 150 is outside 0 to 99"}},
		{"[display]\naddress = 0x02", []string{"address = 0x02", "0x03-0x77"}},
		{"[display]\nrotated = 2", []string{"rotated = 2", "true or false"}},
		{"[camera]\nsource = \"" + strings.Repeat("x", 5000) + "\"", []string{"source = ", "5000 characters, more than 4096"}},
		{"[camera]\nsource = \"v4l2:/dev/vi\\u0000deo0\"", []string{"source = ", "control character"}},
		{"[camera]\ncalibration = \"rig\\n.json\"", []string{"calibration = ", "control character"}},
		{"[camera]\ncalibration = \"" + strings.Repeat("d/", 2100) + "\"", []string{"calibration = ", "more than 4096"}},
		{"[camera]\nrequired = perhaps", []string{"required = perhaps", "true or false"}},
		{"[game]\nlanguage = xx", []string{"language = xx", "en, it, fr, ru, nl, es, de"}},
		{"[game]\nplayers = 1", []string{"players = 1", "2 to 4 players"}},
		{"[game]\nplayers = [\"Ann\", \"" + strings.Repeat("B", 200) + "\"]", []string{"players = ", "longer than 16 letters"}},
		{"[game]\nplayers = [\"Ann\", \"B\\tb\"]", []string{"players = ", "cannot show"}},
		{"[game]\nwin_columns = 2", []string{"win_columns = 2", "3, 4 or 5"}},
		{"[game]\nskip_occupied = 1", []string{"skip_occupied = 1", "true or false"}},
		{"[game]\nno_stop_on_occupied = y", []string{"no_stop_on_occupied = y", "true or false"}},
		{"[game]\nforced_placement = nope", []string{"forced_placement = nope", "true or false"}},
		{"[log]\nlevel = trace", []string{"level = trace", "debug, info, warn, error"}},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		sec, rest, _ := strings.Cut(strings.TrimPrefix(tc.file, "["), "]\n")
		k, _, _ := strings.Cut(rest, " =")
		covered[sec+"."+k] = true
		t.Run(sec+"."+k+" "+tc.want[0][:min(len(tc.want[0]), 30)], func(t *testing.T) {
			_, err := parse(t, tc.file)
			var es Errors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("want one config error, got %v", err)
			}
			if es[0].Line != 2 || !strings.Contains(es[0].Msg, "["+sec+"] ") {
				t.Errorf("error %q is not at line 2 in [%s]", es[0], sec)
			}
			for _, w := range tc.want {
				if !strings.Contains(es[0].Msg, w) {
					t.Errorf("error %q lacks %q", es[0].Msg[:min(len(es[0].Msg), 200)], w)
				}
			}
		})
	}
	for _, k := range keys(Checks{}) {
		if !covered[k.section+"."+k.name] {
			t.Errorf("key [%s] %s has no case in TestRanges", k.section, k.name)
		}
	}
}

// TestAllErrorsAtOnce: a pin conflict and the other cross-key problems are
// reported with the bad values, in line order; a conflict that involves a
// refused value (which keeps its default) is not.
func TestAllErrorsAtOnce(t *testing.T) {
	file := `[buttons]
prev = 6
next = 6
debounce = 900ms
long_press = 800ms
ok = 40
[display]
i2c_bus = 150
[game]
language = xx
players = ["Ann", "Ann"]
skip_occupied = true
no_stop_on_occupied = true
`
	_, err := parse(t, file)
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("got %v", err)
	}
	want := []struct {
		line int
		msg  string
	}{
		{3, "prev and next are both GPIO6"},
		{5, "long_press 800ms is not longer than debounce 900ms"},
		{6, "ok = 40: GPIO40 is not on the 40-pin header"},
		{8, "i2c_bus = 150"},
		{10, "language = xx"},
		{11, "named twice"},
		{13, "cannot be combined"},
	}
	if len(es) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(es), len(want), err)
	}
	for i, w := range want {
		if es[i].Line != w.line || !strings.Contains(es[i].Msg, w.msg) {
			t.Errorf("error %d = %v, want line %d: %q", i, es[i], w.line, w.msg)
		}
	}
	// ok = 40 is refused and keeps 13: no conflict is made up from it.
	_, err = parse(t, "[buttons]\nok = 40\nstop = 13\n")
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != 2 {
		t.Fatalf("got %v", err)
	}
}

// TestValidateRanges: a Config built in code is checked against the same ranges.
func TestValidateRanges(t *testing.T) {
	cases := []struct {
		edit func(c *Config)
		want string
	}{
		{func(c *Config) {}, ""},
		{func(c *Config) { c.Buttons.Input = "mouse" }, `input = "mouse": not one of gpio, keyboard`},
		{func(c *Config) { c.Buttons.Prev = 40 }, "prev = 40: GPIO40 is not on the 40-pin header: use a BCM number 2 to 27"},
		{func(c *Config) { c.Buttons.Debounce = 2 * time.Second }, `debounce = "2s": 2s is out of range: use 0s to 1s`},
		{func(c *Config) { c.Display.I2CBus = 100 }, "i2c_bus = 100: bus 100 is outside 0 to 99"},
		{func(c *Config) { c.Display.Address = 0x90 }, "address = 0x90: i2c address is outside 0x03-0x77"},
		{func(c *Config) { c.Display.Output = "" }, `output = "": not one of oled, terminal`},
		{func(c *Config) { c.Camera.Calibration = "a\x00b" }, "control character"},
		{func(c *Config) { c.Game.Language = "xx" }, `language = "xx": not one of en, it, fr, ru, nl, es, de`},
		{func(c *Config) { c.Game.Players = []string{"Ann"} }, `players = ["Ann"]: 1 players named`},
		{func(c *Config) { c.Game.Rules.WinColumns = 9 }, "win_columns = 9: not a rule: write 3, 4 or 5"},
		{func(c *Config) { c.Log.Level = slog.Level(12) }, "level = "},
	}
	for _, tc := range cases {
		c := Default()
		tc.edit(&c)
		err := c.Validate()
		if tc.want == "" {
			if err != nil {
				t.Errorf("default: %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}
