package camera

import (
	"slices"
	"sync"
	"testing"
)

// TestReaderKeepsNetworks: a Reader keeps the networks it loaded for the next read and frees
// them on Close; it reads the same after, and from several goroutines at once (each pass
// takes a network of its own).
func TestReaderKeepsNetworks(t *testing.T) {
	img := testPhoto(t, "nell-byler/IMG_20191209_100602.jpg")
	defer img.Close()
	r := NewReader(DefaultReaderOpts())
	want := r.Read(img)
	if len(r.nets[0].idle) == 0 || len(r.nets[1].idle) == 0 {
		t.Fatalf("after a read that asked both networks, idle networks %d and %d, want some of each", len(r.nets[0].idle), len(r.nets[1].idle))
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(r.nets[0].idle) + len(r.nets[1].idle); n != 0 {
		t.Fatalf("after Close, %d idle networks, want none", n)
	}
	var wg sync.WaitGroup
	got := make([]Reading, 3)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = r.Read(img)
		}()
	}
	wg.Wait()
	defer r.Close()
	for i, g := range got {
		if g.Status != want.Status || !slices.Equal(g.Values(), want.Values()) {
			t.Errorf("read %d after Close: %s %v, first read %s %v", i, g.Status, g.Values(), want.Status, want.Values())
		}
	}
}
