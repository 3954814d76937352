package sim

import (
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestDrawSample(t *testing.T) {
	out := os.Getenv("SIM_SAMPLES")
	if out == "" {
		t.Skip()
	}
	for i := 0; i < 6; i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		vals := []int{1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6)}
		img := Draw(RandomLook(rng, 640, 480, vals))
		f, _ := os.Create(filepath.Join(out, "s"+string(rune('0'+i))+".png"))
		png.Encode(f, img)
		f.Close()
		t.Log(i, vals)
	}
}
