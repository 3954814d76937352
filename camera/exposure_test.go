package camera

import (
	"image"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestBrightened: a picture whose highlights lie below dimLevel is stretched up to it, by at
// most maxGain; a brighter one, as every shared photo is, is left alone.
func TestBrightened(t *testing.T) {
	for _, c := range []struct {
		name     string
		face, bg uint8
		want     int // the stretched picture's highlights, or -1: left alone
	}{
		{"lit", 200, 120, -1},
		{"dim", 114, 70, dimLevel},
		{"dark", 40, 20, 120}, // 3× at most
	} {
		t.Run(c.name, func(t *testing.T) {
			img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(c.bg), float64(c.bg)*0.9, float64(c.bg)*0.8, 0), 120, 160, gocv.MatTypeCV8UC3)
			defer img.Close()
			// A face of 20×20 pixels: the brightest 2% of the picture, above highShare.
			face := img.Region(image.Rect(70, 50, 90, 70))
			face.SetTo(gocv.NewScalar(float64(c.face), float64(c.face), float64(c.face), 0))
			face.Close()
			out, ok := brightened(img)
			if c.want < 0 {
				if ok {
					out.Close()
					t.Fatalf("a picture whose highlights are %d was stretched", highlights(img))
				}
				return
			}
			if !ok {
				t.Fatalf("a picture whose highlights are %d was left alone", highlights(img))
			}
			defer out.Close()
			if got := highlights(out); got < c.want-2 || got > c.want+2 {
				t.Errorf("highlights %d → %d, want %d", highlights(img), got, c.want)
			}
		})
	}
}

// TestReadUnderexposed: photos darkened to 0.6 of their light, as a dim rig's camera sees
// them, are read as the photos are. Each was read with a die missing or refused before dim
// pictures were stretched: absolute contrasts fell below the reader's thresholds (a 3 read
// as pips in no layout, a 1's pip near the edge, dice with no contrast to the wood at all).
func TestReadUnderexposed(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"bright0.6", "matteop65/dice_34.jpg", "[1 1 1 1]"},
		{"bright0.6", "matteop65/dice_42.jpg", "[1 1 1 1 1]"},
		{"bright0.6", "matteop65/three_3.jpg", "[3]"},
		{"bright0.6", "matteop65/three_5.jpg", "[3]"},
		{"bright0.6", "matteop65/four_17.jpg", "[4 4]"},
		{"bright0.6", "matteop65/four_45.jpg", "[4 4 4 4 4]"},
		{"bright0.6", "matteop65/two_9.jpg", "[2]"},
		{"bright0.6", "nell-byler/IMG_20191209_100525.jpg", "[1 1 3 5]"},
		{"bright0.6", "nell-byler/IMG_20191209_095348.jpg", "[1 1 2 4 4 5]"},
	})
}

// TestOverexposed: no shared photo is overexposed; brightened 1.4 times, ivory dice on pale
// wood clip white with the wood, the reader no longer finds them, and its reason for the
// reading it could not give (or for a reading of no dice) says why and what to change.
func TestOverexposed(t *testing.T) {
	files, err := filepath.Glob("testdata/dice/*/*.jpg")
	if err != nil || len(files) < 100 {
		t.Fatalf("testdata/dice holds %d photos (%v)", len(files), err)
	}
	for _, f := range files {
		img := gocv.IMRead(f, gocv.IMReadColor)
		if share, over := Overexposed(img); over {
			t.Errorf("%s: %.2f%% clipped white, taken for overexposed", f, 100*share)
		}
		img.Close()
	}

	r := NewReader(ReaderOpts{Expect: 1})
	defer r.Close()
	if rd := readPhoto(t, r, "matteop65/dice_1.jpg"); rd.Status != StatusRead || strings.Contains(rd.Why, "overexposed") {
		t.Errorf("dice_1 as taken: %s %v (%s), want read and no word of exposure", rd.Status, rd.Values(), rd.Why)
	}
	anyCount := NewReader(ReaderOpts{})
	defer anyCount.Close()
	for _, c := range []struct {
		r      *Reader
		file   string
		status Status
	}{
		{r, "matteop65/dice_1.jpg", StatusWrongCount},  // its die vanishes into the wood
		{anyCount, "matteop65/dice_1.jpg", StatusRead}, // no dice, and why none were seen
		{r, "matteop65/dice_4.jpg", StatusUnreadable},  // spots of a washed-out face in no layout
	} {
		v, _ := VariationNamed("bright1.4")
		img := testPhoto(t, c.file)
		bright := v(img)
		img.Close()
		share, over := Overexposed(bright)
		rd := c.r.Read(bright)
		bright.Close()
		if !over {
			t.Errorf("%s brightened 1.4×: %.2f%% clipped white, not taken for overexposed", c.file, 100*share)
		}
		if rd.Status != c.status || !strings.Contains(rd.Why, "overexposed") || !strings.Contains(rd.Why, "--exposure") {
			t.Errorf("%s brightened 1.4×: %s (%s), want %s with the exposure to blame", c.file, rd.Status, rd.Why, c.status)
		}
	}
}
