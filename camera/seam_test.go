package camera

import (
	"fmt"
	"image"
	"testing"
)

// TestReadOneDieObliquely: in oblique views a die's side face is seen beside its top face,
// pips and all. four_16: a blob holding a 4 and the side face below it is cut in two and the
// side face's two pips read as a 2; no seam parts the two faces, so they are one die.
// two_26: four pips of a side face's 6 fit a 4; the 6's third column runs on both its rows,
// and the top face's 2 is read instead.
// IMG_20191209_100719: a 4 whose side face's pips lie in line with its rows is still read,
// those pips being fainter and smaller than its own.
func TestReadOneDieObliquely(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		file string
		at   image.Rectangle // where no die may be read
		want string          // the values read elsewhere, or "" when the photo is refused
	}{
		{"matteop65/four_16.jpg", image.Rect(432, 165, 470, 200), ""},
		{"matteop65/two_26.jpg", image.Rect(378, 100, 415, 140), "[2 2 2]"},
		{"nell-byler/IMG_20191209_100719.jpg", image.Rectangle{}, "[1 3 4 4 4]"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			for _, d := range rd.Dice {
				if ctr := d.Box.Min.Add(d.Box.Max).Div(2); ctr.In(c.at) && d.Value != 0 {
					t.Errorf("die at %v read %d: a side face, want it unread", ctr, d.Value)
				}
			}
			if c.want != "" {
				if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
					t.Errorf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
				}
			} else if rd.Status == StatusRead {
				t.Errorf("read %v, want the photo refused", rd.Values())
			}
		})
	}
}
