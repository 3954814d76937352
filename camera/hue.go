package camera

import "math"

// greyChroma is the least distance of a face's (a, b) from grey, in 8-bit Lab units, at which
// pipHue takes it to have a hue of its own. Below it (white, black, smoky dice) pips of any hue
// are sought; a tinted white die above it only loses the directed map for its grey pips, which
// the contrast map reads. Chosen, not tuned: every die of the shared photos reads the same with
// 6 or 15.
const greyChroma = 10

// hueMap fills M with each patch pixel's hue contrast with the face's colour (fA, fB): twice
// their (a, b) distance, or twice its part along the unit direction (ua, ub) when that is not
// zero (none against it). It returns inner with M's values inside the face appended.
//
// The second is the directed map, a fallback for coloured pips on a face marbled or flecked
// in other hues (magenta pips on a marbled blue die, red on smoky): there the plain hue
// contrast is as strong in the veins as at the pips, the contrast along the pips' hue only
// at the pips.
func hueMap(M []float64, lab []byte, P int, inFace func(x, y int) bool, fA, fB, ua, ub float64, inner []float64) []float64 {
	directed := ua != 0 || ub != 0
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := y*P + x
			da, db := float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
			if directed {
				M[i] = 2 * math.Max(0, da*ua+db*ub)
			} else {
				M[i] = 2 * math.Sqrt(da*da+db*db)
			}
			if inFace(x, y) {
				inner = append(inner, M[i])
			}
		}
	}
	return inner
}

// pipHue returns the unit (a, b) direction from the face's colour (fA, fB) to the mean of the
// face's pixels whose hue contrast M is at least q: the pips' hue, when they are the most
// coloured part of the face. It fails when that mean lies mostly towards grey from a
// coloured face: pale pips and glare differ from it by losing its hue, which the contrast
// map sees as well, and in that direction the two look alike (a red die's glare streak
// made a fifth pip).
func pipHue(M []float64, lab []byte, P int, inFace func(x, y int) bool, q, fA, fB float64) (float64, float64, bool) {
	var ua, ub float64
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			if i := y*P + x; inFace(x, y) && M[i] >= q {
				ua += float64(lab[3*i+1]) - fA
				ub += float64(lab[3*i+2]) - fB
			}
		}
	}
	n := math.Hypot(ua, ub)
	if n == 0 {
		return 0, 0, false
	}
	ua, ub = ua/n, ub/n
	ca, cb := fA-128, fB-128 // the face's colour, grey at 0
	if c := math.Hypot(ca, cb); c >= greyChroma {
		along, across := (ua*ca+ub*cb)/c, math.Abs(ua*cb-ub*ca)/c
		if along < 0 && across < -along {
			return 0, 0, false
		}
	}
	return ua, ub, true
}
