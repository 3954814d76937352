package hw

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// Open initialises periph's host drivers, looks the pins up by name and
// returns the buttons on them. The errors say what to do: run on the Pi or
// use the keyboard, join group gpio, or fix a pin name.
func Open(pins Pins, o Opts) (*GPIO, error) {
	if err := pins.Validate(); err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("hw: initialise periph host drivers: %w", err)
	}
	var ps [4]gpio.PinIn
	for i, name := range pins.Names() {
		p := gpioreg.ByName(name)
		if p == nil {
			chips, _ := filepath.Glob("/dev/gpiochip*")
			return nil, missingPin(name, Button(i), chips, openCheck)
		}
		ps[i] = p
	}
	return NewGPIO(ps, o)
}

func openCheck(path string) error {
	f, err := os.Open(path)
	if err == nil {
		f.Close()
	}
	return err
}

// missingPin explains why gpioreg does not know a pin, given the GPIO
// character devices present and a way to try opening one.
func missingPin(name string, b Button, chips []string, open func(string) error) error {
	what := fmt.Sprintf("hw: %s (%v button) not found", name, b)
	if len(chips) == 0 {
		return fmt.Errorf("%s: this machine has no GPIO character device (/dev/gpiochip*): is this a Raspberry Pi? run on the device, or use the keyboard ([buttons] input = keyboard in the config, or cantstop play --sim)", what)
	}
	for _, c := range chips {
		if err := open(c); errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s: %w: add the user to group gpio (sudo usermod -aG gpio USER, then log in again)", what, err)
		}
	}
	return fmt.Errorf("%s: not a GPIO line name on this board; use the BCM name, like GPIO17 (gpioinfo lists them)", what)
}
