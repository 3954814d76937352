package camera

import (
	"fmt"
	"testing"
)

// TestReadGlare: translucent dice whose glossy faces mirror a lamp's edge as thin streaks
// through their pips, read once the streaks are taken out (each photo was refused before).
func TestReadGlare(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []readCase{
		{"nell-byler/IMG_20191209_100237.jpg", "[1 1 2 4 5 6]"}, // a purple 4
		{"nell-byler/IMG_20191209_100256.jpg", "[1 3 3 3 4 5]"}, // a purple 3
		{"nell-byler/IMG_20191209_100300.jpg", "[1 5 5 6 6 6]"}, // a green 5
	} {
		t.Run(c.file, func(t *testing.T) {
			img := testPhoto(t, c.file)
			defer img.Close()
			rd := r.Read(img)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Fatalf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
			}
			glare := 0
			for _, d := range rd.Dice {
				if d.Glare {
					glare++
				}
			}
			if glare == 0 {
				t.Error("no die read with its glare taken out: the photo no longer tests unglare")
			}
		})
	}
}

// TestUnglared: a streak narrower than the disc is taken out of the map, a pip-sized spot
// is kept, and so is every pixel darker than the face, however thin.
func TestUnglared(t *testing.T) {
	const P, S, fL = 96, 48.0, 100.0
	C := make([]float64, P*P)
	lab := make([]byte, 3*P*P)
	set := func(x, y int, L byte) {
		C[y*P+x] = 80
		lab[3*(y*P+x)] = L
	}
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			lab[3*(y*P+x)] = fL
			if dx, dy := x-30, y-30; dx*dx+dy*dy <= 16 { // a light pip, 9 px wide
				set(x, y, 200)
			}
			if x == 60 || x == 61 { // a light streak, 2 px wide
				set(x, y, 230)
			}
			if y == 70 && x < 40 { // a dark line, 1 px wide
				set(x, y, 20)
			}
		}
	}
	unglared(C, lab, P, S, fL, &floats{})
	for _, c := range []struct {
		name string
		x, y int
		want float64
	}{
		{"pip's centre", 30, 30, 80},
		{"streak", 60, 50, 0},
		{"dark line", 20, 70, 80},
	} {
		if got := C[c.y*P+c.x]; got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReadGlareUnlike: a laptop key beside the dice, unread, is left out as unlike the dice
// read (see unlike); with its letters' strokes taken out as glare it could be read, and then
// refused as unlike them, losing the photo. unglare leaves such candidates alone.
func TestReadGlareUnlike(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"rot90", "matteop65/six_51.jpg", "[6 6 6 6 6]"},
		{"blur", "matteop65/five_33.jpg", "[5 5 5 5]"},
		{"bright1.4", "matteop65/five_33.jpg", "[5 5 5 5]"},
	})
}
