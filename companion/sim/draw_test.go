package sim

import (
	"bytes"
	"context"
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// TestThrowPlacement: thrown dice lie wholly inside the tray and never overlap.
func TestThrowPlacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		l := RandomLook(rng, 640, 480, []int{1, 2, 3, 4})
		tray := l.TrayRect()
		for a, d := range l.Dice {
			r := d.Side * math.Sqrt2 / 2 // half diagonal: the die at any angle
			box := image.Rect(int(d.X-r), int(d.Y-r), int(d.X+r)+1, int(d.Y+r)+1)
			if !box.In(tray) {
				t.Fatalf("look %d: die %d at %v outside the tray %v", i, a, box, tray)
			}
			for b := 0; b < a; b++ {
				e := l.Dice[b]
				// Squares whose centres are at least their half diagonals apart cannot overlap at any angle.
				if math.Hypot(d.X-e.X, d.Y-e.Y) < (d.Side+e.Side)*math.Sqrt2/2 {
					t.Fatalf("look %d: dice %d and %d overlap", i, a, b)
				}
			}
		}
	}
}

// TestDrawIsReproducible: a seed gives the same frames, so a misread is
// reproduced from its seed and roll number.
func TestDrawIsReproducible(t *testing.T) {
	a, b := NewTable(77), NewTable(77)
	for i := 0; i < 3; i++ {
		va, vb := a.Throw(4), b.Throw(4)
		fa, _ := a.Frame(context.Background())
		fb, _ := b.Frame(context.Background())
		if !bytes.Equal(fa.(*image.RGBA).Pix, fb.(*image.RGBA).Pix) || va[0] != vb[0] {
			t.Fatalf("throw %d differs between two tables with the same seed", i+1)
		}
	}
	if c := NewTable(78); c.Tray() == a.Tray() && c.rig.Tray == a.rig.Tray && c.rig.Seed == a.rig.Seed {
		t.Fatal("another seed gives the same rig")
	}
}
