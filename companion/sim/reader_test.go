package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
)

// TestRealReaderReadsDrawnDice puts drawn rolls through the real dice reader:
// every reading must be the dice drawn, or an honest refusal (counted and
// logged). Seed 3's players brought dice of two colour schemes (three alike and
// one not), which a calibrated tray must read; seed 4 has 2s whose corner pips'
// surroundings cross a small die's edge under light from one side.
func TestRealReaderReadsDrawnDice(t *testing.T) {
	read := 0
	for seed := uint64(1); seed <= 4; seed++ {
		read += readDrawn(t, seed, 15)
	}
	// Misreads fail in readDrawn. The floor sits a little below what the built-in
	// networks read (37 of 60 on 2026-12-05). The clean drawn frames should all be
	// read, and are not yet: dice showing 1 are often missed or doubted, and black
	// dice on dark felt have their pips taken for dice (BENCHMARKS-dice.md).
	if read < 33 {
		t.Errorf("%d of 60 drawn rolls read, want at least 33", read)
	}
}

func readDrawn(t *testing.T, seed uint64, n int) int {
	table := NewTable(seed)
	r, err := dice.NewReader(dice.Opts{Expect: 4, Tray: table.Tray()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src := camera.NewImageSource(table.Frame)
	defer src.Close()
	read := 0
	for i := 0; i < n; i++ {
		drawn := slices.Sorted(slices.Values(table.Throw(4)))
		m, err := src.Frame(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Read(m)
		m.Close()
		if rd.Status != dice.StatusRead {
			t.Logf("seed %d roll %d: drew %v: %s %s", seed, i+1, drawn, rd.Status, rd.Why)
			continue
		}
		if got := rd.Values(); !slices.Equal(got, drawn) {
			t.Errorf("seed %d roll %d: drew %v, read %v", seed, i+1, drawn, got)
			continue
		}
		read++
	}
	t.Logf("seed %d: %d of %d rolls read", seed, read, n)
	return read
}
