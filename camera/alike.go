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
func unlike(dice []Die, t float64) []Die {
	m, ok := alikeColour(dice, t)
	if !ok {
		return dice
	}
	kept := dice[:0]
	for _, d := range dice {
		if d.Value > 0 || !unlikeColour(d, m, t) {
			kept = append(kept, d)
		}
	}
	return kept
}

// alikeColour is the face colour that three or more dice read share (within t of their
// median), if they do.
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
func odd(dice []Die, t float64) {
	for i, d := range dice {
		if d.Value == 0 || d.col == [3]float64{} {
			continue
		}
		m, n := medianColour(dice, i, 1)
		if n < 3 {
			continue
		}
		alike := true
		for j, o := range dice {
			alike = alike && (j == i || o.Value == 0 || labDist(o.col, m) < t)
		}
		if alike && labDist(d.col, m) > 5*t {
			dice[i].Value, dice[i].Why = 0, "unlike the other dice: something else among them (dice of several colours: calibrate the tray)"
		}
	}
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
	var refuse []int
	for i, d := range dice {
		if d.Value != 1 || len(d.Pips) != 1 || !lighter(d) {
			continue
		}
		m, n := medianColour(dice, i, 2)
		if n == 0 {
			continue
		}
		game := true
		for j, o := range dice {
			if j != i && o.Value >= 2 {
				game = game && len(o.Pips) > 0 && labDist(o.col, m) < t && !lighter(o)
			}
		}
		if game && labDist(d.col, m) > 5*t {
			refuse = append(refuse, i)
		}
	}
	for _, i := range refuse {
		dice[i].Value, dice[i].Why = 0, "a light mark on a dark face, unlike the dice's dark pips: something else among them (dice printed both ways: calibrate the tray)"
	}
}
