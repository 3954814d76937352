package camera

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// polarised reads a face whose patch shows spots both darker and lighter than the face once
// from each: a metallic or glossy die's glare touching its dark pips merges with them into
// one blob of mixed lightness, a pip of no layout. Read from the darker spots alone, with the
// lighter ones counted by their colour only, the pips stand apart; and the other way round
// for light pips on a dark die beside its dark bevel. A face is read only when one polarity
// reads a value and the other none, or both the same: a value from each is ambiguous. Being a
// fallback, a polarity's value must be read at two pip thresholds at least (pips merged at
// one and apart at another fit a 5 at just one) and centred on the candidate (not a
// neighbour's face seen at the patch's edge).
func (r *Reader) polarised(img gocv.Mat, c cand, lab []byte, k, square float64, shaped bool) (face, bool) {
	dark := r.readFaceShaped(img, c, lab, k, square, shaped, -1)
	light := r.readFaceShaped(img, c, lab, k, square, shaped, +1)
	for _, f := range []*face{&dark, &light} {
		if f.reads < 2 || math.Hypot(f.face.cx-c.r.cx, f.face.cy-c.r.cy) > 0.25*c.side {
			f.value = 0
		}
	}
	switch {
	case dark.amb.is():
		return dark, true
	case light.amb.is():
		return light, true
	case dark.value > 0 && light.value > 0 && dark.value != light.value:
		return face{why: fmt.Sprintf("ambiguous: reads %d from its dark spots and %d from its light ones", dark.value, light.value), amb: ambiguity{a: dark.value, b: light.value}, square: square}, true
	case dark.value > 0:
		return dark, true
	case light.value > 0:
		return light, true
	}
	return face{}, false
}

// darkAndLight says whether pips ps, found at threshold t, hold spots both clearly darker
// and clearly lighter than the face.
func darkAndLight(ps []pip, t float64) bool {
	dark, light := false, false
	for _, p := range ps {
		dark = dark || p.l < -t/2
		light = light || p.l > t/2
	}
	return dark && light
}

// ofPolarity keeps the pips of ps, found at threshold t in a map of polarity pol, that are
// not clearly of the other polarity: glare still contrasts with a coloured face by its
// colour, but it is no dark pip.
func ofPolarity(ps []pip, pol int, t float64) []pip {
	out := ps[:0]
	for _, p := range ps {
		if float64(pol)*p.l >= -t/2 {
			out = append(out, p)
		}
	}
	return out
}
