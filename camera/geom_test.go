package camera

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

// TestMedianQuantile checks the selection-based median and quantile against a full sort, on
// sizes odd and even and values with many repeats (as 8-bit colours have).
func TestMedianQuantile(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 1; n < 200; n += 7 {
		for _, levels := range []int{3, 256, 1 << 20} {
			v := make([]float64, n)
			for i := range v {
				v[i] = float64(rng.Intn(levels))
			}
			s := append([]float64(nil), v...)
			sort.Float64s(s)
			want := s[n/2]
			if n%2 == 0 {
				want = (s[n/2-1] + s[n/2]) / 2
			}
			if got := median(v); got != want {
				t.Fatalf("n %d levels %d: median %v, want %v", n, levels, got, want)
			}
			for _, q := range []float64{0, 0.3, 0.995, 1} {
				if got, want := quantile(v, q), s[int(q*float64(n-1))]; got != want {
					t.Fatalf("n %d levels %d: quantile %v = %v, want %v", n, levels, q, got, want)
				}
			}
		}
	}
}

// TestByteHistMedian checks that the histogram's median is median's, for odd and even counts.
func TestByteHistMedian(t *testing.T) {
	for n := 0; n < 40; n++ {
		var h byteHist
		var v []float64
		for i := 0; i < n; i++ {
			b := byte((i*7919 + n*31) % 251)
			h.add(b)
			v = append(v, float64(b))
		}
		if got, want := h.median(), median(v); got != want {
			t.Errorf("%d values: byteHist median %v, median %v", n, got, want)
		}
	}
}

// TestInPicture: a face's corners (inPicture, grown) and the middles of its sides
// (sidesInPicture) against a 100×100 picture. A face turned 45° near the edge has its
// corner outside while its sides' middles, where a walk from its pip ends, are inside.
func TestInPicture(t *testing.T) {
	turned := rotRect{cx: 50, cy: 20, w: 40, h: 40, ang: math.Pi / 4} // corners 28.3 from the centre
	for _, c := range []struct {
		name          string
		r             rotRect
		d             float64
		corners, mids bool
	}{
		{"square in the middle", rotRect{cx: 50, cy: 50, w: 40, h: 40}, 0, true, true},
		{"square touching the top", rotRect{cx: 50, cy: 20, w: 40, h: 40}, 0, true, true},
		{"square one pixel beyond the top", rotRect{cx: 50, cy: 19, w: 40, h: 40}, 0, false, false},
		{"square grown by 4 with 5 to spare", rotRect{cx: 50, cy: 25, w: 40, h: 40}, 4, true, true},
		{"square grown by 6 with 5 to spare", rotRect{cx: 50, cy: 25, w: 40, h: 40}, 6, false, false},
		{"turned 45°, corner beyond the top", turned, 0, false, true},
		{"turned 45°, top side's middle 5.9 px in, moved out by 15", turned, 15, false, false},
	} {
		if got := inPicture(c.r.grown(c.d), 100, 100); got != c.corners {
			t.Errorf("%s: inPicture(grown %v) = %v, want %v", c.name, c.d, got, c.corners)
		}
		if got := sidesInPicture(c.r, c.d, 100, 100); got != c.mids {
			t.Errorf("%s: sidesInPicture(%v) = %v, want %v", c.name, c.d, got, c.mids)
		}
	}
}
