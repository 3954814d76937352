package config

import (
	"errors"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/engine"
)

var update = flag.Bool("update", false, "rewrite golden files and ../systemd/cantstop.conf")

func parse(t *testing.T, text string) (Config, error) {
	t.Helper()
	return Parse("cantstop.conf", strings.NewReader(text))
}

func TestDefaultsFitWiring(t *testing.T) {
	c, err := parse(t, "")
	if err != nil {
		t.Fatalf("empty file: %v", err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("empty file gives %+v, want defaults %+v", c, Default())
	}
	// hw/WIRING.md: Prev GPIO5, Next GPIO6, OK GPIO13, Stop GPIO19; SSD1306 at 0x3C on /dev/i2c-1.
	if got := c.Buttons.Pins(); got != [4]int{5, 6, 13, 19} {
		t.Errorf("default pins %v, want [5 6 13 19]", got)
	}
	if c.Display.I2CDev() != "/dev/i2c-1" || c.Display.Address != 0x3C {
		t.Errorf("default display %s 0x%X, want /dev/i2c-1 0x3C", c.Display.I2CDev(), c.Display.Address)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
}

// TestEveryKey sets each key to a non-default value and checks the field.
func TestEveryKey(t *testing.T) {
	focus := func(f func(c *Config)) Config { c := Default(); f(&c); return c }
	cases := []struct {
		file string
		want Config
	}{
		{"[buttons]\ninput = keyboard", focus(func(c *Config) { c.Buttons.Input = "keyboard" })},
		{"[buttons]\nprev = 17", focus(func(c *Config) { c.Buttons.Prev = 17 })},
		{"[buttons]\nnext = GPIO22", focus(func(c *Config) { c.Buttons.Next = 22 })},
		{"[buttons]\nok = \"gpio23\"", focus(func(c *Config) { c.Buttons.OK = 23 })},
		{"[buttons]\nstop = 26 # beside ground pin 39", focus(func(c *Config) { c.Buttons.Stop = 26 })},
		{"[buttons]\ndebounce = 50ms", focus(func(c *Config) { c.Buttons.Debounce = 50 * time.Millisecond })},
		{"[buttons]\nlong_press = \"1.5s\"", focus(func(c *Config) { c.Buttons.LongPress = 1500 * time.Millisecond })},
		{"[display]\noutput = terminal", focus(func(c *Config) { c.Display.Output = "terminal" })},
		{"[display]\ni2c_bus = 3", focus(func(c *Config) { c.Display.I2CBus = 3 })},
		{"[display]\ni2c_bus = /dev/i2c-4", focus(func(c *Config) { c.Display.I2CBus = 4 })},
		{"[display]\naddress = 0x3d", focus(func(c *Config) { c.Display.Address = 0x3D })},
		{"[display]\naddress = 61", focus(func(c *Config) { c.Display.Address = 0x3D })},
		{"[display]\nrotated = true", focus(func(c *Config) { c.Display.Rotated = true })},
		{"[camera]\nsource = rpicam", focus(func(c *Config) { c.Camera.Source = "rpicam" })},
		{"[camera]\nsource = \"rpicam:1280x960\"", focus(func(c *Config) { c.Camera.Source = "rpicam:1280x960" })},
		{"[camera]\nsource = 'file:C:\\rolls\\a.jpg'", focus(func(c *Config) { c.Camera.Source = `file:C:\rolls\a.jpg` })},
		{"[camera]\nsource = \"gst:libcamerasrc ! videoconvert ! appsink\"", focus(func(c *Config) {
			c.Camera.Source = "gst:libcamerasrc ! videoconvert ! appsink"
		})},
		{"[camera]\nsource = none", focus(func(c *Config) { c.Camera.Source = "none" })},
		{"[camera]\ncalibration = /var/lib/rig.json", focus(func(c *Config) { c.Camera.Calibration = "/var/lib/rig.json" })},
		{"[camera]\nrequired = yes", focus(func(c *Config) { c.Camera.Required = true })},
		{"[game]\nlanguage = ru", focus(func(c *Config) { c.Game.Language = "ru" })},
		{"[game]\nplayers = [\"Ann\", \"Bob\", \"Cé\"]", focus(func(c *Config) { c.Game.Players = []string{"Ann", "Bob", "Cé"} })},
		{"[game]\nplayers = Ann, Bob , Сергей", focus(func(c *Config) { c.Game.Players = []string{"Ann", "Bob", "Сергей"} })},
		{"[game]\nplayers = 4", focus(func(c *Config) {
			c.Game.Players = []string{"P1", "P2", "P3", "P4"}
		})},
		{"[game]\nplayers = [\"A, B\", 'C#1']", focus(func(c *Config) { c.Game.Players = []string{"A, B", "C#1"} })},
		{"[game]\nwin_columns = 4", focus(func(c *Config) { c.Game.Rules.WinColumns = 4 })},
		{"[game]\nskip_occupied = true", focus(func(c *Config) { c.Game.Rules.SkipOccupied = true })},
		{"[game]\nno_stop_on_occupied = on", focus(func(c *Config) { c.Game.Rules.NoStopOnOccupied = true })},
		{"[game]\nforced_placement = true", focus(func(c *Config) { c.Game.Rules.ForcedPlacement = true })},
		{"[log]\nlevel = debug", focus(func(c *Config) { c.Log.Level = slog.LevelDebug })},
		{"[log]\nlevel = error", focus(func(c *Config) { c.Log.Level = slog.LevelError })},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.file, "\n", " "), func(t *testing.T) {
			got, err := parse(t, tc.file)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
		sec := strings.Trim(strings.SplitN(tc.file, "\n", 2)[0], "[]")
		k, _, _ := strings.Cut(strings.SplitN(tc.file, "\n", 2)[1], "=")
		covered[sec+"."+strings.TrimSpace(k)] = true
	}
	for _, k := range keys(Checks{}) {
		if !covered[k.section+"."+k.name] {
			t.Errorf("key [%s] %s has no case in TestEveryKey", k.section, k.name)
		}
	}
}

// TestBadValues checks that each bad value is refused at its line with a fix.
func TestBadValues(t *testing.T) {
	cases := []struct {
		file string
		line int
		want string // fragments of the message, in order
	}{
		{"[display]\n\n# the OLED\n\n\n\naddress = 0x3G", 7, "[display] address = 0x3G: i2c address is not a number: write it like 0x3C"},
		{"[display]\naddress = 0x80", 2, "outside 0x03-0x77"},
		{"[display]\naddress =", 2, "has no value: write address = 0x3C"},
		{"[display]\ni2c_bus = i2c1", 2, "write it like 1"},
		{"[display]\noutput = lcd", 2, "output = lcd: not one of oled, terminal"},
		{"[display]\noutput = olde", 2, `did you mean "oled"?`},
		{"[display]\nrotated = maybe", 2, "rotated = maybe: write true or false"},
		{"[buttons]\nprev = 40", 2, "GPIO40 is not on the 40-pin header"},
		{"[buttons]\nprev = pin29", 2, "prev = pin29: not a GPIO number: write the BCM number"},
		{"[buttons]\nok = 1", 2, "reserved for the HAT ID EEPROM"},
		{"[buttons]\ndebounce = 20", 2, "debounce = 20: no unit: write it like 20ms"},
		{"[buttons]\ndebounce = soon", 2, "not a duration"},
		{"[buttons]\nlong_press = 20s", 2, "out of range"},
		{"[buttons]\ninput = keys", 2, "not one of gpio, keyboard"},
		{"[buttons]\nprev = [5, 6]", 2, "takes one value, not a list"},
		{"[camera]\nsource = none:x", 2, "none takes nothing after it"},
		{"[camera]\nsource = \"v4l2:/dev/video0", 2, "has no closing \""},
		{"[camera]\nsource = \"a\\qb\"", 2, "bad escape"},
		{"[camera]\nsource = v4l2:/dev/video2 # the USB one", 0, ""},
		{"[game]\nlanguage = klingon", 2, "not one of en, it, fr, ru, nl, es, de"},
		{"[game]\nplayers = 5", 2, "2 to 4 players"},
		{"[game]\nplayers = [\"Ann\"]", 2, "1 players named: Can't Stop is for 2 to 4 players"},
		{"[game]\nplayers = [\"Ann\", \"ann\"]", 2, "named twice"},
		{"[game]\nplayers = [\"Ann\", \"\"]", 2, "empty name"},
		{"[game]\nplayers = [\"Ann\", \"Bartholomew the Great\"]", 2, "longer than 16 letters"},
		{"[game]\nplayers = [\"Ann\", \"Bob\"", 2, "no closing ]"},
		{"[game]\nplayers = [\"Ann\", \"Bob\"] x", 2, "after the list"},
		{"[game]\nwin_columns = 7", 2, "write 3, 4 or 5"},
		{"[game]\nskip_occupied = true\n\nno_stop_on_occupied = true", 4, "cannot be combined"},
		{"[log]\nlevel = loud", 2, "not one of debug, info, warn, error"},
		{"[buttons]\nprev = 6", 2, "prev and next are both GPIO6"},
		{"[buttons]\nstop = 3", 2, "GPIO2 and GPIO3 are SDA and SCL"},
		{"[buttons]\nstop = 3\n[display]\noutput = terminal", 0, ""},
		{"[buttons]\ndebounce = 900ms\nlong_press = 800ms", 3, "not longer than debounce"},
		{"[display]\naddress = 0x3C 0x3D", 2, "address = 0x3C 0x3D: i2c address is not a number"},
		{"[display]\naddress = \"0x3C\" 0x3D", 2, "put a # before a comment"},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.file, "\n", " "), func(t *testing.T) {
			_, err := parse(t, tc.file)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var es Errors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("want one config error, got %v", err)
			}
			if es[0].Line != tc.line {
				t.Errorf("line %d, want %d (%v)", es[0].Line, tc.line, es[0])
			}
			if !strings.Contains(es[0].Error(), tc.want) {
				t.Errorf("error %q lacks %q", es[0], tc.want)
			}
			if !strings.HasPrefix(es[0].Error(), "cantstop.conf:") {
				t.Errorf("error %q does not name the file", es[0])
			}
		})
	}
}

// TestSourceCheck shows a caller's check (camera.ParseSpec in the program)
// reported at the line of the source key, and never called for none.
func TestSourceCheck(t *testing.T) {
	var seen []string
	ch := Checks{Source: func(s string) error {
		seen = append(seen, s)
		if s == "webcam:0" {
			return errors.New(`unknown camera source scheme "webcam"`)
		}
		return nil
	}}
	_, err := ParseChecked("c.conf", strings.NewReader("[game]\nlanguage = en\n[camera]\nsource = webcam:0\n"), ch)
	if err == nil || err.Error() != `c.conf:4: [camera] source = webcam:0: unknown camera source scheme "webcam"` {
		t.Fatalf("got %v", err)
	}
	if _, err := ParseChecked("c.conf", strings.NewReader("[camera]\nsource = none\n"), ch); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seen, []string{"webcam:0"}) {
		t.Fatalf("check called with %q", seen)
	}
}

func TestUnknownKeysAndSections(t *testing.T) {
	cases := []struct {
		file string
		line int
		want []string
	}{
		{"[buttons]\npinz = 5", 2, []string{`unknown key "pinz" in [buttons]`, "valid keys: input, prev, next, ok, stop, debounce, long_press"}},
		{"[buttons]\nstpo = 5", 2, []string{`did you mean "stop"?`}},
		{"[buttons]\nPrev = 5", 2, []string{`did you mean "prev"?`}},
		{"[buttons]\naddress = 0x3C", 2, []string{"address belongs in [display]"}},
		{"[display]\nadress = 0x3C", 2, []string{`did you mean "address"?`}},
		{"[displya]\naddress = 0x3C", 1, []string{"unknown section [displya]", "did you mean [display]?", "valid sections: buttons, display, camera, game, log"}},
		{"[display\naddress = 0x3C", 1, []string{"no closing ]"}},
		{"language = en", 1, []string{"outside any section", "put it under [game]"}},
		{"colour = red", 1, []string{"outside any section", "put it under one of"}},
		{"[game]\nlanguage en", 2, []string{"is not a setting: write key = value"}},
		{"[game]\nlan guage = en", 2, []string{"is not a key name"}},
		{"[game]\nlanguage = en\nlanguage = fr", 3, []string{"language is set again (first on line 2)"}},
		{"[game]\n[log]\n[game]", 3, []string{"section [game] appears again (first on line 1)"}},
		{"[game]\nxyzzy = 1", 2, []string{`unknown key "xyzzy" in [game]; valid keys: language, players, win_columns`}},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.file, "\n", " "), func(t *testing.T) {
			_, err := parse(t, tc.file)
			var es Errors
			if !errors.As(err, &es) || len(es) != 1 {
				t.Fatalf("want one config error, got %v", err)
			}
			if es[0].Line != tc.line {
				t.Errorf("line %d, want %d (%v)", es[0].Line, tc.line, es[0])
			}
			for _, w := range tc.want {
				if !strings.Contains(es[0].Msg, w) {
					t.Errorf("error %q lacks %q", es[0], w)
				}
			}
		})
	}
}

// TestBadFile checks a file with many mistakes: all are reported, in order,
// each at its line (golden testdata/bad.errors).
func TestBadFile(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "bad.conf"), Checks{})
	if err == nil {
		t.Fatal("bad.conf: no error")
	}
	got := strings.ReplaceAll(err.Error(), filepath.Join("testdata", "bad.conf"), "bad.conf") + "\n"
	golden(t, filepath.Join("testdata", "bad.errors"), got)
}

// TestFullFile reads a file that sets every key to a non-default value.
func TestFullFile(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "full.conf"), Checks{})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Buttons: Buttons{Input: "gpio", Prev: 17, Next: 27, OK: 22, Stop: 26, Debounce: 40 * time.Millisecond, LongPress: time.Second},
		Display: Display{Output: "oled", I2CBus: 3, Address: 0x3D, Rotated: true},
		Camera:  Camera{Source: "rpicam:1280x960", Calibration: "/home/pi/rig.json", Required: true},
		Game: Game{Language: "fr", Players: []string{"Anne", "Benoît", "Chloé"},
			Rules: engine.Rules{WinColumns: 4, NoStopOnOccupied: true, ForcedPlacement: true}},
		Log: Log{Level: slog.LevelWarn},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got  %+v\nwant %+v", c, want)
	}
	// Format writes it back, and that reads back the same.
	again, err := parse(t, Format(c))
	if err != nil || !reflect.DeepEqual(again, c) {
		t.Fatalf("Format does not round-trip: %v\n%s", err, Format(c))
	}
}

// TestShippedFile keeps the packaged default file equal to Format(Default()).
func TestShippedFile(t *testing.T) {
	p := filepath.Join("..", "systemd", FileName)
	golden(t, p, Format(Default()))
	c, err := Load(p, Checks{})
	if err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("shipped %s: %v, gives %+v", p, err, c)
	}
	for _, k := range keys(Checks{}) {
		if !strings.Contains(Format(Default()), "\n"+k.name+" = ") {
			t.Errorf("shipped file lacks key %s", k.name)
		}
	}
}

func TestLocate(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	dir := t.TempDir()
	user := filepath.Join(dir, "home", ".config", "cantstop")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, flag string
		env        map[string]string
		want       string
		explicit   bool
	}{
		{"flag wins", "my.conf", map[string]string{"CONFIGURATION_DIRECTORY": "/etc/cantstop"}, "my.conf", true},
		{"systemd", "", map[string]string{"CONFIGURATION_DIRECTORY": "/etc/cantstop:/etc/other"}, "/etc/cantstop/cantstop.conf", false},
	}
	if !exists(SystemPath) {
		cases = append(cases, struct {
			name, flag string
			env        map[string]string
			want       string
			explicit   bool
		}{"nothing: system path", "", map[string]string{"HOME": filepath.Join(dir, "nobody")}, SystemPath, false})
	}
	for _, tc := range cases {
		l := Locate(tc.flag, env(tc.env))
		if l.Path != tc.want || l.Explicit != tc.explicit {
			t.Errorf("%s: got %+v, want %s explicit=%v", tc.name, l, tc.want, tc.explicit)
		}
	}
	if exists(SystemPath) {
		return
	}
	if err := os.WriteFile(filepath.Join(user, FileName), []byte("[game]\nlanguage = nl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := Locate("", env(map[string]string{"HOME": filepath.Join(dir, "home")}))
	c, found, err := l.Load(Checks{})
	if err != nil || !found || c.Game.Language != "nl" || l.Path != filepath.Join(user, FileName) {
		t.Fatalf("user config: %+v found=%v err=%v lang=%s", l, found, err, c.Game.Language)
	}
}

func TestLoadMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.conf")
	c, found, err := Location{Path: missing}.Load(Checks{})
	if err != nil || found || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("missing implicit file: %v %v", found, err)
	}
	_, _, err = Location{Path: missing, Explicit: true}.Load(Checks{})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing --config file: %v", err)
	}
}

func TestCalibrationPath(t *testing.T) {
	c := Default()
	if got := c.CalibrationPath("/etc/cantstop/cantstop.conf"); got != "/etc/cantstop/calibration.json" {
		t.Errorf("relative: %s", got)
	}
	c.Camera.Calibration = "/srv/rig.json"
	if got := c.CalibrationPath("/etc/cantstop/cantstop.conf"); got != "/srv/rig.json" {
		t.Errorf("absolute: %s", got)
	}
}

func TestSuggest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"pinz", ""}, {"nxet", "next"}, {"adress", "address"}, {"x", ""}, {"long-press", "long_press"}, {"qqqqqq", ""},
	} {
		if got := suggest(tc.in, []string{"prev", "next", "address", "long_press"}); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./config -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./config -update rewrites it):\n--- got\n%s--- want\n%s", path, got, want)
	}
}
