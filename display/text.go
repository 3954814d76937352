package display

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hajimehoshi/bitmapfont/v3"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Geometry of the 128×64 screen. The font's ink spans 12 px (10 above the
// baseline, 2 below), so rows are 12 px: a title row, a 1 px rule, then four
// body rows.
const (
	Width     = 128
	Height    = 64
	rowH      = 12
	ascent    = 10 // baseline offset from a row's top
	bodyTop   = 14
	bodyRows  = 4
	textLeft  = 1         // one pixel margin so highlighted text does not touch the edge
	textWidth = Width - 3 // leaves x=126 blank and x=127 for the scroll bar: text never touches it
	bigScale  = 2         // big text is drawn at twice the size
	alphaOn   = 0x8000    // glyph mask alpha at or above this is ink: 1-bit, never grey
)

// face is the 12 px bitmap font: Latin, accented Latin and Cyrillic.
func face() font.Face { return bitmapfont.Face }

// measure returns the advance width of s in pixels.
func measure(s string) int {
	f := face()
	var w fixed.Int26_6
	for _, r := range s {
		a, _ := f.GlyphAdvance(r)
		w += a
	}
	return w.Round()
}

// missingGlyphs reports runes of s the font cannot draw: unknown to it, or
// known but blank although they are not spaces.
func missingGlyphs(s string) error {
	var errs []error
	seen := map[rune]bool{}
	for _, r := range s {
		if seen[r] {
			continue
		}
		seen[r] = true
		if !hasGlyph(r) {
			errs = append(errs, fmt.Errorf("%q: the font has no glyph for %q (U+%04X): use another character", s, r, r))
		}
	}
	return errors.Join(errs...)
}

func hasGlyph(r rune) bool {
	dr, mask, mp, _, ok := face().Glyph(fixed.P(0, 0), r)
	if !ok || mask == nil {
		return false
	}
	if unicode.IsSpace(r) {
		return true
	}
	for y := 0; y < dr.Dy(); y++ {
		for x := 0; x < dr.Dx(); x++ {
			if _, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA(); a >= alphaOn {
				return true
			}
		}
	}
	return false
}

// wrap breaks s into rows no wider than w pixels at spaces. A word wider
// than a row is an error unless hard is set, when it is broken anywhere.
func wrap(s string, w int, hard bool) ([]string, error) {
	var rows []string
	var err error
	line := ""
	s = strings.ReplaceAll(s, "→ ", "→\u00a0") // an arrow never ends a row
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' }) {
		for measure(word) > w {
			if !hard {
				err = errors.Join(err, fmt.Errorf("%q: the word %q is %d px wide, a row has %d: shorten it", s, word, measure(word), w))
				break
			}
			if line != "" {
				rows = append(rows, line)
				line = ""
			}
			cut := len(word)
			for measure(word[:cut]) > w {
				_, size := utf8.DecodeLastRuneInString(word[:cut])
				cut -= size
			}
			if cut == 0 {
				_, cut = utf8.DecodeRuneInString(word)
			}
			rows = append(rows, word[:cut])
			word = word[cut:]
		}
		switch {
		case line == "":
			line = word
		case measure(line+" "+word) <= w:
			line += " " + word
		case sticky(word) && strings.Contains(line, " ") && measure(lastWord(line)+" "+word) <= w:
			// Keep "space 11" and "remportée !" together: carry the previous word.
			i := strings.LastIndex(line, " ")
			rows = append(rows, line[:i])
			line = line[i+1:] + " " + word
		default:
			rows = append(rows, line)
			line = word
		}
	}
	if line != "" || len(rows) == 0 {
		rows = append(rows, line)
	}
	return rows, err
}

// sticky words do not start a row alone: numbers and punctuation.
func sticky(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsDigit(r) || unicode.IsPunct(r) && utf8.RuneCountInString(word) <= 2
}

func lastWord(line string) string {
	return line[strings.LastIndex(line, " ")+1:]
}

// drawText draws s with its baseline at (x, y), scaled by scale, in colour
// on. Only mask pixels at or above alphaOn are set: the output is 1-bit.
func drawText(img *image1bit.VerticalLSB, x, y, scale int, s string, on image1bit.Bit) {
	f := face()
	dot := fixed.P(0, 0)
	for _, r := range s {
		dr, mask, mp, adv, ok := f.Glyph(dot, r)
		if ok && mask != nil {
			for gy := 0; gy < dr.Dy(); gy++ {
				for gx := 0; gx < dr.Dx(); gx++ {
					if _, _, _, a := mask.At(mp.X+gx, mp.Y+gy).RGBA(); a < alphaOn {
						continue
					}
					px, py := x+(dr.Min.X+gx)*scale, y+(dr.Min.Y+gy)*scale
					for sy := 0; sy < scale; sy++ {
						for sx := 0; sx < scale; sx++ {
							setBit(img, px+sx, py+sy, on)
						}
					}
				}
			}
		}
		dot.X += adv
	}
}

func fill(img *image1bit.VerticalLSB, r image.Rectangle, on image1bit.Bit) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetBit(x, y, on)
		}
	}
}

func setBit(img *image1bit.VerticalLSB, x, y int, on image1bit.Bit) {
	if (image.Point{x, y}).In(img.Bounds()) {
		img.SetBit(x, y, on)
	}
}
