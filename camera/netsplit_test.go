package camera

import (
	"fmt"
	"testing"
)

// TestNetSplit: touching dice that no way of cutting their blob reads, read where the face
// networks see each face; a die missed in a read die's blob, found so; and a read die's side
// face and a single face, which it must not read.
func TestNetSplit(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	for _, c := range []struct {
		file string
		want string // the values read, "" for refused
		net  int    // how many of them the networks read
		why  string
	}{
		{"nell-byler/IMG_20191208_112517.jpg", "[3 3 3 5 6]", 1,
			"a red 5 between two 3s: every cut of their blob overlaps, and only the 5's own square reads it"},
		{"matteop65/dice_38.jpg", "[1 1 1 1]", 2,
			"two ivory 1s touching in one blob, refused as one face with a pip like its own beside it"},
		{"matteop65/six_20.jpg", "[6 6]", 2,
			"two ivory 6s seen obliquely, their side faces in one blob 2.7 sides tall: 13 pips in no layout"},
		{"nell-byler/IMG_20191209_100026.jpg", "[3 4 5 6]", 2,
			"a black 4 touching a white 3 on a pale tray: read only at the size of the 5 and 6 read, not at the guessed 47 px"},
		{"nell-byler/IMG_20191209_095613.jpg", "[2 2 3 4 6]", 1,
			"a red 2 touching the red 4 above it, in the 4's blob, which the cut reads as the 4 alone"},
		{"matteop65/three_27.jpg", "[3 3 3]", 0,
			"an ivory 3 seen obliquely, its side face a 5 below it that the networks read as a face: not a die missed"},
		{"nell-byler/IMG_20191208_112419.jpg", "", 0,
			"a smoky 1 whose glare streak both networks read as a 2 a little off its centre: one face in its box, no split"},
	} {
		t.Run(c.file, func(t *testing.T) {
			rd := readPhoto(t, r, c.file)
			if c.want == "" {
				if rd.Status == StatusRead {
					t.Errorf("read %v, want refused: %s", rd.Values(), c.why)
				}
				return
			}
			net := 0
			for _, d := range rd.Dice {
				if d.Net {
					net++
				}
			}
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want || net != c.net {
				t.Errorf("%s %s (%s), %d by the networks; want read %s, %d by the networks: %s", rd.Status, got, rd.Why, net, c.want, c.net, c.why)
			}
		})
	}
}
