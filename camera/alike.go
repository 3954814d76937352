package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// unlike leaves out of dice the unread candidates unlike the dice read. The dice of a game are
// alike: when three or more read dice share one face colour (within t of their median), an
// unread candidate whose face differs from it by more than 5t is something else among them (a
// laptop key or a cable's ferrite bead among ivory dice). A die of the set in shade or seen
// by its side differs far less (a shaded ivory die about 4t); dice of mixed colours give no rule.
// Under uneven light the dice may be alike only lit alike (relit), and the rule is applied
// to those colours too. Not both ways at once, as odd is: a candidate's surroundings need not
// be the tray (a cable round its ferrite bead), so lit alike it may look less unlike.
func unlike(img gocv.Mat, off image.Point, dice []Die, t float64) []Die {
	if _, n := medianColour(dice, -1, 1); n < 3 {
		return dice
	}
	rel := withCols(dice, relit(img, off, dice))
	m1, ok1 := alikeColour(dice, t)
	m2, ok2 := alikeColour(rel, t)
	if !ok1 && !ok2 {
		return dice
	}
	kept := dice[:0]
	for i, d := range dice {
		if d.Value > 0 || !(ok1 && unlikeColour(d, m1, t) || ok2 && unlikeColour(rel[i], m2, t)) {
			kept = append(kept, d)
		}
	}
	return kept
}

// alikeColour is the median face colour of the dice read, and whether three or more of them
// share it (within t).
func alikeColour(dice []Die, t float64) ([3]float64, bool) {
	m, n := medianColour(dice, -1, 1)
	if n < 3 {
		return m, false
	}
	for _, d := range dice {
		if d.Value > 0 && labDist(d.col, m) >= t {
			return m, false
		}
	}
	return m, true
}

// unlikeColour says whether die d's face differs from the dice's shared colour m by more than
// 5t. A zero colour was never measured (a die at the picture's edge): it is not judged.
func unlikeColour(d Die, m [3]float64, t float64) bool {
	return d.col != [3]float64{} && labDist(d.col, m) > 5*t
}

// odd refuses a die read whose face is unlike all the others when three or more others
// share one face colour (within t of their median) and it differs from that by more than
// 5t, as unlike leaves such candidates out: something else among the dice (a laptop key's
// light symbol on its dark cap read as a 1). It is refused, not left out: it may hide a die.
// Under uneven light (a lamp to one side) the dice's faces differ in lightness by the light
// itself and need not look alike; they are also compared lit alike (see relit). Lit alike or
// as seen, the odd die must be unlike them both ways.
func odd(img gocv.Mat, off image.Point, dice []Die, t float64) {
	rel := withCols(dice, relit(img, off, dice))
	for i, d := range dice {
		if d.Value == 0 || d.col == [3]float64{} {
			continue
		}
		a1, u1 := among(dice, i, t)
		a2, u2 := among(rel, i, t)
		if (a1 || a2) && u1 && u2 {
			rel[i].Value = 0
			dice[i].Value, dice[i].Why = 0, "unlike the other dice: something else among them (dice of several colours: calibrate the tray)"
		}
	}
}

// among says whether three or more dice read other than the i-th share one colour (within t
// of their median), and whether die i differs from that by more than 5t.
func among(dice []Die, i int, t float64) (alike, unlike bool) {
	m, n := medianColour(dice, i, 1)
	alike = n >= 3
	for j, o := range dice {
		alike = alike && (j == i || o.Value == 0 || labDist(o.col, m) < t)
	}
	return alike, n > 0 && labDist(dice[i].col, m) > 5*t
}

// withCols is a copy of dice with the face colours col.
func withCols(dice []Die, col [][3]float64) []Die {
	ds := make([]Die, len(dice))
	copy(ds, dice)
	for i := range ds {
		ds[i].col = col[i]
	}
	return ds
}

// relit is the dice's face colours as if each lay in the same light: each face's lightness
// scaled by the median, over the dice read, of the tray's lightness round a die, over that
// round this die (see roundL). A face not measured, or whose surroundings are not, keeps its
// colour.
func relit(img gocv.Mat, off image.Point, dice []Die) [][3]float64 {
	col := make([][3]float64, len(dice))
	round := make([]float64, len(dice))
	var ls []float64
	lin := srgbLinear()
	for i, d := range dice {
		col[i] = d.col
		if d.col != [3]float64{} {
			if round[i] = roundL(img, off, d.Box, lin); round[i] > 0 && d.Value > 0 {
				ls = append(ls, round[i])
			}
		}
	}
	m := median(ls)
	for i := range dice {
		if round[i] > 0 && m > 0 {
			col[i][0] *= m / round[i]
		}
	}
	return col
}

// roundL is the median 8-bit Lab lightness round box (frame pixels), on rings 0.9 to 1.2
// times its side from its centre: clear of the die and of most of its shadow. 0 when less
// than a third of the rings lies in the picture searched (img, at off in the frame). Only
// the rings' points are converted (by the sRGB table lin, see lightness), not the square
// round them: a Lab copy of it took a quarter of a millisecond per die.
func roundL(img gocv.Mat, off image.Point, box image.Rectangle, lin *[256]float64) float64 {
	s := float64(box.Dx()+box.Dy()) / 2
	cx, cy := float64(box.Min.X+box.Max.X)/2-float64(off.X), float64(box.Min.Y+box.Max.Y)/2-float64(off.Y)
	if s <= 0 {
		return 0
	}
	w, h := img.Cols(), img.Rows()
	var px []byte
	if img.IsContinuous() {
		px, _ = img.DataPtrUint8()
	}
	v := make([]float64, 0, 72)
	for a := 0.0; a < 2*math.Pi; a += math.Pi / 12 {
		for _, k := range []float64{0.9, 1.05, 1.2} {
			x, y := int(math.Round(cx+k*s*math.Cos(a))), int(math.Round(cy+k*s*math.Sin(a)))
			if x < 0 || y < 0 || x >= w || y >= h {
				continue
			}
			if i := 3 * (y*w + x); px != nil {
				v = append(v, lightness(px[i], px[i+1], px[i+2], lin))
			} else {
				p := img.GetVecbAt(y, x)
				v = append(v, lightness(p[0], p[1], p[2], lin))
			}
		}
	}
	if len(v) < 24 { // of 72
		return 0
	}
	return median(v)
}

// srgbLinear is the table of sRGB's 8-bit levels in linear light.
func srgbLinear() *[256]float64 {
	var t [256]float64
	for c := range t {
		v := float64(c) / 255
		if v <= 0.04045 {
			t[c] = v / 12.92
		} else {
			t[c] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return &t
}

// lightness is the 8-bit Lab L of an sRGB pixel given as b, g, r, as OpenCV converts it; lin
// is srgbLinear's table.
func lightness(b, g, r byte, lin *[256]float64) float64 {
	y := 0.212671*lin[r] + 0.715160*lin[g] + 0.072169*lin[b]
	f := 7.787*y + 16.0/116
	if y > 0.008856 {
		f = math.Cbrt(y)
	}
	return (116*f - 16) * 255 / 100
}

// medianColour is the median face colour, channel by channel, of the dice read as least or more
// other than the skip-th, and how many there are.
func medianColour(dice []Die, skip, least int) ([3]float64, int) {
	var ls, as, bs []float64
	for j, o := range dice {
		if j != skip && o.Value >= least {
			ls, as, bs = append(ls, o.col[0]), append(as, o.col[1]), append(bs, o.col[2])
		}
	}
	return [3]float64{median(ls), median(as), median(bs)}, len(ls)
}

// labDist is the distance of two 8-bit Lab colours, hue counted twice as lightness (as the
// reader's contrasts are).
func labDist(a, b [3]float64) float64 {
	dl, da, db := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(dl*dl + 2*(da*da+db*db))
}

// printedAlike refuses a 1 printed the other way from the dice read: the dice of a game are
// printed alike, their pips all darker than their faces or all lighter. A 1 is a single mark,
// the least evidence of a die; a light mark on a dark face unlike (by more than 5t, as in
// odd) a die of two or more dark pips on its pale face is something else among the dice (a
// laptop key's light symbol on its dark cap). It is refused, not left out: it may hide a die.
func printedAlike(img gocv.Mat, off image.Point, dice []Die, t float64) {
	// lighter says whether the die's first pip is lighter than its face around it (at a
	// quarter of the die's side from the pip: on the face, clear of the pip).
	lighter := func(d Die) bool {
		if len(d.Pips) == 0 {
			return false
		}
		lum := func(x, y int) float64 {
			x, y = x-off.X, y-off.Y
			if x < 0 || y < 0 || x >= img.Cols() || y >= img.Rows() {
				return -1
			}
			v := img.GetVecbAt(y, x)
			return (float64(v[0]) + float64(v[1]) + float64(v[2])) / 3
		}
		p := d.Pips[0]
		r := 0.25 * float64(d.Box.Dx()+d.Box.Dy()) / 2
		var ring []float64
		for a := 0.0; a < 2*math.Pi; a += math.Pi / 12 {
			if l := lum(p.X+int(math.Round(r*math.Cos(a))), p.Y+int(math.Round(r*math.Sin(a)))); l >= 0 {
				ring = append(ring, l)
			}
		}
		return len(ring) > 0 && lum(p.X, p.Y) > median(ring)
	}
	// The dice read with two or more pips must be one game's: alike in colour (within t of
	// their median, as in odd), all with dark pips. Photos of mixed dice give no rule.
	// As in odd, alike as seen or lit alike (relit), and unlike them both ways.
	game := func(dice []Die, i int) (alike, unlike bool) {
		m, n := medianColour(dice, i, 2)
		if n == 0 {
			return false, false
		}
		alike = true
		for j, o := range dice {
			if j != i && o.Value >= 2 {
				alike = alike && len(o.Pips) > 0 && labDist(o.col, m) < t && !lighter(o)
			}
		}
		return alike, labDist(dice[i].col, m) > 5*t
	}
	rel := withCols(dice, relit(img, off, dice))
	var refuse []int
	for i, d := range dice {
		if d.Value != 1 || len(d.Pips) != 1 || !lighter(d) {
			continue
		}
		a1, u1 := game(dice, i)
		a2, u2 := game(rel, i)
		if (a1 || a2) && u1 && u2 {
			refuse = append(refuse, i)
		}
	}
	for _, i := range refuse {
		dice[i].Value, dice[i].Why = 0, "a light mark on a dark face, unlike the dice's dark pips: something else among them (dice printed both ways: calibrate the tray)"
	}
}
