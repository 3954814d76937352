package sim

import (
	"context"
	"image"
	"math/rand/v2"
	"sync"
)

// Table is the simulated tray: each Throw rolls dice at random and draws
// the frame a camera above the tray would see.
type Table struct {
	Width, Height int

	mu    sync.Mutex
	seed  uint64
	rng   *rand.Rand
	rolls int
	look  Look
	frame image.Image
}

// NewTable returns a 640×480 tray whose rolls and looks follow seed.
func NewTable(seed uint64) *Table {
	return &Table{Width: 640, Height: 480, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x5EED))}
}

// Throw rolls n dice, draws them and returns their values.
func (t *Table) Throw(n int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	vals := make([]int, n)
	for i := range vals {
		vals[i] = 1 + t.rng.IntN(6)
	}
	t.rolls++
	t.look = RandomLook(t.rng, t.Width, t.Height, vals)
	t.frame = Draw(t.look)
	return vals
}

// Frame returns the current picture of the tray (what camera.NewImageSource
// calls): the dice lie still, so every frame is the same until the next Throw.
func (t *Table) Frame(ctx context.Context) (image.Image, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frame == nil {
		t.look = RandomLook(t.rng, t.Width, t.Height, nil)
		t.frame = Draw(t.look)
	}
	return t.frame, nil
}

// Seed is the table's seed; Rolls is how many throws it has made. Together
// they name a roll for reproducing it.
func (t *Table) Seed() uint64 { return t.seed }

// Rolls is the number of throws so far.
func (t *Table) Rolls() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rolls
}

// Look is the last throw's look (dice, colours, places).
func (t *Table) LastLook() Look {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.look
}
