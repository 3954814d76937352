package camera

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestLabel checks the flood fill against a plain one with bounds checks, on grids with
// pixels along every edge (the fill pads the grid to skip those checks) and on random grids,
// both connectivities: the same components, each with its pixels in the same order.
func TestLabel(t *testing.T) {
	tests := []struct {
		name         string
		g            grid
		minSize      int
		want8, want4 int // component counts
	}{
		{"diagonal pair joins only 8-connected", parseGrid("#.", ".#"), 1, 1, 2},
		{"edges and corners", parseGrid("#..#", "....", "#..#"), 1, 4, 4},
		{"ring of border pixels", parseGrid("####", "#..#", "####"), 1, 1, 1},
		{"small parts left out", parseGrid("##.#", "....", "#..."), 2, 1, 1},
		{"empty", parseGrid("...", "..."), 1, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.g.label(tc.minSize, true); len(got) != tc.want8 || !reflect.DeepEqual(got, naiveLabel(tc.g, tc.minSize, true)) {
				t.Errorf("8-connected: %v, want %d components as %v", got, tc.want8, naiveLabel(tc.g, tc.minSize, true))
			}
			if got := tc.g.label(tc.minSize, false); len(got) != tc.want4 || !reflect.DeepEqual(got, naiveLabel(tc.g, tc.minSize, false)) {
				t.Errorf("4-connected: %v, want %d components as %v", got, tc.want4, naiveLabel(tc.g, tc.minSize, false))
			}
		})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 200; k++ {
		g := randomGrid(rng, 1, 40)
		for _, diag := range []bool{true, false} {
			minSize := 1 + rng.IntN(4)
			if got, want := g.label(minSize, diag), naiveLabel(g, minSize, diag); !reflect.DeepEqual(got, want) {
				t.Fatalf("random %dx%d grid, diag %v, minSize %d: got %v, want %v", g.w, g.h, diag, minSize, got, want)
			}
		}
	}
}

// parseGrid makes a grid of rows of '#' (true) and '.' (false).
func parseGrid(rows ...string) grid {
	g := newGrid(len(rows[0]), len(rows))
	for y, r := range rows {
		for x, c := range r {
			g.b[y*g.w+x] = c == '#'
		}
	}
	return g
}

// randomGrid makes a grid from lo to lo+n-1 pixels each way, its pixels true with a
// probability drawn for the grid.
func randomGrid(rng *rand.Rand, lo, n int) grid {
	g := newGrid(lo+rng.IntN(n), lo+rng.IntN(n))
	p := rng.Float64()
	for i := range g.b {
		g.b[i] = rng.Float64() < p
	}
	return g
}

// naiveLabel is label written plainly: components in scan order, each filled from a stack
// with the neighbours taken in label's order.
func naiveLabel(g grid, minSize int, diag bool) [][]int {
	nb := [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	if diag {
		nb = [][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}
	}
	seen := make([]bool, len(g.b))
	var out [][]int
	for s, v := range g.b {
		if !v || seen[s] {
			continue
		}
		seen[s] = true
		stack, comp := []int{s}, []int{}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, i)
			for _, d := range nb {
				x, y := i%g.w+d[0], i/g.w+d[1]
				if x < 0 || y < 0 || x >= g.w || y >= g.h {
					continue
				}
				if j := y*g.w + x; g.b[j] && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if len(comp) >= minSize {
			out = append(out, comp)
		}
	}
	return out
}

// TestFillHoles checks that holes (false regions the border does not reach) are filled up to
// the size given, and that filling every hole (the pip finder's case, which skips labelling
// the holes) matches the general fill on random grids.
func TestFillHoles(t *testing.T) {
	g := parseGrid(
		"#######",
		"#..#.##",
		"#..#.#.",
		"####.##",
		"...####",
	)
	count := func(g grid) int {
		n := 0
		for _, v := range g.b {
			if v {
				n++
			}
		}
		return n
	}
	// The 2×2 hole (4 pixels) and the 3-pixel column; the gap on the right edge and the
	// bottom-left corner touch the border and stay open.
	// The largest hole left open is reported, for a face seen from close up (see Read).
	for _, tc := range []struct{ max, want, open int }{{0, 24, 4}, {3, 27, 4}, {4, 31, 0}, {len(g.b), 31, 0}} {
		got, open := g.fillHolesOpen(tc.max)
		if count(got) != tc.want || open != tc.open {
			t.Errorf("fillHolesOpen(%d): %d true pixels, largest hole open %d; want %d, %d", tc.max, count(got), open, tc.want, tc.open)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 200; k++ {
		g := randomGrid(rng, 3, 30)
		// No hole reaches len-1 pixels (it cannot touch the border), so both fill them all.
		if all, general := g.fillHoles(len(g.b)), g.fillHoles(len(g.b)-1); !reflect.DeepEqual(all.b, general.b) {
			t.Fatalf("%dx%d grid: filling every hole differs from the general fill", g.w, g.h)
		}
	}
}
