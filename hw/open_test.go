package hw

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	g, err := Open(DefaultPins(), DefaultOpts())
	chips, _ := filepath.Glob("/dev/gpiochip*")
	if len(chips) == 0 {
		// A desktop or CI machine: the error must send the user to the Pi or --keyboard.
		if err == nil {
			g.Close()
			t.Fatal("Open found GPIO5 on a machine without /dev/gpiochip*")
		}
		for _, w := range []string{"GPIO5", "Prev button", "is this a Raspberry Pi", "[buttons] input = keyboard"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
		return
	}
	// On a board: either the buttons open, or the error names the pin.
	if err != nil {
		if !strings.Contains(err.Error(), "GPIO") {
			t.Fatalf("error %q does not name the pin", err)
		}
		return
	}
	g.Close()
}

func TestOpenRejectsBadConfig(t *testing.T) {
	p := DefaultPins()
	p.Stop = p.Next
	if _, err := Open(p, DefaultOpts()); err == nil || !strings.Contains(err.Error(), "Next and Stop buttons are both on GPIO6") {
		t.Fatalf("Open with a shared pin: %v", err)
	}
	o := DefaultOpts()
	o.LongPress = 10 * time.Millisecond
	if _, err := Open(DefaultPins(), o); err == nil || !strings.Contains(err.Error(), "long press") {
		t.Fatalf("Open with a long press shorter than debounce: %v", err)
	}
}

func TestMissingPin(t *testing.T) {
	denied := func(string) error { return &fs.PathError{Op: "open", Path: "/dev/gpiochip0", Err: fs.ErrPermission} }
	opens := func(string) error { return nil }
	for _, c := range []struct {
		name  string
		chips []string
		open  func(string) error
		want  []string
	}{
		{"no gpio device", nil, opens, []string{"GPIO17 (OK button) not found", "is this a Raspberry Pi? run on the device, or use the keyboard ([buttons] input = keyboard in the config, or cantstop play --sim)"}},
		{"not in group gpio", []string{"/dev/gpiochip0"}, denied, []string{"/dev/gpiochip0", "permission denied", "add the user to group gpio"}},
		{"wrong name", []string{"/dev/gpiochip0", "/dev/gpiochip4"}, opens, []string{"GPIO17", "BCM name"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := missingPin("GPIO17", OK, c.chips, c.open)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if c.name == "not in group gpio" && !errors.Is(err, fs.ErrPermission) {
				t.Errorf("error %q does not wrap the permission error", err)
			}
		})
	}
}

func TestOptsValidate(t *testing.T) {
	if err := DefaultOpts().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct {
		o    Opts
		want string
	}{
		{Opts{Debounce: -ms, LongPress: 700 * ms, Poll: 100 * ms}, "debounce must be positive"},
		{Opts{Debounce: 20 * ms, LongPress: 20 * ms, Poll: 100 * ms}, "long press (20ms) must be longer than debounce (20ms)"},
		{Opts{Debounce: 20 * ms, LongPress: 700 * ms}, "poll must be positive"},
	} {
		if err := c.o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.want)
		}
	}
}

func TestPinsValidate(t *testing.T) {
	if err := DefaultPins().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	if got := DefaultPins().Names(); got != [4]string{"GPIO5", "GPIO6", "GPIO13", "GPIO19"} {
		t.Fatalf("default pins %v differ from WIRING.md", got)
	}
	p := DefaultPins()
	p.OK = ""
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "no pin set for the OK button (default GPIO13)") {
		t.Fatalf("empty OK pin: %v", err)
	}
}

func TestButtonString(t *testing.T) {
	for b, want := range map[Button]string{Prev: "Prev", Next: "Next", OK: "OK", Stop: "Stop", 7: "Button(7)"} {
		if b.String() != want {
			t.Errorf("Button(%d) = %q, want %q", int(b), b, want)
		}
	}
	if s := (Event{Button: OK, Long: true}).String(); s != "long OK" {
		t.Errorf("long OK event prints %q", s)
	}
}
