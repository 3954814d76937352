package camera

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"gocv.io/x/gocv"
)

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

// TestReaderConcurrent: one Reader read from several goroutines at once (its scratch buffers
// are pooled) reads every photo as it does alone. Run with -race to check the pool as well.
func TestReaderConcurrent(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	files := []string{"matteop65/dice_1.jpg", "matteop65/dice_11.jpg", "matteop65/dice_12.jpg"}
	files = append(files, netCases[0].file, netCases[1].file) // the network's passes too
	want := make([]string, len(files))
	for i, f := range files {
		rd := readPhoto(t, r, f)
		want[i] = fmt.Sprint(rd.Status, rd.Values())
	}
	errs := make(chan error, 3*len(files))
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		for i, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				img := gocv.IMRead(filepath.Join("testdata", "dice", f), gocv.IMReadColor)
				defer img.Close()
				rd := r.Read(img)
				if got := fmt.Sprint(rd.Status, rd.Values()); got != want[i] {
					errs <- fmt.Errorf("%s read as %s concurrently, %s alone", f, got, want[i])
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
