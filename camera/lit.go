package camera

// litShare and litArea: how much of the foreground, and of the picture, lies within the
// tray's threshold of the whole picture's surface before that surface is trusted (see unlit).
const litShare, litArea = 0.4, 0.02

// litEdge: the pixels taken back lie farther than this (pixels of the downscaled copy) from
// every edge.
const litEdge = 3

// unlit takes back into the tray the part of the foreground g (n pixels, each farther than
// √t2 from the tray modelled from the border, the edges marked in edge) that light falling
// unevenly put there, and returns how many pixels are left. The whole picture's surface
// (fitLit) is trusted only where the border's leaves much of the tray in the foreground: at
// least litShare of it, and litArea of the picture, within √t2 of the whole picture's
// surface. It lies nearer pale faces than the border's surface does, so it is kept to the
// pictures that need it (trusted always, it reads matteop65's two_40 no longer, six_44 now).
// Only pixels away from every edge are taken back: a pale face lies as near that surface as
// the wood may, and taken back whole it left its side face to be read as the die
// (matteop65's dice_27 in a warmer light, a 2 for a 1); its outline kept, its inside is a
// hole, filled again (segment).
func unlit(lab labImage, g grid, n int, border [3][6]float64, t2 float64, edge grid) int {
	if float64(n) < litArea*float64(len(g.b)) {
		return n
	}
	lit := fitLit(lab, border)
	var nearLit []int // foreground pixels within √t2 of the whole picture's surface
	for y := 0; y < lab.h; y++ {
		s := surface(lit, y, lab.h)
		for x := 0; x < lab.w; x++ {
			i := y*lab.w + x
			if g.b[i] && colourDist2(lab.p[3*i:3*i+3:3*i+3], s.at(x, lab.w)) <= t2 {
				nearLit = append(nearLit, i)
			}
		}
	}
	if float64(len(nearLit)) < litShare*float64(n) || float64(len(nearLit)) < litArea*float64(len(g.b)) {
		return n
	}
	keep := within(edge, litEdge)
	tray := 0
	for _, i := range nearLit {
		if !keep.b[i] {
			g.b[i] = false
			tray++
		}
	}
	return n - tray
}

// fitLit fits the tray over the whole picture, not its border alone: light that falls
// unevenly (a lamp at one side, a lens darker in its corners) makes the middle of a tray
// brighter than the border's surface carried inwards says. Dice, pips and shadows are
// dropped as the samples farthest from the fit, starting from the border's surface (a
// trimmed least squares: the nearer half, then three fifths).
func fitLit(lab labImage, border [3][6]float64) [3][6]float64 {
	w, h := lab.w, lab.h
	step := max(1, (w+h)/100)
	ss := make([]sample, 0, (w/step+1)*(h/step+1))
	for y := step / 2; y < h; y += step {
		for x := step / 2; x < w; x += step {
			ss = append(ss, sampleAt(lab, x, y))
		}
	}
	use := make([]bool, len(ss))
	res := make([]float64, len(ss))
	model, keep := border, 0.5
	for pass := 0; pass < 4; pass++ {
		residuals(model, ss, res)
		lim := quantile(res, keep)
		for i := range use {
			use[i] = res[i] <= lim
		}
		model, keep = fitSurface(ss, use), 0.6
	}
	return model
}

// within marks the pixels within r of a pixel marked in g (a square of side 2r+1 round each):
// g dilated r times by a 3×3 square, in two passes of running counts, one along the rows and
// one down the columns.
func within(g grid, r int) grid {
	rows, out := newGrid(g.w, g.h), newGrid(g.w, g.h)
	line := func(get func(k int) bool, set func(k int), n int) {
		c := 0 // marked pixels in the window k-2r..k
		for k := 0; k < n+r; k++ {
			if k < n && get(k) {
				c++
			}
			if k-2*r-1 >= 0 && get(k-2*r-1) {
				c--
			}
			if k-r >= 0 && c > 0 {
				set(k - r)
			}
		}
	}
	for y := 0; y < g.h; y++ {
		row := y * g.w
		line(func(k int) bool { return g.b[row+k] }, func(k int) { rows.b[row+k] = true }, g.w)
	}
	for x := 0; x < g.w; x++ {
		line(func(k int) bool { return rows.b[k*g.w+x] }, func(k int) { out.b[k*g.w+x] = true }, g.h)
	}
	return out
}
