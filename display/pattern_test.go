package display

import (
	"image"
	"testing"

	"periph.io/x/conn/v3/display/displaytest"
)

// TestPattern: the pattern lights all four edges, a checkerboard whose
// neighbouring squares differ, and text to the right; TestPattern sends
// exactly it to the display.
func TestPattern(t *testing.T) {
	p := Pattern()
	for _, pt := range []image.Point{{0, 0}, {Width - 1, 0}, {0, Height - 1}, {Width - 1, Height - 1}, {64, 0}, {0, 32}} {
		if !p.BitAt(pt.X, pt.Y) {
			t.Errorf("edge pixel %v is off", pt)
		}
	}
	if p.BitAt(8, 8) == p.BitAt(12, 8) || p.BitAt(8, 8) == p.BitAt(8, 12) || p.BitAt(8, 8) != p.BitAt(12, 12) {
		t.Error("the checkerboard's squares do not alternate")
	}
	text := 0
	for y := 10; y < 40; y++ {
		for x := 64; x < Width-2; x++ {
			if p.BitAt(x, y) {
				text++
			}
		}
	}
	if text < 50 {
		t.Errorf("%d pixels of text at the right, want the words", text)
	}
	dev := &displaytest.Drawer{Img: image.NewNRGBA(image.Rect(0, 0, Width, Height))}
	if err := NewOLED(dev, English).TestPattern(); err != nil {
		t.Fatal(err)
	}
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			r, _, _, _ := dev.Img.At(x, y).RGBA()
			if (r >= 0x8000) != bool(p.BitAt(x, y)) {
				t.Fatalf("pixel (%d,%d) drawn %v, pattern %v", x, y, r >= 0x8000, p.BitAt(x, y))
			}
		}
	}
}
