package camera

import (
	"fmt"
	"math"
	"sort"
)

// innerFit says whether fit f, of two or more pips, lies within fit g of more pips and is
// clearly smaller: neighbouring pips of g's face (two pips of a 4's side read as a 2 have
// 1/√2 of its spacing, two of a 3's diagonal 1/2; a fit's own error is about a tenth).
func innerFit(f, g fit) bool {
	return f.value >= 2 && g.value > f.value && f.f.a < 0.85*g.f.a && math.Hypot(f.f.cx-g.f.cx, f.f.cy-g.f.cy) < 1.8*g.f.a
}

// bestFit finds the largest set of pips (all of them first) that forms a canonical layout whose
// free places are clear, with every left-out pip off the fitted face (a side face in an oblique
// view). It returns the fit and the indices of the pips used.
func (r *Reader) bestFit(pips []pip, C []float64, P int, S, t float64, sided bool) (fit, []int, miss) {
	n := len(pips)
	if n > 9 {
		return fit{}, nil, miss{why: fmt.Sprintf("%d pips", n)}
	}
	why := ""
	turned := false       // all the pips fit a layout but for its turn
	bigger := false       // a 2 failed for leaving out pips like its own
	var lone [][2]float64 // pips that fit a 1 but for other pips on the face
	one := oneWithSides(pips, S)
	open := &openings{C: C, P: P}
	try := func(idx []int) (fit, bool) {
		pts := make([][2]float64, len(idx))
		var dmin, dmax = math.Inf(1), 0.0
		for i, j := range idx {
			pts[i] = [2]float64{pips[j].x + float64(P)/2, pips[j].y + float64(P)/2}
			dmin, dmax = math.Min(dmin, pips[j].d), math.Max(dmax, pips[j].d)
		}
		fail := func(s string) (fit, bool) {
			if len(idx) == n {
				why = s
			}
			return fit{}, false
		}
		if len(idx) > 1 && dmax > 2.2*dmin {
			return fail("pips of unequal sizes")
		}
		// The pips of one face are printed and lit alike: their contrasts spread by about
		// 15%, at most 30% on the shared photos. A side face's pips, lit from another angle
		// and seen obliquely, contrast about half as much as the top face's: a layout mixing
		// the two (a 5 and its side face's column read as a 6, a 2 and a side face's pip as
		// a 3) is not one face.
		if len(idx) > 1 {
			cmin, cmax := math.Inf(1), 0.0
			for _, j := range idx {
				cmin, cmax = math.Min(cmin, pips[j].c), math.Max(cmax, pips[j].c)
			}
			if cmin < minPipContrastRatio*cmax {
				return fail("pips of unequal contrast")
			}
			// A top face's pips are foreshortened alike. A pip clearly flatter than the
			// layout's pips are as a rule (their median; see sideOf) and smaller too, as
			// foreshortening makes it, lies on a side face, which the camera sees more
			// obliquely (a 2 and a side face's pip read as a 3, a 4 and one as a 5).
			// Flatness alone does not tell (a top face's pips in an oblique view are as flat
			// as a side face's in another).
			var qs, ds []float64
			for _, j := range idx {
				if pips[j].q > 0 {
					qs, ds = append(qs, pips[j].q), append(ds, pips[j].d)
				}
			}
			qm, dm := median(qs), median(ds)
			for _, j := range idx {
				if p := pips[j]; p.q > 0 && p.q < sideRatio*qm && p.d < sideShrink*dm {
					return fail("a side face's pip, flatter and smaller than the face's own")
				}
			}
		}
		if len(idx) > 1 {
			// A face's pips are printed in one colour: all darker than the face or all
			// lighter. A layout of a dark spot and a light one (a dark die's bevel and
			// the glossy pip of its 1) is no face.
			sub := make([]pip, len(idx))
			for i, j := range idx {
				sub[i] = pips[j]
			}
			if darkAndLight(sub, t) {
				return fail("pips darker and lighter than the face")
			}
		}
		if one >= 0 && (len(idx) > 1 || idx[0] != one) {
			return fail("a side face's pips (the top face shows a 1)")
		}
		ft, ok := fitLayout(pts, S)
		if !ok || ft.err > r.o.MaxLayoutError {
			return fail(fmt.Sprintf("layout error %.2f", ft.err))
		}
		if len(idx) == 3 && bent(pts) > maxBend {
			// A view maps straight lines to straight lines, so a 3's pips stay in one
			// line however the die is seen; a bend is a speck of marbling or glare
			// taken for its middle pip (a 2 read as a 3).
			return fail(fmt.Sprintf("three pips off one line by %.2f of their length", bent(pts)))
		}
		if len(idx) == 1 {
			if pips[idx[0]].d > maxOnePip*S {
				return fail("a pip too big for a 1")
			}
			// A lone pip must sit well inside the die (in an oblique view the top face's
			// centre is off the blob's): at least 0.3 of a side from where the face ends.
			// Or it must sit in the middle of a face of its own, as a 1's pip does: a die
			// near the picture's edge shows side faces, so its blob is wider than its top
			// face, but the walks from the pip to the face's edges are then still even.
			// (A pip of a 2, 4 or 6 is much nearer two of the edges than the other two.)
			dx, dy := pts[0][0]-float64(P)/2, pts[0][1]-float64(P)/2
			w := walks(C, P, pts[0], t)
			fw, fh := w[0]+w[1], w[2]+w[3]
			even := math.Min(w[0], w[1]) >= 0.6*math.Max(w[0], w[1]) && math.Min(w[2], w[3]) >= 0.6*math.Max(w[2], w[3]) &&
				math.Min(fw, fh) >= 0.45*S
			inside := math.Min(math.Min(w[0], w[1]), math.Min(w[2], w[3])) >= 0.28*S
			if math.Hypot(dx, dy) > 0.35*S || !inside && !even {
				return fail("single pip near the die's edge")
			}
			if even {
				// The free places of the 3×3 grid lie within that face.
				ft.f.a = math.Min(ft.f.a, 0.28*math.Min(fw, fh))
			}
			ft.weak = !inside
			ft.sides = one == idx[0]
			// And the rest of the face must be empty, corners included: one pip of a 2 or 3
			// seen with the die's turn 45° off lies near the centre, its partner on the face.
			// (A speck of glare or a bevel is not a partner: it must look like the pip.)
			q := pips[idx[0]]
			// Such a pip votes for a 1 against other values (a 1 and a side face's pip read
			// as a 2), unless one of the others lies within the clear margin the walks
			// demand, diagonally (the walks run along the axes): it would be on the 1's own
			// blank face, so the pip is no 1 at all (a corner pip of a 3).
			other, own := false, false
			for j, p := range pips {
				if j != idx[0] && math.Hypot(p.x, p.y) < 0.52*S && p.d > 0.6*q.d && p.d < 1.67*q.d && p.c > 0.5*q.c && one != idx[0] {
					other = true
					own = own || math.Abs(p.x-q.x) < 0.28*S && math.Abs(p.y-q.y) < 0.28*S
				}
			}
			if other {
				if inside && !own { // a pip that is a 1 only by its even walks is no vote
					lone = append(lone, pts[0])
				}
				return fail("single pip with another pip on the face")
			}
		} else if len(idx) == 2 && (sideOf(pips[idx[0]], pips[idx[1]], S) || sideOf(pips[idx[1]], pips[idx[0]], S)) {
			// A 2 of a top face's pip and a side face's (see sideOf).
			return fail("a side face's pip with the top face's")
		} else if ft.f.a < 0.08*S || ft.f.a > 0.42*S {
			return fail(fmt.Sprintf("pip spacing %.2f of the die", ft.f.a/S))
		} else if d := pipWidth(pips, idx); d > math.Sqrt2*ft.f.a {
			// A die's 3 and 5 hold a centre pip √2 spacings from each corner pip, so a
			// die's pips are narrower than that (up to 1.3 spacings on the faces of exact
			// photos; 1.6–1.8 where glare or blur hid a 3's corner): pips that wide make a
			// layout fitted at a fraction of the face's spacing, its pips neighbours on a
			// bigger face (a 3's corner and centre read as a 2 of half the spacing). A
			// few real 2s printed with their pips near the centre are refused with them.
			bigger = bigger || len(idx) == 2
			return fail(fmt.Sprintf("pips %.2f spacings wide: neighbours on a bigger face", d/ft.f.a))
		} else if tilt := math.Min(ft.f.ang, math.Pi/2-ft.f.ang); sided && len(idx) <= 3 && tilt > 25*math.Pi/180 {
			// Few pips constrain the layout weakly: they must also line up with the die's sides
			// (when the sides are seen at all: sided).
			turned = turned || len(idx) == n
			return fail(fmt.Sprintf("pips turned %.0f° from the die's sides", tilt*180/math.Pi))
		}
		// A free place must be clear of a pip too faint for the threshold (a 3 read as a 2):
		// below half the weakest pip's contrast. No face has a hidden seventh pip, so a 6's
		// free places, each between two pips one spacing away, need only stay below the
		// threshold and clearly under the pips: big pips in rows of three nearly touch, and
		// their blur fills the gap between the rows.
		occ, free := freeContrast(open, ft, pips, idx, t)
		if !clearFree(occ, free, t, len(idx)) {
			return fail(fmt.Sprintf("contrast %.0f at a free place vs %.0f at pips", free, occ))
		}
		// Pips left out must lie off this face, unless they lie on a side face.
		in := make(map[int]bool, len(idx))
		for _, j := range idx {
			in[j] = true
		}
		top := pip{x: ft.f.cx - float64(P)/2, y: ft.f.cy - float64(P)/2, q: math.Inf(1)}
		for _, j := range idx {
			top.q = math.Min(top.q, pips[j].q)
			top.d += pips[j].d / float64(len(idx))
		}
		side := make(map[int]bool)
		for j, p := range pips {
			if in[j] {
				continue
			}
			if sideOf(p, top, S) {
				side[j] = true
				continue
			}
			flat := true
			for _, i := range idx {
				flat = flat && sideOf(pips[i], p, S)
			}
			if flat {
				return fail("a side face: a rounder pip beside it")
			}
			u, v := ft.f.local(p.x+float64(P)/2, p.y+float64(P)/2)
			if math.Max(math.Abs(u), math.Abs(v)) < 1.75 {
				return fail("stray pip on the face")
			}
		}
		// The pips of one face look alike. A face of few pips that leaves out a pip on the
		// die clearly stronger than one of its own took a weaker pip, a side face's or a
		// neighbour's, for a partner and left its true partner out (the die's turn taken
		// wrong). Clearly: by more than the spread among one face's pips (about 15%).
		if len(idx) <= 3 && len(idx) < n {
			weakest := math.Inf(1)
			for _, j := range idx {
				weakest = math.Min(weakest, pips[j].c)
			}
			own := make([]pip, len(idx))
			for i, j := range idx {
				own[i] = pips[j]
			}
			like := 0
			for j, p := range pips {
				if in[j] || side[j] || math.Abs(p.x) >= 0.5*S || math.Abs(p.y) >= 0.5*S {
					continue
				}
				if p.c > 1.25*weakest {
					return fail("a pip on the die left out contrasts more than one used")
				}
				if pipLike(p, own) && (p.q == 0 || p.q > sideRatio*top.q) {
					like++
				}
			}
			// Two or more pips on the die just like the face's own (as strong, as big, no
			// flatter) that it leaves out are pips of the same face: the fit took neighbouring
			// pips of a 4 or 5 for a small 2, its other pips then lying outside that small face.
			if len(idx) == 2 && like >= 2 {
				bigger = true
				return fail("pips like its own left out: part of a bigger face")
			}
		}
		return ft, true
	}
	for m := min(n, 6); m >= 1; m-- {
		var best fit
		var bestIdx []int
		found, bestAlike := false, false
		forSubsets(n, m, func(idx []int) {
			// Of the layouts that fit, one of pips foreshortened alike beats one that takes a
			// side face's flatter pip for a top face's (see sideOf); then the closer fit wins.
			ft, ok := try(idx)
			if !ok {
				return
			}
			a := alike(pips, idx)
			if !found || a && !bestAlike || a == bestAlike && ft.err < best.err {
				best, bestIdx, found, bestAlike = ft, append([]int(nil), idx...), true, a
			}
		})
		if found {
			sort.Ints(bestIdx)
			return best, bestIdx, miss{}
		}
	}
	return fit{}, nil, miss{fmt.Sprintf("%d pips in no canonical layout: %s", n, why), turned, lone, bigger}
}

// The most contrast a free place of the 3×3 grid may show, as a share of the weakest pip's:
// on a 6, whose free places lie between its rows, and on the other faces (see bestFit).
const (
	freeShare    = 0.5
	sixFreeShare = 0.75
)

// miss says why no layout fitted: why, whether the pips fitted but for their turn (turned),
// the pips (patch pixels) that fitted a 1 but for other pips on the face (lone), and whether
// a 2 failed for leaving out pips like its own (bigger).
type miss struct {
	why    string
	turned bool
	lone   [][2]float64
	bigger bool
}

func forSubsets(n, m int, f func([]int)) {
	idx := make([]int, m)
	var rec func(start, k int)
	rec = func(start, k int) {
		if k == m {
			f(idx)
			return
		}
		for i := start; i <= n-(m-k); i++ {
			idx[k] = i
			rec(i+1, k+1)
		}
	}
	rec(0, 0)
}

// maxOnePip is the largest diameter, in die sides, of a 1's pip. However big a 1's pip, the
// face shows round it: a lone blob a third of the die's side wide is several pips merged (a
// 5's red pips on black, one blob in the hue map), or the "die" found is itself a pip of a
// pale die on pale wood, with its halo.
const maxOnePip = 0.28

// minPipContrastRatio is the least ratio of the weakest pip's contrast to the strongest's
// among one face's pips (see bestFit).
const minPipContrastRatio = 0.6

// sideShrink is the largest ratio of a side face's pip's diameter to a top face pip's: the
// pips of one face differ in size by about a tenth (see bestFit).
const sideShrink = 0.85

// maxBend is the largest distance of a 3's middle pip from the line through its outer pips, in
// lengths of that line: real 3s measure up to 0.08 on the shared photos (a pixel on the
// smallest dice), a marbling speck taken for the middle pip 0.27.
const maxBend = 0.15
