package camera

import (
	"fmt"
	"image"
	"testing"
)

// TestReadResolvesAmbiguous: ivory dice seen obliquely on pale wood, one of each photo refused
// as ambiguous from its blob (its box takes in its side faces), read from its pips alone.
func TestReadResolvesAmbiguous(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct{ file, want string }{
		{"matteop65/six_57.jpg", "[2 3 5 5 6]"},   // a 3 that read 2 or 3 by the die's turn
		{"matteop65/three_49.jpg", "[3 3 3 3 3]"}, // a 3, or nothing at its edges' turn
		{"matteop65/two_39.jpg", "[2 2 2 2]"},     // a 2 that read 1 or 2 by the pip threshold
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Errorf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
			}
		})
	}
}

// TestResolves: the reading from the pips alone settles an ambiguous die's face, and nothing else.
func TestResolves(t *testing.T) {
	box := func(x, y, s int) image.Rectangle { return image.Rect(x, y, x+s, y+s) }
	read := func(v, x, y, s int) Die { return Die{Value: v, Box: box(x, y, s)} }
	amb := Die{Box: box(100, 100, 80), amb: ambiguity{a: 2, b: 3}, Why: "ambiguous: reads 2 or 3"}
	more := Die{Box: box(100, 100, 80), amb: ambiguity{a: 2, more: true}, Why: "ambiguous: reads 2 or a face of more pips"}
	edge := amb // its blob meets the picture's edge
	edge.src.edge = true
	later := amb // refused again by a later check
	later.Why = "a face and the side face beside it, with no seam between them: one die seen obliquely"
	unlaid := Die{Box: box(100, 100, 80), Why: "13 pips"}
	blobs := []Die{read(4, 0, 0, 40), amb}
	for _, c := range []struct {
		name      string
		dice, alt []Die
		want      bool
	}{
		{"the ambiguous die read, the other the same", blobs, []Die{read(4, 2, 2, 36), read(3, 120, 110, 40)}, true},
		{"the ambiguous die read as neither of its faces", blobs, []Die{read(4, 2, 2, 36), read(5, 120, 110, 40)}, false},
		{"a 2 or a face of more pips read as a 5", []Die{read(4, 0, 0, 40), more}, []Die{read(4, 2, 2, 36), read(5, 120, 110, 40)}, true},
		{"a 2 or a face of more pips read as a 1", []Die{read(4, 0, 0, 40), more}, []Die{read(4, 2, 2, 36), read(1, 120, 110, 40)}, false},
		{"the ambiguous die at the picture's edge", []Die{read(4, 0, 0, 40), edge}, []Die{read(4, 2, 2, 36), read(3, 120, 110, 40)}, false},
		{"a die read changes value", blobs, []Die{read(5, 2, 2, 36), read(3, 120, 110, 40)}, false},
		{"a die read is lost", blobs, []Die{read(3, 120, 110, 40)}, false},
		{"a die added elsewhere", blobs, []Die{read(4, 2, 2, 36), read(3, 120, 110, 40), read(1, 300, 300, 40)}, false},
		{"the ambiguous blob made two dice", blobs, []Die{read(4, 2, 2, 36), read(3, 105, 105, 30), read(2, 140, 140, 30)}, false},
		{"the ambiguous blob left empty", blobs, []Die{read(4, 2, 2, 36), read(3, 200, 200, 40)}, false},
		{"a refusal not for ambiguity", []Die{read(4, 0, 0, 40), unlaid}, []Die{read(4, 2, 2, 36), read(3, 120, 110, 40)}, false},
		{"an ambiguous die refused later for another reason", []Die{read(4, 0, 0, 40), later}, []Die{read(4, 2, 2, 36), read(3, 120, 110, 40)}, false},
		{"alt refuses a die too", blobs, []Die{read(4, 2, 2, 36), {Box: box(120, 110, 40)}}, false},
		{"the blobs' reading was settled", []Die{read(4, 0, 0, 40)}, []Die{read(4, 2, 2, 36)}, false},
		{"one die of alt for two read", []Die{read(4, 0, 0, 40), read(4, 10, 10, 40), amb}, []Die{read(4, 5, 5, 40), read(3, 120, 110, 40)}, false},
	} {
		if got := resolves(c.dice, c.alt); got != c.want {
			t.Errorf("%s: resolves = %v, want %v", c.name, got, c.want)
		}
	}
}
