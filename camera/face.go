package camera

import (
	"fmt"
	"image"
	"math"
)

// pip is a pip candidate in patch pixels, relative to the patch centre.
type pip struct {
	x, y, d, c float64
	// q is the pip's axis ratio (minor/major, 1 when round, 0 when not measured) and o its
	// major axis's direction in the patch (radians, 0 to π); see pipShape.
	q, o float64
	// l is the pip's median lightness less the face's (see pipLightness).
	l float64
}

// face is what was read from one die candidate.
type face struct {
	value  int
	conf   float64
	why    string
	notDie bool         // no pips at all, or a side face below its top face (readBlobs): not a die
	amb    ambiguity    // not read because pips fitted different values: what they read
	pips   [][2]float64 // image pixels
	extra  [][2]float64 // pips seen in the patch but not used, image pixels
	// look and extraLook are the pips and the extra pips as found in the patch (size,
	// contrast, shape), in the same order.
	look, extraLook []pip
	square          float64
	// turned is the number of pips when no layout fitted and all of them were rejected only
	// for being turned from the die's sides (at the first threshold that found pips, and at
	// no other threshold as a different set); spacing is the fitted pip spacing, in face sides.
	turned  int
	spacing float64
	face    rotRect // the fitted top face, image pixels (zero when no layout fitted)
	// mixed: some pip threshold saw pips that fit no layout; reads: how many read the value.
	mixed bool
	reads int
	// bigger: not read, and some threshold saw two pips spaced as a 2 with pips just like
	// them left out: a face of more pips.
	bigger bool
	// clutter: not read, and not like a die either (see noFace, and readBlobs for clutter
	// along the picture's edge): Read leaves it out of the reading.
	clutter bool
	// col is the median Lab colour of the patch's centre: the face's own colour.
	col [3]float64
	// unlaid: pips were found but fit no canonical layout (or a lone pip read as a 1 at
	// some pip thresholds only), on a candidate inside the picture (see netRead).
	unlaid bool
	// hued: read from the directed hue map (see pipHue), a fallback.
	hued bool
}

func (f face) die(c cand, off image.Point) Die {
	// The box of the fitted top face when there is one (the blob may hold a shadow, a halo or
	// side faces), else of the blob.
	r := c.r
	if f.face.w > 0 {
		r = f.face
	}
	x0, y0, x1, y1 := r.bounds()
	d := Die{Value: f.value, Confidence: f.conf, Why: f.why, clutter: f.clutter, col: f.col, amb: f.amb, outlined: c.outlined, hued: f.hued, src: c, fc: f.face,
		Box: image.Rect(int(x0), int(y0), int(x1+1), int(y1+1)).Add(off)}
	if f.unlaid {
		d.unlaid = f.why
	}
	for _, p := range f.pips {
		d.Pips = append(d.Pips, image.Pt(int(math.Round(p[0])), int(math.Round(p[1]))).Add(off))
	}
	d.light = len(f.look) > 0
	for _, p := range f.look {
		d.light = d.light && p.l > 0
	}
	return d
}

// samePlace says whether faces f and g were fitted at the same place: within half a pip
// spacing. The same value read from other pips at another turn (a 1 and a side face's pip
// one way, that pip and another side face's pip the other) is no reading of one face.
func samePlace(f, g face) bool {
	return math.Hypot(f.face.cx-g.face.cx, f.face.cy-g.face.cy) < 0.5*math.Min(f.face.w, g.face.w)/3.6
}

// valueOr is the face's value, or "?" when it was not read.
func (f face) valueOr() string {
	if f.value == 0 {
		return "?"
	}
	return fmt.Sprint(f.value)
}

// turnDiff is the difference between two turns of a square, in radians (0 to 45°).
func turnDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), math.Pi/2)
	return math.Min(d, math.Pi/2-d)
}
