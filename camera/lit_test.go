package camera

import "testing"

// TestReadUnevenLight: under a lens that dims the corners to 0.55 of the light (vignette), or
// a lamp at one side (lamp), the middle of these pale trays is lighter than the border's
// surface carried inwards says, and was taken into the dice's blobs: matteop65/six_35 read as
// one 2 whose pips were two of its four 6s, the others were refused. The tray modelled over
// the whole picture takes that part back (unlit).
func TestReadUnevenLight(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"vignette", "matteop65/six_35.jpg", "[6 6 6 6]"},
		{"vignette", "matteop65/two_6.jpg", "[2]"},
		{"vignette", "matteop65/four_36.jpg", "[4 4 4 4]"},
		{"vignette", "nell-byler/IMG_20191209_100645.jpg", "[1 2 2 3 4 5]"},
		{"lamp", "matteop65/six_20.jpg", "[6 6]"},
	})
}

// TestReadUnlitNotNearEdges: matteop65/dice_27.jpg in a warmer light. The near die's ivory
// top face lies as near the whole picture's surface as the wood does; taken back with it, the
// face left its front face's two pips to be read as the die, a 2 for a 1. Only pixels away
// from every edge are taken back, so the face's outline stays and its inside is filled again:
// the photo is refused (for that face's side pips), as it is without the whole picture's
// surface.
func TestReadUnlitNotNearEdges(t *testing.T) {
	rd := readVaried(t, NewReader(DefaultReaderOpts()), "blue0.8", "matteop65/dice_27.jpg")
	if rd.Status == StatusRead && !subOf(rd.Values(), "[1 1 1]") {
		t.Errorf("read %v, want [1 1 1], some of it or unreadable", rd.Values())
	}
}

// TestReadUnlitOnlyWhereNeeded: matteop65/two_40.jpg as taken. Its border's surface leaves
// little of the tray in the foreground, so the whole picture's is not trusted: trusted, it
// took parts of the pale faces for tray, and the photo was refused.
func TestReadUnlitOnlyWhereNeeded(t *testing.T) {
	testReads(t, []readCase{{"matteop65/two_40.jpg", "[2 2 2 2]"}})
}

// TestReadSideBelowInCut: matteop65/six_17.jpg. With the tray in its middle taken back, the
// upper die's top face (a 6) and its front face (a 3) make one blob, cut in two: the front
// face, below the top face and smaller, is left out, as oneBody leaves it out of the dice
// read (before, both were refused: one die seen obliquely).
func TestReadSideBelowInCut(t *testing.T) {
	testReads(t, []readCase{{"matteop65/six_17.jpg", "[6 6]"}})
}

// TestWithin: within(g, r) is g dilated r times by a 3×3 square, on scattered marks (two
// marks, runs and the picture's edges included).
func TestWithin(t *testing.T) {
	for seed := 0; seed < 20; seed++ {
		g := newGrid(37, 23)
		for i := range g.b {
			g.b[i] = (i*7919+seed*104729)%97 < 3+seed%5
		}
		for r := 0; r <= 4; r++ {
			want := g
			for k := 0; k < r; k++ {
				want = want.dilate()
			}
			got := within(g, r)
			for i := range got.b {
				if got.b[i] != want.b[i] {
					t.Fatalf("seed %d, r %d: pixel (%d, %d) is %v, want %v", seed, r, i%g.w, i/g.w, got.b[i], want.b[i])
				}
			}
		}
	}
}
