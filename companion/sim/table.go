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
	rig   Look        // the tray and the players' dice
	bg    *image.RGBA // the empty tray, drawn once
	look  Look
	frame image.Image
}

// NewTable returns a 640×480 tray whose rolls and looks follow seed.
// The rig (tray, light, the players' dice) follows seed too.
func NewTable(seed uint64) *Table {
	t := &Table{Width: 640, Height: 480, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x5EED))}
	t.rig = RandomRig(t.rng, t.Width, t.Height)
	t.bg = Background(t.rig)
	t.look, t.frame = t.rig, t.bg
	return t
}

// Tray is the felt inside the tray's rim, in frame pixels: what a
// calibration of this rig would tell the reader.
func (t *Table) Tray() image.Rectangle { return t.rig.TrayRect() }

// Throw rolls n dice, draws them and returns their values.
func (t *Table) Throw(n int) []int {
	t.mu.Lock()
	defer t.mu.Unlock()
	vals := make([]int, n)
	for i := range vals {
		vals[i] = 1 + t.rng.IntN(6)
	}
	t.rolls++
	t.look = t.rig.Throw(t.rng, vals)
	img := image.NewRGBA(t.bg.Rect)
	copy(img.Pix, t.bg.Pix)
	DrawDice(img, t.look)
	t.frame = img
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

// LastLook is the last throw's look (dice, colours, places).
func (t *Table) LastLook() Look {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.look
}
