package display

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

// OpenOLEDBus opens /dev/i2c-busNum and the SSD1306 at addr on it. Closing
// the returned closer turns the display off and releases the bus.
func OpenOLEDBus(busNum int, addr uint16, rotated bool, lang Lang) (*OLED, func() error, error) {
	bus, err := openBus(busNum)
	if err != nil {
		return nil, nil, err
	}
	o := ssd1306.DefaultOpts
	o.Rotated = rotated
	oled, err := OpenOLED(bus, addr, &o, lang)
	if err != nil {
		bus.Close()
		return nil, nil, err
	}
	return oled, func() error { return errors.Join(oled.Halt(), bus.Close()) }, nil
}

// openBus opens /dev/i2c-n, with errors that say what to fix.
func openBus(n int) (i2c.BusCloser, error) {
	dev := "/dev/i2c-" + strconv.Itoa(n)
	f, err := os.OpenFile(dev, os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w: I2C is off: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), then reboot", dev, err)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%s: %w: add the user to group i2c (sudo usermod -aG i2c $USER)", dev, err)
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", dev, err)
	}
	f.Close()
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("initialise periph host drivers: %w", err)
	}
	b, err := i2creg.Open(strconv.Itoa(n))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dev, err)
	}
	return b, nil
}
