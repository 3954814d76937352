// Command simframes writes frames of the simulated table (companion/sim) with their labels, as a
// photo set the dice networks train on beside the real ones (scripts/dicenet/train.py --extra):
//
//	go run ./scripts/simframes -n 400 .cache/simframes
//
// The folder gets frame_NNNN.jpg, labels.csv and boxes.csv in the shared photo sets' format.
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/companion/sim"
)

func main() {
	n := flag.Int("n", 400, "frames to write")
	seed := flag.Uint64("seed", 7, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: simframes [-n N] [-seed S] DIR")
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "simframes:", err)
		os.Exit(1)
	}
}

func write(dir string, n int, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("make %s: %w", dir, err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	labels := [][]string{{"file", "values"}}
	boxes := [][]string{{"file", "value", "x0", "y0", "x1", "y1"}}
	for i := range n {
		vals := make([]int, 1+rng.IntN(4))
		if rng.IntN(2) == 0 {
			vals = make([]int, 4) // the companion's four dice, most often
		}
		for j := range vals {
			vals[j] = 1 + rng.IntN(6)
		}
		w, h := 640, 480
		if rng.IntN(4) == 0 {
			w, h = 1280, 720
		}
		l := sim.RandomLook(rng, w, h, vals)
		name := fmt.Sprintf("frame_%04d.jpg", i)
		if err := writeJPEG(filepath.Join(dir, name), l); err != nil {
			return err
		}
		slices.Sort(vals)
		labels = append(labels, []string{name, strings.Trim(fmt.Sprint(vals), "[]")})
		for _, d := range l.Dice {
			half := d.Side / 2 * (math.Abs(math.Cos(d.Angle)) + math.Abs(math.Sin(d.Angle)))
			boxes = append(boxes, []string{name, strconv.Itoa(d.Value),
				f(d.X - half), f(d.Y - half), f(d.X + half), f(d.Y + half)})
		}
	}
	if err := writeCSV(filepath.Join(dir, "labels.csv"), labels); err != nil {
		return err
	}
	return writeCSV(filepath.Join(dir, "boxes.csv"), boxes)
}

func f(v float64) string { return strconv.Itoa(int(math.Round(v))) }

func writeJPEG(path string, l sim.Look) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := jpeg.Encode(out, sim.Draw(l), &jpeg.Options{Quality: 90}); err != nil {
		out.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return out.Close()
}

func writeCSV(path string, rows [][]string) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	w := csv.NewWriter(out)
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		out.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return out.Close()
}
