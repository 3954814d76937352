package display

import (
	"bytes"
	"strings"
	"testing"
)

// TestPixels: both text forms carry every pixel of the rendered screen, read
// back from the characters, inside a border of the screen's size.
func TestPixels(t *testing.T) {
	for _, sm := range samples() {
		img, _ := Render(sm.s, English)
		for _, compact := range []bool{false, true} {
			lines := strings.Split(strings.TrimSuffix(Pixels(img, compact), "\n"), "\n")
			cw, ch := 1, 2
			if compact {
				cw, ch = 2, 4
			}
			if len(lines) != Height/ch+2 {
				t.Fatalf("%s compact=%v: %d lines, want %d", sm.name, compact, len(lines), Height/ch+2)
			}
			for y, line := range lines[1 : len(lines)-1] {
				r := []rune(line)
				if len(r) != Width/cw+2 || r[0] != '│' || r[len(r)-1] != '│' {
					t.Fatalf("%s compact=%v line %d: %q is not a bordered row of %d", sm.name, compact, y, line, Width/cw)
				}
				for x, c := range r[1 : len(r)-1] {
					for dy := 0; dy < ch; dy++ {
						for dx := 0; dx < cw; dx++ {
							px, py := x*cw+dx, y*ch+dy
							if got, want := lit(c, dx, dy, compact), bool(img.BitAt(px, py)); got != want {
								t.Fatalf("%s compact=%v: pixel (%d,%d) is %v in the text, %v on the screen", sm.name, compact, px, py, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// lit reads pixel (dx, dy) of a character back.
func lit(c rune, dx, dy int, compact bool) bool {
	if compact {
		return (c-0x2800)&brailleDot(dy, dx) != 0
	}
	return c == '█' || (dy == 0 && c == '▀') || (dy == 1 && c == '▄')
}

func TestOLEDTerminalShow(t *testing.T) {
	var b bytes.Buffer
	term := NewOLEDTerminal(&b, French, true)
	if err := term.Show(Screen{Kind: KindStatus, Status: StatusNewGame}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), clear+"┌") || !strings.Contains(b.String(), "│\r\n│") {
		t.Errorf("not a cleared, bordered screen in raw-mode lines: %q", b.String()[:40])
	}
}
