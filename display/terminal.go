package display

import (
	"fmt"
	"io"
	"strings"
)

// clear homes the cursor and clears the screen (ANSI).
const clear = "\x1b[H\x1b[2J"

// Terminal shows screens as plain UTF-8 text lines on a terminal: an HDMI
// console or an SSH session. It shows whole lists, unscrolled; the
// highlighted entry is marked with ">".
type Terminal struct {
	w    io.Writer
	lang Lang
}

// NewTerminal writes screens to w in language lang.
func NewTerminal(w io.Writer, lang Lang) *Terminal {
	return &Terminal{w: w, lang: lang}
}

// Show clears the terminal and writes s in one write. Lines end in "\r\n" so
// they also read right on a terminal in raw mode (the keyboard buttons).
func (t *Terminal) Show(s Screen) error {
	text, err := Text(s, t.lang)
	if _, werr := io.WriteString(t.w, clear+strings.ReplaceAll(text, "\n", "\r\n")); werr != nil {
		return fmt.Errorf("write %s screen: %w", s.Kind, werr)
	}
	return err
}

// Text is screen s as plain text lines, each ending in "\n".
func Text(s Screen, l Lang) (string, error) {
	tl, err := translator(pick(s.Lang, l))
	c, cerr := compose(s, tl)
	var b strings.Builder
	head := c.title
	if c.pos != "" {
		head += "  " + c.pos
	}
	b.WriteString(head + "\n")
	b.WriteString(strings.Repeat("─", max(len([]rune(head)), 8)) + "\n")
	for _, p := range c.paras {
		text := p.text
		if p.mark > 0 {
			r := []rune(text)
			if p.mark <= len(r) {
				text = string(r[:p.mark-1]) + "[" + string(r[p.mark-1]) + "]" + string(r[p.mark:])
			}
		}
		switch {
		case p.edit:
			b.WriteString("> ‹" + text + "›\n")
		case p.sel:
			b.WriteString("> " + text + "\n")
		default:
			b.WriteString("  " + text + "\n")
		}
	}
	if err == nil {
		err = cerr
	}
	if err != nil {
		return b.String(), fmt.Errorf("%s screen: %w", s.Kind, err)
	}
	return b.String(), nil
}
