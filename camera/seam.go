package camera

import (
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// seamDip measures how far the colour in the middle of the segment from a to b strays from
// the colours on either side, on the clearest of five parallel lines up to half apart on
// either side (image pixels). Two touching dice are parted by a seam: their rounded edges
// turn away from the light and from each other, and the tray or their shadow shows between
// them. The crease between a die's top face and its own side face is a rounded edge too, but
// the surface turns from one face to the other without leaving the die, so its colour shades
// from one face's to the other's; within one face there is no edge at all. One line may
// cross a pip, so the clearest line counts.
func seamDip(img gocv.Mat, a, b [2]float64, half float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	n := math.Hypot(dx, dy)
	if n < 1 {
		return 0
	}
	ux, uy := dx/n, dy/n
	steps := int(n) + 1
	best := math.Inf(1)
	for o := -2; o <= 2; o++ {
		ox, oy := -uy*half*float64(o)/2, ux*half*float64(o)/2
		var near, far [][3]float64
		var mid [][4]float64
		for s := 0; s <= steps; s++ {
			t := float64(s) / float64(steps)
			x, y := int(math.Round(a[0]+t*dx+ox)), int(math.Round(a[1]+t*dy+oy))
			if x < 0 || y < 0 || x >= img.Cols() || y >= img.Rows() {
				return 0
			}
			v := img.GetVecbAt(y, x)
			c := [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
			switch {
			case t >= 0.15 && t < 0.35:
				near = append(near, c)
			case t > 0.65 && t <= 0.85:
				far = append(far, c)
			case t >= 0.4 && t <= 0.6:
				mid = append(mid, [4]float64{c[0], c[1], c[2], (t - 0.25) / 0.5})
			}
		}
		if len(near) == 0 || len(far) == 0 || len(mid) == 0 {
			return 0
		}
		p, q := palest(near), palest(far)
		worst := 0.0
		for _, m := range mid {
			d := 0.0
			for i := 0; i < 3; i++ {
				e := m[i] - (p[i] + m[3]*(q[i]-p[i]))
				d += e * e
			}
			worst = math.Max(worst, math.Sqrt(d))
		}
		best = math.Min(best, worst)
	}
	return best
}

// palest is the colour of the upper quartile of the samples' lightness: the surface's own
// colour with a pip over part of the samples.
func palest(v [][3]float64) [3]float64 {
	sort.Slice(v, func(i, j int) bool { return v[i][0]+v[i][1]+v[i][2] < v[j][0]+v[j][1]+v[j][2] })
	return v[len(v)*3/4]
}

// seamContrast is the least stray of a seam's colour (8-bit BGR distance, see seamDip) that
// parts two dice. Measured on the shared photos: a top face and its own side face cut apart
// as two dice stray 6-32, touching dice whose centres lie within 1.2 sides 40 and more.
const seamContrast = 36

// sideFacePair says whether faces f and g, read as two dice, are one die's top face and its
// own side face: their centres lie within 1.2 sides (a side face, foreshortened, lies within
// a side of its top face, where touching dice lie a side apart or more, further when turned
// to each other) and no seam parts them.
func sideFacePair(img gocv.Mat, f, g face) bool {
	if f.face.w == 0 || g.face.w == 0 {
		return false
	}
	w := (f.face.w + g.face.w) / 2
	a, b := [2]float64{f.face.cx, f.face.cy}, [2]float64{g.face.cx, g.face.cy}
	return math.Hypot(a[0]-b[0], a[1]-b[1]) < 1.2*w && seamDip(img, a, b, w/4) < seamContrast
}

// partOfSix says whether the 4 read as f is four pips of a 6 (of a side face's 6 in an
// oblique view): both rows of the square run on by a pip seen beside it, at the square's own
// spacing. A face has at most three pips in a row, and the pips of a neighbouring die in line
// with both rows lie beyond a seam.
func partOfSix(img gocv.Mat, f face) bool {
	if f.value != 4 || len(f.pips) != 4 {
		return false
	}
	var sides []float64
	for i, p := range f.pips {
		for _, q := range f.pips[i+1:] {
			sides = append(sides, math.Hypot(p[0]-q[0], p[1]-q[1]))
		}
	}
	sort.Float64s(sides)
	D := median(sides[:4]) // the square's side; the two longest are its diagonals
	// A 6's pips look alike: an extra pip counts only when as strong as the 4's weakest
	// (within the spread among one face's pips, about 15%), about as big and no flatter. A
	// side face's pips in line with the rows are fainter, smaller or flatter.
	weakest, small, round := math.Inf(1), math.Inf(1), 1.0
	for _, p := range f.look {
		weakest, small = math.Min(weakest, p.c), math.Min(small, p.d)
		if p.q > 0 {
			round = math.Min(round, p.q)
		}
	}
	// Between the pips, clear of them (a pip is at most half the spacing wide).
	lerp := func(a, b [2]float64, t float64) [2]float64 {
		return [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
	}
	type hit struct{ ux, uy float64 }
	var hits []hit
	for _, p := range f.pips {
		for _, q := range f.pips {
			d := math.Hypot(q[0]-p[0], q[1]-p[1])
			if d == 0 || d > 1.2*D {
				continue
			}
			c := [2]float64{2*q[0] - p[0], 2*q[1] - p[1]}
			for x, e := range f.extra {
				l := f.extraLook[x]
				if l.c < weakest/1.25 || l.d < 0.8*small || l.q > 0 && l.q < sideRatio*round {
					continue
				}
				if math.Hypot(e[0]-c[0], e[1]-c[1]) < 0.25*D && seamDip(img, lerp(q, e, 0.25), lerp(q, e, 0.75), D/8) < seamContrast {
					hits = append(hits, hit{(q[0] - p[0]) / d, (q[1] - p[1]) / d})
				}
			}
		}
	}
	for i, h := range hits {
		for _, k := range hits[i+1:] {
			if h.ux*k.ux+h.uy*k.uy > 0.9 {
				return true
			}
		}
	}
	return false
}

// oneBody refuses two dice read whose faces are one die's top face and its own side face:
// their centres lie within 1.2 sides and no seam parts them (as sideFacePair says for two
// cuts of one blob), and their faces have one hue (one die is one material; the light
// changes only how pale each face looks; t is the least contrast, hue counted twice as in
// labDist). A side face read as a die of its own, from its pips or from a blob of its own,
// sits just as close to its top face with the same smooth crease between. One of the two
// must be a face of two or more pips, whose box is the face itself: a 1 found from a blob
// has the die's box with its shadow, whose centre is not the face's, up to twice the face.
// When the picture tells which of the two is the side face (sideBelow), that one is left
// out of the dice returned and the top face read; else both are refused.
func oneBody(img gocv.Mat, off image.Point, dice []Die, t float64) []Die {
	var sides []int // dice that are side faces below their top face (see sideBelow)
	centre := func(d Die) [2]float64 {
		return [2]float64{float64(d.Box.Min.X+d.Box.Max.X)/2 - float64(off.X), float64(d.Box.Min.Y+d.Box.Max.Y)/2 - float64(off.Y)}
	}
	var refuse []int
	for i, d := range dice {
		for j := i + 1; j < len(dice); j++ {
			e := dice[j]
			if d.Value == 0 || e.Value == 0 || (d.Value < 2 && e.Value < 2) {
				continue
			}
			if labDist([3]float64{0, d.col[1], d.col[2]}, [3]float64{0, e.col[1], e.col[2]}) >= t {
				continue
			}
			w := float64(d.Box.Dx()+d.Box.Dy()+e.Box.Dx()+e.Box.Dy()) / 4
			if 2*math.Min(float64(d.Box.Dx()), float64(e.Box.Dx())) < math.Max(float64(d.Box.Dx()), float64(e.Box.Dx())) {
				// A side face is as long as its top face along their crease; but a 1 or 2
				// boxed round one or two pips, less than half as wide as the die it touches
				// with no seam between, is pips of that die's side face (one game's dice
				// are one size, and a pip-sized box is no die).
				s, k := i, j
				if e.Box.Dx() < d.Box.Dx() {
					s, k = j, i
				}
				small, big := dice[s], dice[k]
				gap := small.Box.Inset(-small.Box.Dx() / 4)
				if small.Value <= 2 && gap.Overlaps(big.Box) && seamDip(img, centre(small), centre(big), float64(small.Box.Dx())/4) < seamContrast {
					refuse = append(refuse, s)
				}
				continue
			}
			if d.Value < 2 || e.Value < 2 {
				// Within 1.2 of the top face's sides: a 1 cut from one die's blob has a box
				// no bigger than its side face, so the mean of the two boxes is less than
				// the die's side; the other die's box is its face.
				f := d
				if d.Value < 2 {
					f = e
				}
				w = math.Max(w, float64(f.Box.Dx()+f.Box.Dy())/2)
			}
			a, b := centre(d), centre(e)
			if math.Hypot(a[0]-b[0], a[1]-b[1]) < 1.2*w && seamDip(img, a, b, w/4) < seamContrast {
				if side, ok := sideBelow(dice, i, j); ok {
					sides = append(sides, side)
					continue
				}
				refuse = append(refuse, i, j)
			}
		}
	}
	for _, i := range refuse {
		dice[i].Value, dice[i].Why = 0, "a face and the side face beside it, with no seam between them: one die seen obliquely"
	}
	out := dice[:0:0]
	for i, d := range dice {
		if !slices.Contains(sides, i) || slices.Contains(refuse, i) {
			out = append(out, d)
		}
	}
	return out
}

// boxCentre is the centre of d's box.
func boxCentre(d Die) [2]float64 {
	return [2]float64{float64(d.Box.Min.X+d.Box.Max.X) / 2, float64(d.Box.Min.Y+d.Box.Max.Y) / 2}
}

// sideBelowBigger is how much bigger (box width plus height) a top face is than its side
// face below it, and sideBelowTurn the tangent of the greatest angle from straight down at
// which the side face lies. Measured on the 12 pairs of the varied shared photos that these
// rules read: sizes 0.51 to 0.76 of the top face's, angles -30° to 27° (one more at 40°);
// two touching dice, a 2 below and left of a 1 (IMG_20191209_100051 brightened), lie at
// -43°, their sizes 0.52: the angle, not the size, tells them from a side face, and 35°
// (tan 0.70) is the cut between.
const (
	sideBelowBigger = 1.25
	sideBelowTurn   = 0.70
)

// sideBelow says which of dice i and j, one die's top face and its own side face (see
// oneBody), is the side face, when the picture tells: the lower one, below the other (within
// sideBelowTurn) and smaller by sideBelowBigger. A camera looking down steeply on a tray sees
// the side faces turned towards it below the top faces (the dice's vertical edges converge
// below the picture, as probeOne assumes too), foreshortened more than the top. A camera
// turned upside down sees them above, a camera flatter than 45° sees them bigger: then either
// sign fails and both faces are refused, as before.
func sideBelow(dice []Die, i, j int) (int, bool) {
	top, side := i, j
	if boxCentre(dice[j])[1] < boxCentre(dice[i])[1] {
		top, side = j, i
	}
	t, s := boxCentre(dice[top]), boxCentre(dice[side])
	size := func(d Die) float64 { return float64(d.Box.Dx() + d.Box.Dy()) }
	if math.Abs(s[0]-t[0]) >= sideBelowTurn*(s[1]-t[1]) || size(dice[top]) < sideBelowBigger*size(dice[side]) {
		return 0, false
	}
	return side, true
}
