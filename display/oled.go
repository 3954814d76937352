package display

import (
	"errors"
	"fmt"
	"image"

	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/ssd1306"
)

// Renderer shows screens on one device.
type Renderer interface {
	Show(s Screen) error
}

// DefaultAddr is the usual I²C address of an SSD1306 module (0x3D on some,
// selected by a solder jumper).
const DefaultAddr = 0x3C

// OLED shows screens on a 128×64 1-bit display, normally an SSD1306.
type OLED struct {
	dev  display.Drawer
	lang Lang
}

// NewOLED shows screens in language lang on dev, which must be 128×64
// (an *ssd1306.Dev, or periph's displaytest.Drawer in tests).
func NewOLED(dev display.Drawer, lang Lang) *OLED {
	return &OLED{dev: dev, lang: lang}
}

// OpenOLED initialises an SSD1306 at addr on bus (opts nil = ssd1306.DefaultOpts).
func OpenOLED(bus i2c.Bus, addr uint16, opts *ssd1306.Opts, lang Lang) (*OLED, error) {
	if opts == nil {
		o := ssd1306.DefaultOpts
		opts = &o
	}
	if opts.W != Width || opts.H != Height {
		return nil, fmt.Errorf("ssd1306 of %d×%d: the display package draws %d×%d; set Opts.W and Opts.H to that", opts.W, opts.H, Width, Height)
	}
	dev, err := ssd1306.NewI2C(&addrBus{Bus: bus, addr: addr}, opts)
	if err != nil {
		return nil, fmt.Errorf("ssd1306 at I²C address %#x on %s: %w (check the wiring, the address with i2cdetect, and group i2c)", addr, bus, err)
	}
	return NewOLED(dev, lang), nil
}

// Show draws s. A layout problem (text too wide, missing glyph) is returned
// after the screen is drawn anyway, so the table still sees something.
func (o *OLED) Show(s Screen) error {
	img, lerr := Render(s, o.lang)
	b := o.dev.Bounds()
	if b.Dx() != Width || b.Dy() != Height {
		return fmt.Errorf("display %s is %dx%d, want %dx%d", o.dev, b.Dx(), b.Dy(), Width, Height)
	}
	if err := o.dev.Draw(b, img, image.Point{}); err != nil {
		return errors.Join(fmt.Errorf("draw %s screen on %s: %w", s.Kind, o.dev, err), lerr)
	}
	return lerr
}

// Halt turns the display off, if the device can.
func (o *OLED) Halt() error {
	if h, ok := o.dev.(interface{ Halt() error }); ok {
		return h.Halt()
	}
	return nil
}

// addrBus sends to addr whatever the ssd1306 driver sends to its fixed 0x3C.
type addrBus struct {
	i2c.Bus
	addr uint16
}

func (a *addrBus) Tx(addr uint16, w, r []byte) error {
	if addr == DefaultAddr {
		addr = a.addr
	}
	return a.Bus.Tx(addr, w, r)
}
