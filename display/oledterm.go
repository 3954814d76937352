package display

import (
	"fmt"
	"io"
	"strings"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// OLEDTerminal shows each screen as the OLED draws it, all 128×64 pixels, in
// a terminal framed by a border, so that the simulated table shows exactly
// what the device would (wrapping, scrolling, dropped hints, clipping). Full
// size uses half blocks, two pixel rows a line (130 columns, 34 lines);
// Compact uses Braille dots, 2×4 pixels a character (66 columns, 18 lines).
type OLEDTerminal struct {
	w       io.Writer
	lang    Lang
	compact bool
}

// NewOLEDTerminal writes screens to w in language lang.
func NewOLEDTerminal(w io.Writer, lang Lang, compact bool) *OLEDTerminal {
	return &OLEDTerminal{w: w, lang: lang, compact: compact}
}

// Show clears the terminal and draws s. A layout problem is returned after
// the screen is drawn (as the OLED would show it).
func (t *OLEDTerminal) Show(s Screen) error {
	img, err := Render(s, t.lang)
	text := Pixels(img, t.compact)
	if _, werr := io.WriteString(t.w, clear+strings.ReplaceAll(text, "\n", "\r\n")); werr != nil {
		return fmt.Errorf("write %s screen: %w", s.Kind, werr)
	}
	return err
}

// Pixels draws a rendered screen as text lines inside a border, each line
// ending in "\n": half blocks (▀ ▄ █), or Braille cells when compact.
func Pixels(img *image1bit.VerticalLSB, compact bool) string {
	b := img.Bounds()
	on := func(x, y int) bool { return x < b.Max.X && y < b.Max.Y && bool(img.BitAt(x, y)) }
	cw, ch := 1, 2 // pixels per character
	if compact {
		cw, ch = 2, 4
	}
	cols := (b.Dx() + cw - 1) / cw
	var out strings.Builder
	out.WriteString("┌" + strings.Repeat("─", cols) + "┐\n")
	for y := b.Min.Y; y < b.Max.Y; y += ch {
		out.WriteString("│")
		for x := b.Min.X; x < b.Max.X; x += cw {
			if compact {
				out.WriteRune(braille(x, y, on))
				continue
			}
			switch top, bottom := on(x, y), on(x, y+1); {
			case top && bottom:
				out.WriteRune('█')
			case top:
				out.WriteRune('▀')
			case bottom:
				out.WriteRune('▄')
			default:
				out.WriteRune(' ')
			}
		}
		out.WriteString("│\n")
	}
	out.WriteString("└" + strings.Repeat("─", cols) + "┘\n")
	return out.String()
}

// brailleDot is the Unicode Braille bit of a cell's pixel in row dy (0-3) and
// column dx (0-1): dots 1-3 and 4-6 run down the columns, 7 and 8 are the bottom row.
func brailleDot(dy, dx int) rune {
	if dy == 3 {
		return 0x40 << dx
	}
	return 1 << (dy + 3*dx)
}

// braille is the Braille character of the 2×4 pixels whose top left is (x, y).
func braille(x, y int, on func(x, y int) bool) rune {
	r := rune(0x2800)
	for dy := 0; dy < 4; dy++ {
		for dx := 0; dx < 2; dx++ {
			if on(x+dx, y+dy) {
				r |= brailleDot(dy, dx)
			}
		}
	}
	return r
}
