package camera

import "testing"

// TestFloats: a lent buffer is always zeroed and of the length asked, whatever was written
// into it before it came back, and a small request is not served from a large buffer's pool.
func TestFloats(t *testing.T) {
	var f floats
	for _, n := range []int{0, 1, 7, 8, 9216, 20736, 9216, 1296} {
		b := f.get(n)
		if len(b) != n {
			t.Fatalf("get(%d): length %d", n, len(b))
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("get(%d)[%d] = %v: not zeroed", n, i, v)
			}
		}
		if c := cap(b); n > 0 && (c < n || c >= 2*n+2) {
			t.Errorf("get(%d): capacity %d, want the power of two above %d", n, c, n)
		}
		for i := range b {
			b[i] = float64(i + 1)
		}
		f.put(b)
	}
	f.put(make([]float64, 5)) // not from get: not pooled, and no panic
	if b := f.get(5); cap(b) != 8 {
		t.Errorf("get(5) after put of a foreign slice: capacity %d, want 8", cap(b))
	}
}
