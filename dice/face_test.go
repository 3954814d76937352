package dice

import (
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestTurnConvention: k = 1 is np.rot90's turn, counter-clockwise: np.rot90([[1,2],[3,4]]) is
// [[2,4],[1,3]].
func TestTurnConvention(t *testing.T) {
	src, err := gocv.NewMatFromBytes(2, 2, gocv.MatTypeCV8UC1, []byte{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for k, want := range [][]byte{{1, 2, 3, 4}, {2, 4, 1, 3}, {4, 3, 2, 1}, {3, 1, 4, 2}} {
		got := turn(src, k)
		b, _ := got.DataPtrUint8()
		if string(b) != string(want) {
			t.Errorf("k=%d: %v, numpy %v", k, b, want)
		}
		got.Close()
	}
}

// TestFaceSquareOutside: a die wholly past the frame's edge gives a grey square.
func TestFaceSquareOutside(t *testing.T) {
	cfg := defaultConfig(t)
	f := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 50, 60, gocv.MatTypeCV8UC3)
	defer f.Close()
	for _, p := range []image.Point{{500, 20}, {20, 500}} {
		sq := faceSquare(f, float64(p.X), float64(p.Y), 30, cfg)
		if sq.Rows() != cfg.FaceSide || sq.Cols() != cfg.FaceSide {
			t.Errorf("%v: %dx%d", p, sq.Cols(), sq.Rows())
		}
		if v := sq.GetVecbAt(5, 5); v[0] != uint8(cfg.Pad) {
			t.Errorf("%v: %v, want grey", p, v)
		}
		sq.Close()
	}
}

// TestFaceBlob: each channel less its mean, over the square's spread + 0.02.
func TestFaceBlob(t *testing.T) {
	// A 2x2 square: B = 0, 255, 0, 255; G flat 100; R flat 7.
	sq, err := gocv.NewMatFromBytes(2, 2, gocv.MatTypeCV8UC3, []byte{0, 100, 7, 255, 100, 7, 0, 100, 7, 255, 100, 7})
	if err != nil {
		t.Fatal(err)
	}
	defer sq.Close()
	blob, err := faceBlob([]gocv.Mat{sq, sq})
	if err != nil {
		t.Fatal(err)
	}
	defer blob.Close()
	x, _ := blob.DataPtrFloat32()
	if len(x) != 2*3*4 {
		t.Fatalf("%d values", len(x))
	}
	// B is ±0.5 and the rest 0: the spread over 12 values is sqrt(4*0.25/12).
	d := 0.5 / (math.Sqrt(1.0/12) + 0.02)
	want := []float64{-d, d, -d, d, 0, 0, 0, 0, 0, 0, 0, 0}
	for i, w := range want {
		if math.Abs(float64(x[i])-w) > 1e-5 || math.Abs(float64(x[12+i])-w) > 1e-5 {
			t.Fatalf("blob %v, want %v twice", x, want)
		}
	}
}
