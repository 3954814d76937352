package camera

import (
	"fmt"
	"sort"
	"testing"
)

// TestReadMergedRows: a soft focus joins a 6's rows and a 5's or 3's diagonal of small pips
// into bars; such a bar is three pips, not clutter. Each blurred photo must be read exactly.
func TestReadMergedRows(t *testing.T) {
	for _, tc := range []struct{ file, vary, want string }{
		{"nell-byler/IMG_20191208_111816.jpg", "blur", "[2 3 4 4 4 6]"},
		{"nell-byler/IMG_20191208_112600.jpg", "blur", "[3]"},
		{"nell-byler/IMG_20191208_112902.jpg", "blur", "[5]"},
	} {
		img := testPhoto(t, tc.file)
		if tc.vary != "" {
			v, err := VariationNamed(tc.vary)
			if err != nil {
				t.Fatal(err)
			}
			plain := img
			img = v(plain)
			plain.Close()
		}
		rd := NewReader(DefaultReaderOpts()).Read(img)
		img.Close()
		got := rd.Values()
		sort.Ints(got)
		if rd.Status != StatusRead || fmt.Sprint(got) != tc.want {
			t.Errorf("%s %s: %s %v (%s), want %s", tc.file, tc.vary, rd.Status, got, rd.Why, tc.want)
		}
	}
}

// TestReadLongPips: matteop65/four_50.jpg shows a 4 seen obliquely whose pips, foreshortened,
// merge by columns into two bars as long as three round pips in a row. Their middle is the gap
// between two pips, not a pip: it must not be read as a 6.
func TestReadLongPips(t *testing.T) {
	img := testPhoto(t, "matteop65/four_50.jpg")
	defer img.Close()
	rd := NewReader(DefaultReaderOpts()).Read(img)
	if !subOf(rd.Values(), "[4 4 4 4 4]") {
		t.Errorf("%s %v (%s): want [4 4 4 4 4], some of it or unreadable", rd.Status, rd.Values(), rd.Why)
	}
}
