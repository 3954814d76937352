package camera

import (
	"path/filepath"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// TestCalibratedSize: a reader given the dice's size (ReaderOpts.DieSidePx) reads the testdata
// photos the reader reads exactly without one. At its own measure of the photo
// (Reading.SidePx) it reads nearly all of them; at three quarters of it (a camera raised since
// the size was set, or a version 1 profile's top-face side) it still tries the sizes the blobs
// vote for, where a reader given that size alone read 90 of 120.
func TestCalibratedSize(t *testing.T) {
	plain := NewReader(DefaultReaderOpts())
	defer plain.Close()
	factors := []float64{1, 0.75}
	floors := []float64{0.97, 0.9} // measured 119 and 115 of 120
	n := 0
	exact := make([]int, len(factors))
	var ratios []float64 // the reader's size against the labelled boxes' narrower side
	for _, dir := range diceSets(t) {
		photos, err := loadLabels(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range photos {
			if len(p.values) > 6 {
				continue
			}
			img := gocv.IMRead(filepath.Join(dir, p.file), gocv.IMReadColor)
			want := slices.Sorted(slices.Values(p.values))
			rd := plain.Read(img)
			if rd.Status != StatusRead || !slices.Equal(rd.Values(), want) {
				img.Close()
				continue
			}
			if rd.SidePx <= 0 {
				// No blob was die-like enough to vote for a size (ivory dice on pale wood,
				// read from their pips alone): there is none to give.
				img.Close()
				continue
			}
			if len(p.boxes) > 0 {
				var sides []float64
				for _, b := range p.boxes {
					sides = append(sides, float64(min(b.r.Dx(), b.r.Dy())))
				}
				ratios = append(ratios, rd.SidePx/median(sides))
			}
			n++
			for i, f := range factors {
				o := DefaultReaderOpts()
				o.DieSidePx = f * rd.SidePx
				r := NewReader(o)
				if c := r.Read(img); c.Status == StatusRead && slices.Equal(c.Values(), want) {
					exact[i]++
				} else {
					t.Logf("%s at %.2f of its size: %s %v (%s)", p.file, f, c.Status, c.Values(), c.Why)
				}
				r.Close()
			}
			img.Close()
		}
	}
	slices.Sort(ratios)
	t.Logf("the reader's size over the boxes' narrower side: median %.2f, from %.2f to %.2f", median(ratios), ratios[0], ratios[len(ratios)-1])
	for i, f := range factors {
		t.Logf("at %.2f of the reader's own size: %d of %d photos read exactly", f, exact[i], n)
		if float64(exact[i]) < floors[i]*float64(n) {
			t.Errorf("at %.2f of the reader's own size: %d of %d photos read exactly, floor %.0f%%", f, exact[i], n, 100*floors[i])
		}
	}
}
