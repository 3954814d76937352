package camera

import (
	"bytes"
	"math"
	"unsafe"
)

// Small binary-image helpers on row-major []bool grids. They are plain Go so the detection
// stage allocates no Mats beyond the downscaled frame.

type grid struct {
	w, h int
	b    []bool
}

func newGrid(w, h int) grid { return grid{w: w, h: h, b: make([]bool, w*h)} }

// dilate/erode with a 3x3 square.
func (g grid) morph(val bool) grid {
	out := newGrid(g.w, g.h)
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			r := !val
			for dy := -1; dy <= 1 && r != val; dy++ {
				yy := y + dy
				if yy < 0 || yy >= g.h {
					continue
				}
				for dx := -1; dx <= 1; dx++ {
					xx := x + dx
					if xx < 0 || xx >= g.w {
						continue
					}
					if g.b[yy*g.w+xx] == val {
						r = val
						break
					}
				}
			}
			out.b[y*g.w+x] = r
		}
	}
	return out
}

func (g grid) dilate() grid { return g.morph(true) }
func (g grid) erode() grid  { return g.morph(false) }

// fillHoles sets the false pixels of every hole (a false region not connected to the border)
// of at most maxHole pixels; larger holes (the inside of a tray's frame) stay open.
func (g grid) fillHoles(maxHole int) grid {
	out, _ := g.fillHolesOpen(maxHole)
	return out
}

// fillHolesOpen is fillHoles, and says how many pixels the largest hole left open holds.
func (g grid) fillHolesOpen(maxHole int) (grid, int) {
	reach := make([]bool, len(g.b))
	stack := make([]int, 0, 1024)
	push := func(i int) {
		if !g.b[i] && !reach[i] {
			reach[i] = true
			stack = append(stack, i)
		}
	}
	for x := 0; x < g.w; x++ {
		push(x)
		push((g.h-1)*g.w + x)
	}
	for y := 0; y < g.h; y++ {
		push(y * g.w)
		push(y*g.w + g.w - 1)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%g.w, i/g.w
		if x > 0 {
			push(i - 1)
		}
		if x < g.w-1 {
			push(i + 1)
		}
		if y > 0 {
			push(i - g.w)
		}
		if y < g.h-1 {
			push(i + g.w)
		}
	}
	out := grid{w: g.w, h: g.h, b: make([]bool, len(g.b))}
	if maxHole >= len(g.b) { // every hole is filled: no need to tell them apart
		for i, v := range g.b {
			out.b[i] = v || !reach[i]
		}
		return out, 0
	}
	holes := newGrid(g.w, g.h)
	for i, v := range g.b {
		holes.b[i] = !v && !reach[i]
	}
	copy(out.b, g.b)
	open := 0
	for _, hole := range holes.components4(0) {
		if len(hole) > maxHole {
			open = max(open, len(hole))
			continue
		}
		for _, i := range hole {
			out.b[i] = true
		}
	}
	return out, open
}

// components4 labels 4-connected true pixels (the complement of 8-connected foreground).
func (g grid) components4(minSize int) [][]int { return g.label(minSize, false) }

// components labels 8-connected true pixels; returns each component's pixel indices.
func (g grid) components(minSize int) [][]int { return g.label(minSize, true) }

// label flood-fills the true pixels into components of at least minSize
// pixels, 8-connected when diag is set, else 4-connected.
func (g grid) label(minSize int, diag bool) [][]int {
	// The grid with a false border one pixel wide, so that neighbours need no bounds checks;
	// as bytes, so that the scan for the next unlabelled pixel can skip runs (IndexByte).
	W := g.w + 2
	left := make([]byte, W*(g.h+2)) // 1: a true pixel not yet in a component
	src := boolBytes(g.b)
	for y := 0; y < g.h; y++ {
		copy(left[(y+1)*W+1:], src[y*g.w:(y+1)*g.w])
	}
	n := bytes.Count(src, []byte{1})
	// Neighbours in the order the components' pixels come out in (callers see that order).
	nb := []int{-1, 1, -W, W}
	if diag {
		nb = []int{-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1}
	}
	var comps [][]int
	// Every component's pixels, one after another, in one buffer sized for all true pixels:
	// growing it by appending cost a fifth of the reader's allocations.
	all := make([]int, 0, n)
	stack := make([]int, 0, 1024)
	for s := 0; ; s++ {
		k := bytes.IndexByte(left[s:], 1)
		if k < 0 {
			break
		}
		s += k
		left[s] = 0
		stack = append(stack[:0], s)
		start := len(all)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			y := i / W
			all = append(all, (y-1)*g.w+i-y*W-1)
			for _, o := range nb {
				if j := i + o; left[j] != 0 {
					left[j] = 0
					stack = append(stack, j)
				}
			}
		}
		if len(all)-start >= minSize {
			comps = append(comps, all[start:len(all):len(all)])
		} else {
			all = all[:start]
		}
	}
	return comps
}

// distance returns, for each true pixel, its chamfer (3-4) distance to the nearest false pixel,
// in pixels.
func (g grid) distance() []float64 {
	const big = 1e9
	d := make([]float64, len(g.b))
	for i, v := range g.b {
		if v {
			d[i] = big
		}
	}
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= g.w || y >= g.h {
			return 0
		}
		return d[y*g.w+x]
	}
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			i := y*g.w + x
			if d[i] == 0 {
				continue
			}
			d[i] = math.Min(d[i], math.Min(math.Min(at(x-1, y)+1, at(x, y-1)+1), math.Min(at(x-1, y-1)+1.4142, at(x+1, y-1)+1.4142)))
		}
	}
	for y := g.h - 1; y >= 0; y-- {
		for x := g.w - 1; x >= 0; x-- {
			i := y*g.w + x
			if d[i] == 0 {
				continue
			}
			d[i] = math.Min(d[i], math.Min(math.Min(at(x+1, y)+1, at(x, y+1)+1), math.Min(at(x+1, y+1)+1.4142, at(x-1, y+1)+1.4142)))
		}
	}
	return d
}

// boolBytes views bools as the bytes the gc compiler stores them as (one byte, 0 or 1), for
// the byte scans of package bytes (TestLabel would fail on a compiler that stored them so not).
func boolBytes(b []bool) []byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b))
}
