package camera

import (
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestReadPipDice: dice proposed from their pips where the foreground mask found no die.
// two_17: an ivory 2 on pale wood that is not segmented at all, found from its two pips;
// three_6: a laptop's pale label, two dark spots on a dark lid, fits a 2 but is no pale
// face, so it must not become a second die. In an oblique view flatter than 45° a top face
// proposed from its pips replaces the unread blob the finder cut whole as one die, however
// foreshortened (two_26: a 2 above a side face's 6), and needs no ring darker than itself,
// its ring being mostly its own pale side faces, when it lies in such a blob (three_3: an
// ivory 3 on pale wood) or its outline is seen all round (three_5: no blob found at all).
// six_18: an ivory 6 seen near 45°, its layout foreshortened, read with the face reader's
// own confidence floor.
func TestReadPipDice(t *testing.T) {
	testReads(t, []readCase{
		{"matteop65/two_17.jpg", "[2 2]"},
		{"matteop65/three_6.jpg", "[3]"},
		{"matteop65/two_26.jpg", "[2 2 2]"},
		{"matteop65/three_3.jpg", "[3]"},
		{"matteop65/three_5.jpg", "[3]"},
		{"matteop65/six_18.jpg", "[6 6]"},
	})
}

// TestReadOverexposed: ivory dice on pale wood, brightened 1.4 times as an overexposed camera
// would. The face and the wood around it are then both clipped white, so a face proposed from
// its pips is no paler than its ring and shows no outline; four or more pips in a layout are
// taken as a face anyway (before, five_4 was refused and the others read with dice missing).
// Three are not enough: a blurred 6's column fits a 3. two_26 in TestReadPipDice pins the
// guard that comes with it: such a face with its own top face beyond an edge (a side face's
// 4) is not proposed. six_17, read so too until the tray was also modelled over the whole
// picture (lit.go), is now refused, never misread: each die's front face, below its top face,
// is cut from the die's blob unread (BENCHMARKS-dice.md, "Uneven light").
func TestReadOverexposed(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"bright1.4", "matteop65/five_4.jpg", "[5]"},
		{"bright1.4", "matteop65/five_40.jpg", "[5 5 5 5]"},
		{"bright1.4", "matteop65/four_22.jpg", "[4 4 4]"},
	})
	testVaried(t, []variedCase{{"bright1.4", "matteop65/six_17.jpg", "[6 6]"}})
}

// TestReadPipsSettleAmbiguous: a face of four or more pips proposed from its spots inside a
// candidate the face reader found ambiguous settles it (a face that many pips fit is no part
// of another): six_18 overexposed (its 6 read as a 2 or a face of more pips by the
// candidate's two turns), four_43 darkened (a 4 read as a 1 or a 4 at two pip thresholds),
// four_13 bluer (a 4 read as a 4 or a 6).
func TestReadPipsSettleAmbiguous(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"bright1.4", "matteop65/six_18.jpg", "[6 6]"},
		{"bright0.6", "matteop65/four_43.jpg", "[4 4 4 4 4]"},
		{"blue0.8", "matteop65/four_13.jpg", "[4 4]"},
	})
}

// TestPipDiceRejects: spots that fit a layout but are no die of their own must not become
// one. dice_34: a key's lit symbol on a keyboard, 5 pixels wide, fits a 2 on a pale square
// with a dark outline: it is smaller than any die the finder keeps. IMG_20191208_111304:
// two pips of an unfound 5 fit a small 2, outline and all (the 5's other pips and its side
// face), but the face reader sees another pip inside that small face. dice_27: a 1 seen near
// 45°, whose pip and a side face's pip fit a 2 as well as that side face's two pips do: the
// spot they share leaves it open which face it is on. four_16: three spots in a row on a
// woven cloth propose a 3 where the face reader sees only a 2 of them. dice_46: a 1's side
// face reads 2 inside the blob of the whole die, which the face reader found ambiguous (a 2
// at one turn, other pips at another): the 2 does not replace that blob.
func TestPipDiceRejects(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []struct {
		file string
		at   image.Rectangle
		want int // the die there, 0 for none
	}{
		{"matteop65/dice_34.jpg", image.Rect(470, 15, 500, 45), 0},
		{"nell-byler/IMG_20191208_111304.jpg", image.Rect(83, 310, 125, 352), 5},
		{"matteop65/dice_27.jpg", image.Rect(170, 160, 240, 245), 1},
		{"matteop65/four_16.jpg", image.Rect(20, 60, 90, 140), 0},
		{"matteop65/dice_46.jpg", image.Rect(255, 160, 300, 205), 1},
	} {
		t.Run(c.file, func(t *testing.T) {
			img := testPhoto(t, c.file)
			defer img.Close()
			for _, d := range r.Read(img).Dice {
				ctr := d.Box.Min.Add(d.Box.Max).Div(2)
				if ctr.In(c.at) && d.Value != 0 && d.Value != c.want {
					t.Errorf("die at %v read %d, want %d or unread", ctr, d.Value, c.want)
				}
			}
		})
	}
}

// TestFaceOutline: a face proposed from its pips must end in an outline on three sides at
// least. two_17's ivory dice on pale wood do on all four; a square over the laptop's keys in
// three_6 (where two dark spots on the pale frame fit a 2) does not.
func TestFaceOutline(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	two := testPhoto(t, "matteop65/two_17.jpg")
	defer two.Close()
	gray := gocv.NewMat()
	defer gray.Close()
	spots, _ := darkSpots(two, &gray)
	props := r.proposeFromPips(two, spots, nil)
	if len(props) != 2 {
		t.Fatalf("two_17: %d dice proposed from pips, want 2", len(props))
	}
	for _, p := range props {
		if _, _, ends := faceRegion(two, p.c, p.dm/2/p.c.side, r.o.MinContrast); ends < 3 {
			t.Errorf("two_17: die at (%.0f,%.0f) ends on %d sides, want 3 or 4", p.c.r.cx, p.c.r.cy, ends)
		}
	}
	lap := testPhoto(t, "matteop65/three_6.jpg")
	defer lap.Close()
	keys := cand{r: rotRect{cx: 489, cy: 44, w: 27, h: 27, ang: 0.635}, side: 27}
	if _, _, ends := faceRegion(lap, keys, 0.1, r.o.MinContrast); ends >= 3 {
		t.Errorf("three_6: the laptop's keys end on %d sides, want fewer than 3", ends)
	}
}

// TestOneOutline: a 1 is proposed from a lone pip only when it sits at the centre of a blank
// square face that ends in an outline. In dice_15 the two 1s' pips do (their faces about
// 5.5 pips wide); the laptop keys' symbols at the picture's right edge, dark spots too, do not.
func TestOneOutline(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	img := testPhoto(t, "matteop65/dice_15.jpg")
	defer img.Close()
	gray := gocv.NewMat()
	defer gray.Close()
	spots, g := darkSpots(img, &gray)
	ones := []image.Point{{229, 312}, {374, 315}} // the 1s' pips
	found := 0
	for _, s := range spots {
		x, y, d := (s.x+0.5)*g.scale-0.5, (s.y+0.5)*g.scale-0.5, s.d*g.scale
		_, w, ok := probeOne(g, x, y, d, oneReach*d, r.o.MinContrast, oneOff)
		pip := false
		for _, p := range ones {
			pip = pip || math.Hypot(s.x-float64(p.X), s.y-float64(p.Y)) < 3
		}
		switch side := (w[0] + w[1] + w[2] + w[3]) / 2; {
		case pip && (!ok || side < oneMinRatio*d || side > oneMaxRatio*d):
			t.Errorf("the 1 at (%.0f,%.0f): walks %v (ok %v), want a centred square %v to %v pips wide", s.x, s.y, w, ok, oneMinRatio, oneMaxRatio)
		case pip:
			found++
		case ok:
			t.Errorf("spot at (%.0f,%.0f), no 1's pip: walks %v end in a centred square", s.x, s.y, w)
		}
	}
	if found != len(ones) {
		t.Errorf("%d of the %d 1s' pips found as spots with their faces", found, len(ones))
	}
}
