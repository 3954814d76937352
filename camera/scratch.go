package camera

import (
	"math/bits"
	"sync"
)

// floats lends zeroed []float64 scratch buffers and takes them back. Each face read makes a
// few patch-sized maps (96×96 at the default FaceSide); thrown away, they were a third of the
// reader's garbage, and collecting it (and faulting freed pages back in) cost more than
// reading the faces. A Reader owns one, so Readers share nothing and one Reader stays safe for
// several goroutines. Buffers are pooled by power-of-two capacity, so a small request never
// takes (and loses) a large buffer.
type floats struct{ pools [40]sync.Pool }

// get returns a zeroed slice of length n.
func (f *floats) get(n int) []float64 {
	c := bits.Len(uint(n))
	if c >= len(f.pools) {
		return make([]float64, n)
	}
	if b, ok := f.pools[c].Get().(*[]float64); ok {
		s := (*b)[:n]
		clear(s)
		return s
	}
	return make([]float64, n, 1<<c)
}

// put takes back a slice from get; the caller must not use it after.
func (f *floats) put(s []float64) {
	if c := bits.Len(uint(cap(s))) - 1; cap(s) > 0 && cap(s) == 1<<c && c < len(f.pools) {
		f.pools[c].Put(&s)
	}
}
