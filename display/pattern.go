package display

import (
	"fmt"
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Pattern is the test pattern cantstop doctor --interactive shows: a frame on
// the outermost pixels (all four edges visible), a checkerboard of 4-pixel
// squares at the left (every pixel answers) and the word "cantstop" at the
// top right (upright, not mirrored).
func Pattern() *image1bit.VerticalLSB {
	img := image1bit.NewVerticalLSB(image.Rect(0, 0, Width, Height))
	for x := 0; x < Width; x++ {
		img.SetBit(x, 0, image1bit.On)
		img.SetBit(x, Height-1, image1bit.On)
	}
	for y := 0; y < Height; y++ {
		img.SetBit(0, y, image1bit.On)
		img.SetBit(Width-1, y, image1bit.On)
	}
	for y := 8; y < 56; y++ {
		for x := 8; x < 56; x++ {
			img.SetBit(x, y, image1bit.Bit((x/4+y/4)%2 == 0))
		}
	}
	drawText(img, 64, 14, 1, "cantstop", image1bit.On)
	drawText(img, 64, 30, 1, "doctor", image1bit.On)
	return img
}

// TestPattern draws Pattern on the display.
func (o *OLED) TestPattern() error {
	b := o.dev.Bounds()
	if err := o.dev.Draw(b, Pattern(), image.Point{}); err != nil {
		return fmt.Errorf("draw the test pattern on %s: %w", o.dev, err)
	}
	return nil
}
