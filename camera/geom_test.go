package camera

import (
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
