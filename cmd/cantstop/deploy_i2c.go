package main

// The only periph code outside hw/ and display/: opening an I2C bus by
// number for display.OpenOLED. It belongs in display (an OpenOLED by bus
// number); it sits here until display offers that.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/host/v3"
)

// openI2C opens /dev/i2c-n, with errors that say what to fix.
func openI2C(n int) (i2c.BusCloser, error) {
	dev := "/dev/i2c-" + strconv.Itoa(n)
	if f, err := os.OpenFile(dev, os.O_RDWR, 0); err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: I2C is off: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), then reboot", err)
		case errors.Is(err, fs.ErrPermission):
			return nil, fmt.Errorf("%w: add the user to group i2c (sudo usermod -aG i2c $USER)", err)
		}
		return nil, err
	} else {
		f.Close()
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("initialise periph host drivers: %w", err)
	}
	b, err := i2creg.Open(strconv.Itoa(n))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dev, err)
	}
	return b, nil
}

func oledOpts(rotated bool) ssd1306.Opts {
	o := ssd1306.DefaultOpts
	o.Rotated = rotated
	return o
}
