package camera

import (
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestOverexposed: no shared photo is overexposed; brightened 1.4 times, ivory dice on pale
// wood clip white with the wood and the photo is; a region of a picture (a calibrated tray's)
// is measured as a picture of its own.
func TestOverexposed(t *testing.T) {
	files, err := filepath.Glob("../dice/testdata/photos/*/*.jpg")
	if err != nil || len(files) < 100 {
		t.Fatalf("../dice/testdata/photos holds %d photos (%v)", len(files), err)
	}
	for _, f := range files {
		img := gocv.IMRead(f, gocv.IMReadColor)
		if share, over := Overexposed(img); over {
			t.Errorf("%s: %.2f%% clipped white, taken for overexposed", f, 100*share)
		}
		img.Close()
	}
	for _, f := range []string{"matteop65/dice_1.jpg", "matteop65/dice_4.jpg"} {
		img := gocv.IMRead(filepath.Join("..", "dice", "testdata", "photos", f), gocv.IMReadColor)
		if img.Empty() {
			t.Fatalf("cannot read %s", f)
		}
		bright := gocv.NewMat()
		img.ConvertToWithParams(&bright, gocv.MatTypeCV8UC3, 1.4, 0)
		if share, over := Overexposed(bright); !over {
			t.Errorf("%s brightened 1.4×: %.2f%% clipped white, not taken for overexposed", f, 100*share)
		}
		// The middle of the picture, as a region: not continuous, measured all the same.
		mid := bright.Region(image.Rect(bright.Cols()/4, bright.Rows()/4, 3*bright.Cols()/4, 3*bright.Rows()/4))
		if share, _ := Overexposed(mid); share <= 0 {
			t.Errorf("%s brightened 1.4×, its middle: %.2f%% clipped white, want some", f, 100*share)
		}
		mid.Close()
		bright.Close()
		img.Close()
	}
	white := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 40, 60, gocv.MatTypeCV8UC3)
	defer white.Close()
	if share, over := Overexposed(white); !over || share != 1 {
		t.Errorf("a white picture: %.2f clipped, overexposed %v; want 1, true", share, over)
	}
}
