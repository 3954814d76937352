package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// unglared takes out of the contrast map C (P×P, face side S) the thin lines lighter than the
// face (lightness fL): a glossy or translucent die mirrors a window's or a lamp's edge as a
// streak that runs through its pips and joins them into shapes no pip has. The lighter part of
// the map is opened (see greyOpen) by a disc that such a streak is narrower than and a pip is
// not; the darker part, where dark pips are, is kept as it is.
func unglared(C []float64, lab []byte, P int, S, fL float64, bufs *floats) {
	o := bufs.get(P * P)
	defer bufs.put(o)
	greyOpen(C, o, P, max(1, int(math.Round(0.045*S))), bufs)
	for i := range C {
		if float64(lab[3*i]) > fL {
			C[i] = o[i]
		}
	}
}

// greyOpen writes to dst the grey-level opening of the P×P map src by a disc of radius rad: the
// least value within the disc, then the greatest of those.
func greyOpen(src, dst []float64, P, rad int, bufs *floats) {
	tmp := bufs.get(P * P)
	defer bufs.put(tmp)
	var offs [][2]int
	for dy := -rad; dy <= rad; dy++ {
		for dx := -rad; dx <= rad; dx++ {
			if dx*dx+dy*dy <= rad*rad+rad/2 {
				offs = append(offs, [2]int{dx, dy})
			}
		}
	}
	pass := func(in, out []float64, lo bool) {
		for y := 0; y < P; y++ {
			for x := 0; x < P; x++ {
				v := in[y*P+x]
				for _, o := range offs {
					xx, yy := min(max(x+o[0], 0), P-1), min(max(y+o[1], 0), P-1)
					if w := in[yy*P+xx]; lo && w < v || !lo && w > v {
						v = w
					}
				}
				out[y*P+x] = v
			}
		}
	}
	pass(src, tmp, true)
	pass(tmp, dst, false)
}

// unglare reads again, with the thin lines lighter than the face taken out (see unglared),
// the dice on which the pip reader found pips in no layout, before the face networks may
// (netRead). Taking lines out also takes the strokes out of a laptop key's letters, leaving
// spots that can fit a 2 (matteop65/five_31.jpg cut beside the laptop), so the value is kept
// only when one of the networks, over the eight turns of the die's square, reads it too, and
// a candidate that unlike will leave out (unlike three or more alike dice read: a key among
// ivory dice) is not read at all: read, it would be refused as unlike them, losing the photo.
// On the shared photos that read 23 dice, each right but a 3 labelled a 2 (BENCHMARKS-dice.md).
// The glare reading is a fallback: it never replaces a value read from the pips as they are.
func (r *Reader) unglare(img gocv.Mat, off image.Point, dice []Die) {
	if r.nets[0] == nil {
		return
	}
	side := dieSide(dice)
	alike, ok := alikeColour(dice, r.o.MinContrast)
	for i, d := range dice {
		if !unlaidRefusal(d) || ok && unlikeColour(d, alike, r.o.MinContrast) {
			continue
		}
		c := d.src
		c.glare = true
		f := r.readFace(img, c)
		if f.value == 0 {
			continue
		}
		cx, cy, s := netSquare(d, side)
		x, ok := netInput(img, cx, cy, s)
		if !ok {
			continue
		}
		for _, n := range r.nets {
			if argmax(n.meanProbs(x)) == f.value {
				dice[i] = f.die(c, off)
				dice[i].Glare = true
				break
			}
		}
	}
}
