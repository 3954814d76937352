package camera

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"gocv.io/x/gocv"
)

// TestStillFrames: the stack's mean takes the latest o.Average frames of a still scene, so its
// noise falls; a frame that drifted from the older ones, or of another size, starts the stack
// again, so that nothing that moved is averaged.
func TestStillFrames(t *testing.T) {
	img := testPhoto(t, "matteop65/four_12.jpg")
	defer img.Close()
	o := DefaultSettleOpts()
	var s stillFrames
	defer s.reset()
	var grains []float64
	for seed := uint64(1); seed <= 5; seed++ {
		f := noiseSeeded(8, seed)(img)
		m := s.add(f, thumbnail(f), o)
		grains = append(grains, grain(m))
		m.Close()
	}
	if len(s.frames) != o.Average {
		t.Errorf("%d frames kept, want Average = %d", len(s.frames), o.Average)
	}
	clean := grain(img)
	// Noise of sd σ adds about 1.13σ to grain (the mean |difference| of two samples); the
	// mean of 4 frames halves σ.
	if g1, g4 := grains[0]-clean, grains[3]-clean; g4 > 0.6*g1 {
		t.Errorf("grain above the clean photo's: %.2f for one frame, %.2f for the mean of four, want it at least nearly halved", g1, g4)
	}
	if grains[4] > grains[3]+0.3 {
		t.Errorf("grain %.2f after a fifth frame, %.2f after four: the stack should hold four", grains[4], grains[3])
	}

	// The dice moved (the picture turned): the stack starts again from the new frame.
	turned := rotate(gocv.Rotate180Clockwise)(img)
	m := s.add(turned, thumbnail(turned), o)
	if len(s.frames) != 1 || !matEqual(m, turned) {
		t.Errorf("after a frame that moved: %d frames kept, mean equal to it %v; want 1, true", len(s.frames), matEqual(m, turned))
	}
	m.Close()

	// Another size (the camera restarted at another mode): likewise.
	small := rescale(0.5, gocv.InterpolationArea)(img)
	m = s.add(small, thumbnail(small), o)
	if len(s.frames) != 1 || m.Cols() != small.Cols() {
		t.Errorf("after a frame of another size: %d frames kept, mean %dx%d", len(s.frames), m.Cols(), m.Rows())
	}
	m.Close()
}

// matEqual says whether two Mats hold the same bytes.
func matEqual(a, b gocv.Mat) bool {
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() || a.Type() != b.Type() {
		return false
	}
	return bytes.Equal(a.ToBytes(), b.ToBytes())
}

// TestSettleAverages: in a dim room (bright0.6) a sensor's noise alone keeps single frames
// from reading these photos, and the votes of single frames cannot agree on them (the control,
// Average 1). Read as the mean of the still frames, each settles on its labelled values.
func TestSettleAverages(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	dim, err := VariationNamed("bright0.6")
	if err != nil {
		t.Fatal(err)
	}
	control := 0
	for _, c := range []readCase{
		{"matteop65/dice_13.jpg", "[1 1]"},
		{"matteop65/dice_34.jpg", "[1 1 1 1]"},
		{"matteop65/four_13.jpg", "[4 4]"},
		{"matteop65/six_25.jpg", "[6 6 6]"},
	} {
		img := testPhoto(t, c.file)
		m := dim(img)
		img.Close()
		settle := func(average int) Reading {
			o := DefaultSettleOpts()
			o.MaxWait, o.Average = 0, average
			rd, err := Settle(context.Background(), &noisyFrames{img: m, n: 12}, r, o)
			if errors.Is(err, io.EOF) {
				return Reading{Status: StatusNotSettled}
			} else if err != nil {
				t.Fatal(err)
			}
			return rd
		}
		if rd := settle(DefaultSettleOpts().Average); rd.Status != StatusRead || fmt.Sprint(rd.Values()) != c.want {
			t.Errorf("%s dim, settled: %s %v (%s), want read %s", c.file, rd.Status, rd.Values(), rd.Why, c.want)
		}
		if rd := settle(1); rd.Status != StatusRead || fmt.Sprint(rd.Values()) != c.want {
			control++
		}
		m.Close()
	}
	if control < 3 {
		t.Errorf("only %d of 4 photos fail to settle frame by frame: the test no longer shows what averaging does; pick dimmer photos", control)
	}
}

// BenchmarkMeanOf: the cost of averaging four 640×480 frames, paid once per still frame.
func BenchmarkMeanOf(b *testing.B) {
	img := gocv.IMRead("testdata/dice/matteop65/four_12.jpg", gocv.IMReadColor)
	defer img.Close()
	frames := []gocv.Mat{img, img, img, img}
	for i := 0; i < b.N; i++ {
		m := meanOf(frames)
		m.Close()
	}
}
