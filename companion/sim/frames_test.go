package sim

import (
	"context"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var writeFrames = flag.Bool("write-frames", false, "write the synthetic frames used by companion's benchmark to ../testdata/frames")

// TestWriteFrames records a few simulated rolls as PNG files with their
// labels, for the companion's OK-to-choices benchmark (run with -write-frames).
func TestWriteFrames(t *testing.T) {
	if !*writeFrames {
		t.Skip("run with -write-frames to regenerate companion/testdata/frames")
	}
	dir := filepath.Join("..", "testdata", "frames")
	var labels []string
	for seed := uint64(1); seed <= 4; seed++ {
		table := NewTable(seed * 101)
		vals := slices.Sorted(slices.Values(table.Throw(4)))
		name := fmt.Sprintf("sim-%d.png", seed)
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, _ := table.Frame(context.Background())
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		s := fmt.Sprint(vals)
		labels = append(labels, name+","+s[1:len(s)-1])
	}
	t.Log(strings.Join(labels, "\n"))
}
