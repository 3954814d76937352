package display

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// PNG writes each screen as a PNG file of the 128×64 image: for tests, docs
// and the simulated table.
type PNG struct {
	Dir   string
	Lang  Lang
	Scale int // each pixel drawn as Scale×Scale (0 or 1: actual size)
	// Distinct writes a screen only if its pixels differ from every one
	// written before (play --sim --screens: each screen the game showed, once).
	Distinct bool
	n        int
	seen     map[string]bool
}

// NewPNG writes screens to dir in language lang, at actual size.
func NewPNG(dir string, lang Lang) *PNG {
	return &PNG{Dir: dir, Lang: lang}
}

// Show writes s to the next numbered file: 0001-turn.png, 0002-dice.png...
func (p *PNG) Show(s Screen) error {
	img, lerr := Render(s, p.Lang)
	if p.Distinct {
		key := string(img.Pix)
		if p.seen[key] {
			return nil
		}
		if p.seen == nil {
			p.seen = map[string]bool{}
		}
		p.seen[key] = true
	}
	p.n++
	return p.write(fmt.Sprintf("%04d-%s", p.n, s.Kind), img, lerr)
}

// Save writes s to DIR/name.png. A layout problem is returned after the
// file is written.
func (p *PNG) Save(name string, s Screen) error {
	img, lerr := Render(s, p.Lang)
	return p.write(name, img, lerr)
}

func (p *PNG) write(name string, img *image1bit.VerticalLSB, lerr error) error {
	if err := WritePNG(filepath.Join(p.Dir, name+".png"), img, p.Scale); err != nil {
		return err
	}
	return lerr
}

// palette: black background, white ink, like the OLED.
var palette = color.Palette{color.Black, color.White}

// ToPaletted converts a rendered screen to a two-colour image, scaled up.
func ToPaletted(img *image1bit.VerticalLSB, scale int) *image.Paletted {
	if scale < 1 {
		scale = 1
	}
	b := img.Bounds()
	out := image.NewPaletted(image.Rect(0, 0, b.Dx()*scale, b.Dy()*scale), palette)
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			if img.BitAt(b.Min.X+x/scale, b.Min.Y+y/scale) {
				out.SetColorIndex(x, y, 1)
			}
		}
	}
	return out
}

// WritePNG writes a rendered screen to path, scaled up by scale.
func WritePNG(path string, img *image1bit.VerticalLSB, scale int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write screen: %w (does the folder exist and is it writable?)", err)
	}
	if err := png.Encode(f, ToPaletted(img, scale)); err != nil {
		f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
