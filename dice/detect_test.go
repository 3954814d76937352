package dice

import (
	"image"
	"testing"

	"gocv.io/x/gocv"
)

// grid makes a 4 x g x g detector output with heat h (row-major), log side 0 and offsets 0.5.
func grid(g int, h []float32) []float32 {
	o := make([]float32, 4*g*g)
	copy(o, h)
	for i := 2 * g * g; i < 4*g*g; i++ {
		o[i] = 0.5
	}
	return o
}

// TestPeaks: a peak is a cell no neighbour beats (equal neighbours are both peaks, as
// max_pool2d(...) == heat keeps them; cells past the edge do not count) reaching min_peak;
// surest sorts them surest first, ties in row-major order.
func TestPeaks(t *testing.T) {
	for _, tc := range []struct {
		name string
		heat []float32 // 4x4
		want [][2]int  // (col,row) in order
	}{
		{"none", make([]float32, 16), nil},
		{"corner and centre", []float32{
			0.9, 0.2, 0, 0,
			0.2, 0, 0, 0,
			0, 0, 0.5, 0,
			0, 0, 0, 0}, [][2]int{{0, 0}, {2, 2}}},
		{"below min peak", []float32{
			0.09, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0.1}, [][2]int{{3, 3}}},
		{"plateau keeps both, row-major", []float32{
			0, 0, 0, 0,
			0, 0.4, 0.4, 0,
			0, 0, 0, 0,
			0.7, 0, 0, 0.4}, [][2]int{{0, 3}, {1, 1}, {2, 1}, {3, 3}}},
		{"beaten by a diagonal", []float32{
			0.5, 0, 0, 0,
			0, 0.6, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0}, [][2]int{{1, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := surest(peaks(grid(4, tc.heat), 4, 4, 0.5, 0.1))
			if len(got) != len(tc.want) {
				t.Fatalf("%d peaks %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				// offset 0.5, stride 4, scale 0.5: centre = (cell+0.5)*8; side = exp(0)/0.5.
				x, y := (float64(w[0])+0.5)*8, (float64(w[1])+0.5)*8
				if got[i].x != x || got[i].y != y || got[i].side != 2 || got[i].peak != float64(tc.heat[w[1]*4+w[0]]) {
					t.Errorf("peak %d: %+v, want cell %v", i, got[i], w)
				}
			}
		})
	}
	t.Run("at most maxCands", func(t *testing.T) {
		g := 20
		h := make([]float32, g*g)
		for y := 0; y < g; y += 2 {
			for x := 0; x < g; x += 2 {
				h[y*g+x] = 0.2 + float32(x+y)/100
			}
		}
		got := surest(peaks(grid(g, h), g, 4, 1, 0.1))
		if len(got) != maxCands {
			t.Fatalf("%d peaks, want %d", len(got), maxCands)
		}
		for i := 1; i < len(got); i++ {
			if got[i].peak > got[i-1].peak {
				t.Fatalf("peaks out of order at %d: %v after %v", i, got[i].peak, got[i-1].peak)
			}
		}
		if got[0].peak != float64(h[(g-2)*g+g-2]) {
			t.Errorf("surest peak %v, want %v", got[0].peak, h[(g-2)*g+g-2])
		}
	})
}

func TestInTray(t *testing.T) {
	c := []cand{{peak: 0.9, x: 10, y: 10}, {peak: 0.8, x: 100, y: 50}, {peak: 0.7, x: 99.5, y: 20}}
	for _, tc := range []struct {
		tray image.Rectangle
		want int
	}{
		{image.Rectangle{}, 3},
		{image.Rect(0, 0, 100, 100), 2},
		{image.Rect(50, 0, 200, 100), 2},
		{image.Rect(200, 200, 300, 300), 0},
	} {
		if got := inTray(c, tc.tray); len(got) != tc.want {
			t.Errorf("tray %v keeps %d, want %d", tc.tray, len(got), tc.want)
		}
	}
}

// TestLetterbox: the frame at the top left, shrunk to DET on its longer side, grey past it.
func TestLetterbox(t *testing.T) {
	cfg := defaultConfig(t)
	for _, tc := range []struct {
		w, h   int
		s      float64
		nw, nh int
	}{
		{640, 480, 0.5, 320, 240},
		{470, 470, 320.0 / 470, 320, 320},
		{100, 50, 3.2, 320, 160},
		{3000, 1, 320.0 / 3000, 320, 1},
	} {
		f := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(10, 20, 30, 0), tc.h, tc.w, gocv.MatTypeCV8UC3)
		lb, s := letterbox(f, cfg)
		if s != tc.s || lb.Rows() != cfg.DetSide || lb.Cols() != cfg.DetSide {
			t.Errorf("%dx%d: %dx%d at scale %v, want %v", tc.w, tc.h, lb.Cols(), lb.Rows(), s, tc.s)
		}
		in, pad := lb.GetVecbAt(tc.nh-1, tc.nw-1), lb.GetVecbAt(cfg.DetSide-1, cfg.DetSide-1)
		if in[0] != 10 || in[2] != 30 || (tc.nw < cfg.DetSide || tc.nh < cfg.DetSide) && pad[1] != uint8(cfg.Pad) {
			t.Errorf("%dx%d: frame corner %v, pad %v", tc.w, tc.h, in, pad)
		}
		if tc.nh < cfg.DetSide {
			if p := lb.GetVecbAt(tc.nh, 0); p[0] != uint8(cfg.Pad) {
				t.Errorf("%dx%d: row %d is %v, not grey", tc.w, tc.h, tc.nh, p)
			}
		}
		lb.Close()
		f.Close()
	}
}
