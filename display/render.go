package display

import (
	"errors"
	"fmt"
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// row is one body row of the 128×64 layout (a big row takes two).
type row struct {
	text   string
	sel    bool
	big    bool
	center bool
	mark   int
}

func (r row) units() int {
	if r.big {
		return bigScale
	}
	return 1
}

// frame is content fitted to the screen: the visible rows and where they
// sit in the whole body (for the scroll bar).
type frame struct {
	title, pos string
	rows       []row
	top, total int // first visible unit, units in the whole body
}

// Render draws screen s in language l as the 128×64 1-bit image the OLED
// shows. The image is always drawn; the error reports every text that does
// not fit the width, a body too long to scroll, or a rune missing from the
// font, so that tests fail on them.
func Render(s Screen, l Lang) (*image1bit.VerticalLSB, error) {
	img := image1bit.NewVerticalLSB(image.Rect(0, 0, Width, Height))
	t, err := translator(pick(s.Lang, l))
	c, cerr := compose(s, t)
	var ferr error
	if s.Kind == KindTray {
		// The picture is the body: the title as usual, the hints beside the picture.
		f, _ := fit(content{title: c.title, pos: c.pos})
		draw(img, f)
		ferr = drawTray(img, s, c)
	} else {
		var f frame
		f, ferr = fit(c)
		draw(img, f)
	}
	if err := errors.Join(err, cerr, ferr); err != nil {
		return img, fmt.Errorf("%s screen in %s: %w", s.Kind, t.lang, err)
	}
	return img, nil
}

func pick(screen, renderer Lang) Lang {
	if screen != "" {
		return screen
	}
	return renderer
}

// fit wraps the content into rows of the screen's width and picks the
// rows in view: optional hints go first when the body is full, then a list
// scrolls to keep its focus in view; content that must fit and does not is
// an error.
func fit(c content) (frame, error) {
	f := frame{title: c.title, pos: c.pos}
	var errs []error
	head := c.title
	if c.pos != "" {
		head += " " + c.pos
	}
	if w := measure(head); w > textWidth {
		errs = append(errs, fmt.Errorf("title %q is %d px wide, the screen %d: shorten it", head, w, textWidth))
	}
	errs = append(errs, missingGlyphs(head))

	type block struct {
		rows     []row
		optional bool
	}
	var blocks []block
	for _, p := range c.paras {
		errs = append(errs, missingGlyphs(p.text))
		b := block{optional: p.optional}
		switch {
		case p.big:
			if w := bigScale * measure(p.text); w > textWidth {
				errs = append(errs, fmt.Errorf("big text %q is %d px wide, the screen %d: shorten it", p.text, w, textWidth))
			}
			b.rows = []row{{text: p.text, big: true, center: p.center, sel: p.sel, mark: p.mark}}
		case p.item:
			if w := measure(p.text); w > textWidth {
				errs = append(errs, fmt.Errorf("item %q is %d px wide, the screen %d: shorten it", p.text, w, textWidth))
			}
			b.rows = []row{{text: p.text, sel: p.sel, center: p.center}}
		default:
			lines, err := wrap(p.text, textWidth, p.hard)
			errs = append(errs, err)
			for _, l := range lines {
				b.rows = append(b.rows, row{text: l, sel: p.sel, center: p.center})
			}
		}
		blocks = append(blocks, b)
	}
	units := func(bs []block) int {
		n := 0
		for _, b := range bs {
			for _, r := range b.rows {
				n += r.units()
			}
		}
		return n
	}
	// Drop optional paragraphs, last first, until the body fits.
	for i := len(blocks) - 1; i >= 0 && units(blocks) > bodyRows; i-- {
		if blocks[i].optional {
			blocks = append(blocks[:i:i], blocks[i+1:]...)
			if i < c.focus {
				c.focus--
			}
		}
	}
	f.total = units(blocks)
	if f.total > bodyRows {
		if c.focus < 0 {
			errs = append(errs, fmt.Errorf("body needs %d rows, the screen has %d: shorten the text", f.total, bodyRows))
		} else if end := units(blocks[:c.focus+1]); end > bodyRows {
			// Scroll by whole paragraphs: start at the earliest one that
			// still leaves the focus paragraph entirely in view.
			first := c.focus
			for first > 0 && end-units(blocks[:first-1]) <= bodyRows {
				first--
			}
			f.top = units(blocks[:first])
		}
	}
	// Show the paragraphs wholly in view; only the focus, when taller than
	// the screen, or a body that does not fit anyway is cut.
	u := 0
	for i, b := range blocks {
		n := units(blocks[i : i+1])
		whole := u >= f.top && u+n <= f.top+bodyRows
		for _, r := range b.rows {
			if u >= f.top && u+r.units() <= f.top+bodyRows && (whole || i == c.focus || c.focus < 0) {
				f.rows = append(f.rows, r)
			}
			u += r.units()
		}
	}
	return f, errors.Join(errs...)
}

// draw paints a frame: white (On) ink on black, highlighted rows inverted.
func draw(img *image1bit.VerticalLSB, f frame) {
	drawText(img, textLeft, ascent, 1, f.title, image1bit.On)
	if f.pos != "" {
		drawText(img, textLeft+textWidth-measure(f.pos), ascent, 1, f.pos, image1bit.On)
	}
	fill(img, image.Rect(0, rowH, Width, rowH+1), image1bit.On)
	y := bodyTop
	for _, r := range f.rows {
		scale := r.units()
		w := scale * measure(r.text)
		x := textLeft
		if r.center {
			x = textLeft + (textWidth-w)/2
		}
		ink := image1bit.On
		if r.sel {
			fill(img, image.Rect(0, y, textLeft+textWidth, y+rowH*scale), image1bit.On)
			ink = image1bit.Off
		}
		drawText(img, x, y+ascent*scale, scale, r.text, ink)
		if r.mark > 0 {
			// Invert the marked character's cell (the die being corrected).
			runes := []rune(r.text)
			if r.mark <= len(runes) {
				cx := x + scale*measure(string(runes[:r.mark-1]))
				cell := image.Rect(cx-1, y, cx+scale*measure(string(runes[r.mark-1]))+1, y+rowH*scale)
				invert(img, cell)
			}
		}
		y += rowH * scale
	}
	if f.total > bodyRows {
		// Scroll bar at x=127: a thumb for the rows in view.
		h := bodyRows * rowH
		t0 := bodyTop + h*f.top/f.total
		t1 := bodyTop + h*(f.top+bodyRows)/f.total
		fill(img, image.Rect(Width-1, t0, Width, t1), image1bit.On)
	}
}

func invert(img *image1bit.VerticalLSB, r image.Rectangle) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetBit(x, y, !img.BitAt(x, y))
		}
	}
}
