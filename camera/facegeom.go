package camera

import "math"

// edgeTurn returns how far (radians, within ±45°) the die's edges in the patch are turned from
// its axes, from the 4-fold symmetric average of the local edge directions of the L channel.
// The directions are those of the gradient's structure tensor over 5×5 pixels, weighted by
// how much one direction dominates there: a straight edge counts fully, while a pip, round
// and smaller than the window, counts little (the outlines of a diagonal 3's pips on a pale
// die would otherwise turn the estimate by up to 45°).
//
// It also returns how square the edges are: the strength of the 4-fold average of the
// gradient directions relative to all gradient energy (near 0 for a disc or clutter, clearly
// above for a die), and the turn that average gives (pips and all).
func edgeTurn(lab []byte, P int, S float64, bufs *floats) (float64, float64, float64) {
	const win = 2 // the 5×5 window
	half := float64(P) / 2
	lo, hi := max(1, int(half-0.7*S)), min(P-2, int(half+0.7*S)+1)
	// The window's pixels within 0.7 S of the centre both ways: from in0 to in1.
	in0, in1 := lo, hi
	for in0 <= hi && math.Abs(float64(in0)-half) > 0.7*S {
		in0++
	}
	for in1 >= in0 && math.Abs(float64(in1)-half) > 0.7*S {
		in1--
	}
	// Gradient and its tensor on the region, win pixels wider for the window.
	x0, x1 := max(1, lo-win), min(P-2, hi+win)
	n := x1 - x0 + 1
	buf := bufs.get(4 * n * n)
	defer bufs.put(buf)
	jxx, jyy, jxy, tmp := buf[:n*n], buf[n*n:2*n*n], buf[2*n*n:3*n*n], buf[3*n*n:]
	var c4, s4, tot float64
	for y := x0; y <= x1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*P + x
			gx := float64(lab[3*(i+1)]) - float64(lab[3*(i-1)])
			gy := float64(lab[3*(i+P)]) - float64(lab[3*(i-P)])
			j := (y-x0)*n + x - x0
			jxx[j], jyy[j], jxy[j] = gx*gx, gy*gy, gx*gy
			w := gx*gx + gy*gy
			if w == 0 || x < in0 || x > in1 || y < in0 || y > in1 {
				continue
			}
			// cos4φ and sin4φ from the gradient without trigonometry.
			tot += w
			c2, s2 := (gx*gx-gy*gy)/w, 2*gx*gy/w
			c4 += w * (c2*c2 - s2*s2)
			s4 += w * 2 * c2 * s2
		}
	}
	if tot == 0 {
		return 0, 0, 0
	}
	square := math.Hypot(c4, s4) / tot
	boxSum(jxx, tmp, n, win)
	boxSum(jyy, tmp, n, win)
	boxSum(jxy, tmp, n, win)
	var t4c, t4s float64
	for y := in0; y <= in1; y++ {
		row := (y - x0) * n
		for x := in0; x <= in1; x++ {
			j := row + x - x0
			c2, s2 := jxx[j]-jyy[j], 2*jxy[j]
			e := math.Sqrt(c2*c2 + s2*s2) // the dominant direction's excess energy (Hypot's care for overflow costs here)
			if e == 0 {
				continue
			}
			t4c += (c2*c2 - s2*s2) / e
			t4s += 2 * c2 * s2 / e
		}
	}
	return math.Atan2(t4s, t4c) / 4, square, math.Atan2(s4, c4) / 4
}

// boxSum replaces each value of the n×n grid v by the sum of its (2r+1)² neighbourhood
// (clipped), with running sums along rows and then columns; tmp is scratch of v's length.
func boxSum(v, tmp []float64, n, r int) {
	for y := 0; y < n; y++ {
		row := v[y*n : y*n+n]
		var s float64
		for x := 0; x < min(r, n); x++ {
			s += row[x]
		}
		for x := 0; x < n; x++ {
			if x+r < n {
				s += row[x+r]
			}
			if x-r-1 >= 0 {
				s -= row[x-r-1]
			}
			tmp[y*n+x] = s
		}
	}
	for x := 0; x < n; x++ {
		var s float64
		for y := 0; y < min(r, n); y++ {
			s += tmp[y*n+x]
		}
		for y := 0; y < n; y++ {
			if y+r < n {
				s += tmp[(y+r)*n+x]
			}
			if y-r-1 >= 0 {
				s -= tmp[(y-r-1)*n+x]
			}
			v[y*n+x] = s
		}
	}
}

// walks returns the lengths of the four axis-aligned walks (+x, -x, +y, -y) from p, past its
// own pip, to a pixel that contrasts with the face (the die's edge, the tray, another pip).
func walks(C []float64, P int, p [2]float64, t float64) [4]float64 {
	var out [4]float64
	for k, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		x, y := int(math.Round(p[0])), int(math.Round(p[1]))
		inPip := true
		n := 0
		for x >= 0 && y >= 0 && x < P && y < P {
			hi := C[y*P+x] > t
			if inPip && !hi {
				inPip = false
			} else if !inPip && hi {
				break
			}
			x += d[0]
			y += d[1]
			n++
		}
		out[k] = float64(n)
	}
	return out
}

// faceExtent finds the die's face in its patch as the part the surroundings do not reach:
// pixels contrasting with the face's colour more than Otsu's threshold over the whole patch,
// connected to the patch's border. It returns the face's centre and side (patch pixels) when
// the face is clearly smaller than the patch expects (below 0.8 of S) and squarish.
func faceExtent(lab []byte, P int, S float64) (cx, cy, side float64, ok bool) {
	half := float64(P) / 2
	fL, fA, fB := faceColour(lab, P, S, 0.2)
	C := make([]float64, P*P)
	for i := range C {
		dl, da, db := float64(lab[3*i])-fL, float64(lab[3*i+1])-fA, float64(lab[3*i+2])-fB
		C[i] = math.Sqrt(dl*dl + 2*(da*da+db*db))
	}
	t := otsu(C, 0, quantile(C, 0.995)+1)
	// The surroundings: the contrasting components that touch the patch's border.
	g := newGrid(P, P)
	for i, c := range C {
		g.b[i] = c > t
	}
	out := make([]bool, P*P)
	for _, comp := range g.components4(1) {
		edge := false
		for _, i := range comp {
			x, y := i%P, i/P
			edge = edge || x == 0 || y == 0 || x == P-1 || y == P-1
		}
		if edge {
			for _, i := range comp {
				out[i] = true
			}
		}
	}
	// The face spans the columns (rows) through the middle band that the surroundings
	// mostly miss, outwards from the centre.
	span := func(at func(u, v int) int) (lo, hi int) {
		free := func(u int) bool {
			n, m := 0, 0
			for v := int(half - 0.2*S); v <= int(half+0.2*S); v++ {
				n++
				if out[at(u, v)] {
					m++
				}
			}
			return 2*m < n
		}
		lo, hi = int(half), int(half)
		if !free(lo) {
			return 0, -1
		}
		for lo > 0 && free(lo-1) {
			lo--
		}
		for hi < P-1 && free(hi+1) {
			hi++
		}
		return lo, hi
	}
	x0, x1 := span(func(u, v int) int { return v*P + u })
	y0, y1 := span(func(u, v int) int { return u*P + v })
	w, h := float64(x1-x0+1), float64(y1-y0+1)
	if w < 0.4*S || h < 0.4*S || math.Max(w, h) > 0.8*S || math.Max(w, h) > 1.25*math.Min(w, h) {
		return 0, 0, 0, false
	}
	return float64(x0+x1) / 2, float64(y0+y1) / 2, (w + h) / 2, true
}

// noFace says why the patch's centre is no die's face, or returns "": when its colour (the
// median of the centre) differs by less than t from that of its surroundings (the median of a
// ring 0.3 to 0.48 of a side beyond the face's edges), or when the pixels of its colour
// around the centre reach two or more sides of the patch (half a side beyond the face).
func noFace(lab []byte, P int, S, t float64) string {
	half := float64(P) / 2
	fL, fA, fB := faceColour(lab, P, S, 0.3)
	var Ls, As, Bs byteHist
	g := newGrid(P, P)
	for y := 0; y < P; y++ {
		for x := 0; x < P; x++ {
			i := y*P + x
			L, A, B := float64(lab[3*i]), float64(lab[3*i+1]), float64(lab[3*i+2])
			if d := math.Max(math.Abs(float64(x)-half), math.Abs(float64(y)-half)); d >= 0.8*S && d < 0.98*S {
				Ls.add(lab[3*i])
				As.add(lab[3*i+1])
				Bs.add(lab[3*i+2])
			}
			g.b[i] = math.Sqrt((L-fL)*(L-fL)+2*((A-fA)*(A-fA)+(B-fB)*(B-fB))) <= t
		}
	}
	if labDist([3]float64{fL, fA, fB}, [3]float64{Ls.median(), As.median(), Bs.median()}) < t {
		return "no face: its colour is that of its surroundings"
	}
	// The region of the face's colour: the component with most pixels near the centre.
	var best []int
	bn := 0
	for _, comp := range g.components4(1) {
		n := 0
		for _, i := range comp {
			if math.Abs(float64(i%P)-half) < 0.2*S && math.Abs(float64(i/P)-half) < 0.2*S {
				n++
			}
		}
		if n > bn {
			best, bn = comp, n
		}
	}
	var l, r, u, d bool
	for _, i := range best {
		x, y := i%P, i/P
		l, r, u, d = l || x == 0, r || x == P-1, u || y == 0, d || y == P-1
	}
	if n := btoi(l) + btoi(r) + btoi(u) + btoi(d); n >= 2 {
		return "no face: its colour runs on beyond the die"
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// faceColour is the median Lab colour of the patch's centre square, r·S from the centre
// each way: the face's own colour, pips being a minority there.
func faceColour(lab []byte, P int, S, r float64) (L, A, B float64) {
	half := float64(P) / 2
	var Ls, As, Bs byteHist
	lo, hi := max(0, int(half-r*S)), min(P-1, int(half+r*S)+1) // the square and a margin
	for y := lo; y <= hi; y++ {
		for x := lo; x <= hi; x++ {
			if math.Abs(float64(x)-half) < r*S && math.Abs(float64(y)-half) < r*S {
				i := (y*P + x) * 3
				Ls.add(lab[i])
				As.add(lab[i+1])
				Bs.add(lab[i+2])
			}
		}
	}
	return Ls.median(), As.median(), Bs.median()
}
