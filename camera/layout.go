package camera

import "math"

// layouts returns the canonical pip layouts of a face with n pips, in units of the pip spacing,
// in the die's own frame; a face whose layout is not symmetric under a quarter turn has two.
func layouts(n int) [][][2]float64 {
	switch n {
	case 1:
		return [][][2]float64{{{0, 0}}}
	case 2:
		return [][][2]float64{{{-1, -1}, {1, 1}}, {{-1, 1}, {1, -1}}}
	case 3:
		return [][][2]float64{{{-1, -1}, {0, 0}, {1, 1}}, {{-1, 1}, {0, 0}, {1, -1}}}
	case 4:
		return [][][2]float64{{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}}
	case 5:
		return [][][2]float64{{{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}}}
	case 6:
		return [][][2]float64{
			{{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
			{{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {0, 1}, {1, 1}},
		}
	}
	return nil
}

// frame places a layout on a face: centre, rotation and pip spacing (patch pixels).
type frame struct {
	cx, cy, ang, a float64
}

func (f frame) at(u, v float64) (float64, float64) {
	c, s := math.Cos(f.ang), math.Sin(f.ang)
	return f.cx + f.a*(c*u-s*v), f.cy + f.a*(s*u+c*v)
}

// local expresses a point in the frame's units.
func (f frame) local(x, y float64) (float64, float64) {
	c, s := math.Cos(f.ang), math.Sin(f.ang)
	dx, dy := x-f.cx, y-f.cy
	return (c*dx + s*dy) / f.a, (-s*dx + c*dy) / f.a
}

// fit is the best placement of the canonical layout for a set of pips.
type fit struct {
	value  int
	layout [][2]float64
	f      frame
	err    float64 // largest distance of a pip from its canonical place, in pip spacings
	weak   bool    // a lone pip taken for a 1 only because it sits in the middle of its own face
	sides  bool    // a 1 whose die shows pips on its side faces only (see sideOf)
}

// fitLayout fits the layout with len(pts) pips. The centre of every canonical layout is the
// centroid of its pips, so only the rotation and the spacing are searched: rotations are
// taken from the pips' own directions, and the spacing follows from the rotated pips.
func fitLayout(pts [][2]float64, dieSide float64) (fit, bool) {
	n := len(pts)
	ls := layouts(n)
	if ls == nil {
		return fit{}, false
	}
	var cx, cy float64
	for _, p := range pts {
		cx += p[0]
		cy += p[1]
	}
	cx /= float64(n)
	cy /= float64(n)
	if n == 1 {
		return fit{value: 1, layout: ls[0], f: frame{cx: cx, cy: cy, a: 0.24 * dieSide}}, true
	}
	angs := []float64{0}
	for _, p := range pts {
		dx, dy := p[0]-cx, p[1]-cy
		if math.Hypot(dx, dy) < 0.05*dieSide {
			continue
		}
		phi := math.Atan2(dy, dx)
		angs = append(angs, phi, phi-math.Pi/4)
	}
	// The pips in each turn's frame do not depend on the layout: they are placed once.
	type turn struct {
		f   frame
		loc [][2]float64
	}
	turns := make([]turn, 0, len(angs))
	locs := make([][2]float64, n*len(angs))
	for k, ang := range angs {
		ang = math.Mod(ang+4*math.Pi, math.Pi/2)
		f := frame{cx: cx, cy: cy, ang: ang, a: 1}
		c, s := math.Cos(ang), math.Sin(ang)
		loc := locs[k*n : k*n+n]
		var sa float64
		var na int
		for i, p := range pts {
			dx, dy := p[0]-cx, p[1]-cy
			u, v := c*dx+s*dy, -s*dx+c*dy // f.local with a = 1
			loc[i] = [2]float64{u, v}
			if m := math.Max(math.Abs(u), math.Abs(v)); m > 0.05*dieSide {
				sa += m
				na++
			}
		}
		if na == 0 {
			continue
		}
		f.a = sa / float64(na)
		turns = append(turns, turn{f, loc})
	}
	best := fit{err: math.Inf(1)}
	used := make([]bool, n)
	for _, l := range ls {
		for _, tn := range turns {
			f := tn.f
			clear(used)
			worst := 0.0 // squared until the end
			ok := true
			for _, q := range tn.loc {
				bj, bd := -1, math.Inf(1)
				for j, t := range l {
					if d := sq(q[0]/f.a-t[0]) + sq(q[1]/f.a-t[1]); d < bd {
						bj, bd = j, d
					}
				}
				if used[bj] {
					ok = false
					break
				}
				used[bj] = true
				worst = math.Max(worst, bd)
			}
			if worst = math.Sqrt(worst); ok && worst < best.err {
				best = fit{value: n, layout: l, f: f, err: worst}
			}
		}
	}
	return best, !math.IsInf(best.err, 1)
}
