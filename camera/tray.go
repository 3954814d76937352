package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// shadeMin is the least light, as a share of the tray's, that a part of the tray in shade keeps
// (a wall turned from diffuse room light); darker greys are dice.
const shadeMin = 0.6

// foreground marks pixels whose colour differs from the modelled tray, or whose gradient is
// stronger than the tray's own texture.
func (r *Reader) foreground(lab labImage) (grid, grid) {
	w, h := lab.w, lab.h
	bw := max(2, int(0.03*float64(max(w, h))))
	var model [3][6]float64
	if len(r.o.BackgroundLab) == 3 {
		for c := 0; c < 3; c++ {
			model[c][0] = r.o.BackgroundLab[c]
		}
	} else {
		model = fitBackground(lab, bw)
	}
	// The commonest colour is the tray too: it catches a tray whose frame fills the border.
	mode := modeColour(lab)
	if len(r.o.BackgroundLab) == 3 {
		mode = [3]float64{r.o.BackgroundLab[0], r.o.BackgroundLab[1], r.o.BackgroundLab[2]}
	}
	// The border's samples of each pixel's distance to the tray's colour, and of its
	// gradient, give the thresholds.
	dist := func(x, y int) float64 {
		i := (y*w + x) * 3
		return math.Sqrt(trayDist2(lab.p[i:i+3:i+3], surface(model, y, h).at(x, w), mode))
	}
	// shade says whether pixel p, where the modelled surface has colour m, is the tray in
	// shade: its hue, with less light (down to shadeMin of the tray's). A box's inner walls
	// and the floor beside them are the tray's cardboard turned from the light (see cutBlobs).
	shade := func(p []byte, m [3]float64, t float64) bool {
		for _, ref := range [2]*[3]float64{&m, &mode} {
			dL := float64(p[0]) - ref[0]
			da, db := float64(p[1])-ref[1], float64(p[2])-ref[2]
			if 1.5*(da*da+db*db) <= t*t/4 && dL <= 0 && dL >= -(1-shadeMin)*ref[0] {
				return true
			}
		}
		return false
	}
	grad := func(x, y int) float64 { // of L; 0 on the picture's outermost pixels
		if x < 1 || y < 1 || x >= w-1 || y >= h-1 {
			return 0
		}
		i := y*w + x
		gx := float64(lab.p[(i+1)*3]) - float64(lab.p[(i-1)*3])
		gy := float64(lab.p[(i+w)*3]) - float64(lab.p[(i-w)*3])
		return math.Abs(gx) + math.Abs(gy)
	}
	var bgD, bgG []float64
	ring(w, h, bw, 1, 1, w-1, h-1, 1, func(x, y int) {
		if (x+y)%3 == 0 {
			bgG = append(bgG, grad(x, y))
			bgD = append(bgD, dist(x, y))
		}
	})
	// Border medians measure the tray's own noise and texture; dice or cables on the border
	// are too few to move them.
	tD := math.Max(r.o.MinContrast, 4*median(bgD))
	tG := math.Max(1.5*r.o.MinContrast, 4*median(bgG))
	// dist > tD for every pixel: the reader's hottest loop, so the surface is taken a row at
	// a time and the distances are compared squared.
	g := newGrid(w, h)
	n := 0
	tD2 := tD * tD
	for y := 0; y < h; y++ {
		s := surface(model, y, h)
		row := lab.p[y*w*3 : (y+1)*w*3]
		for x := 0; x < w; x++ {
			if trayDist2(row[3*x:3*x+3:3*x+3], s.at(x, w), mode) > tD2 {
				g.b[y*w+x] = true
				n++
			}
		}
	}
	// Edges: a gradient stronger than the tray's texture.
	edge := newGrid(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			edge.b[y*w+x] = grad(x, y) > tG
		}
	}
	n = unlit(lab, g, n, model, tD2, edge)
	// A second surface (a tray inside a frame, a mat on a table) covering much of the picture:
	// its commonest colour is background too.
	if n > len(g.b)/4 && len(r.o.BackgroundLab) != 3 {
		m2 := modeColourOf(lab, g.b)
		for i := range g.b {
			if g.b[i] {
				e0 := float64(lab.p[3*i]) - m2[0]
				e1 := float64(lab.p[3*i+1]) - m2[1]
				e2 := float64(lab.p[3*i+2]) - m2[2]
				g.b[i] = math.Sqrt(e0*e0+1.5*(e1*e1+e2*e2)) > tD
			}
		}
	}
	sh := newGrid(w, h)
	for y := 0; y < h; y++ {
		s := surface(model, y, h)
		for x := 0; x < w; x++ {
			if edge.b[y*w+x] {
				g.b[y*w+x] = true
			}
			if g.b[y*w+x] {
				sh.b[y*w+x] = shade(lab.p[3*(y*w+x):3*(y*w+x)+3], s.at(x, w), tD)
			}
		}
	}
	return g, sh
}

// trayDist2 is the squared distance of the Lab pixel p to the tray's colour: the nearer of
// the modelled surface there (m) and the commonest colour (mode), hue counting 1.5 times
// (as colourDist2; written out, as the reader's hottest loop runs it for every pixel).
func trayDist2(p []byte, m, mode [3]float64) float64 {
	l, a, b := float64(p[0]), float64(p[1]), float64(p[2])
	dl, da, db := l-m[0], a-m[1], b-m[2]
	el, ea, eb := l-mode[0], a-mode[1], b-mode[2]
	return min(dl*dl+1.5*(da*da+db*db), el*el+1.5*(ea*ea+eb*eb))
}

// colourDist2 is the squared distance of the Lab pixel p to the colour c, hue counting 1.5
// times.
func colourDist2(p []byte, c [3]float64) float64 {
	dl, da, db := float64(p[0])-c[0], float64(p[1])-c[1], float64(p[2])-c[2]
	return dl*dl + 1.5*(da*da+db*db)
}

// surfaceRow is the tray's modelled surface (fitBackground's quadratic in L, a and b) along
// one row of the picture: a0 + a1·fx + a2·fx² per channel, fx running from -1 to 1 across it.
type surfaceRow struct{ a0, a1, a2 [3]float64 }

// surface is the row y of h of the surface model.
func surface(model [3][6]float64, y, h int) surfaceRow {
	fy := 2*float64(y)/float64(h) - 1
	var s surfaceRow
	for c := 0; c < 3; c++ {
		s.a0[c] = model[c][0] + model[c][2]*fy + model[c][4]*fy*fy
		s.a1[c] = model[c][1] + model[c][5]*fy
		s.a2[c] = model[c][3]
	}
	return s
}

// at is the surface's colour at column x of w.
func (s surfaceRow) at(x, w int) [3]float64 {
	fx := 2*float64(x)/float64(w) - 1
	return [3]float64{s.a0[0] + fx*(s.a1[0]+fx*s.a2[0]), s.a0[1] + fx*(s.a1[1]+fx*s.a2[1]), s.a0[2] + fx*(s.a1[2]+fx*s.a2[2])}
}

// ring calls fn, row by row, for the points of the grid of step from (x0, y0) to (x1, y1),
// exclusive, that lie within bw of the edge of a w×h picture: the border the tray is modelled
// from. It visits them as a scan of the whole grid would, without testing every point.
func ring(w, h, bw, x0, y0, x1, y1, step int, fn func(x, y int)) {
	for y := y0; y < y1; y += step {
		x := x0
		if y >= bw && y < h-bw {
			for ; x < x1 && x < bw; x += step {
				fn(x, y)
			}
			if x < w-bw {
				x += (w - bw - x + step - 1) / step * step
			}
		}
		for ; x < x1; x += step {
			fn(x, y)
		}
	}
}

// fitBackground fits L, a and b of the border pixels (within bw of the edge) with a quadratic
// surface each, twice, dropping outliers (dice or cables on the border) the second time.
func fitBackground(lab labImage, bw int) [3][6]float64 {
	w, h := lab.w, lab.h
	step := max(1, (w+h)/300)
	n := 0
	ring(w, h, bw, 0, 0, w, h, step, func(x, y int) { n++ })
	ss := make([]sample, 0, n)
	ring(w, h, bw, 0, 0, w, h, step, func(x, y int) { ss = append(ss, sampleAt(lab, x, y)) })
	use := make([]bool, len(ss))
	for i := range use {
		use[i] = true
	}
	res := make([]float64, len(ss))
	model := fitSurface(ss, use)
	for pass := 0; pass < 2; pass++ {
		residuals(model, ss, res)
		lim := 3*median(res) + 2
		for i := range use {
			use[i] = res[i] <= lim
		}
		model = fitSurface(ss, use)
	}
	return model
}

// A sample is one pixel for a surface fit: its terms (1, x, y, x², y², xy, x and y from -1 to
// 1 across the picture) and its L, a and b.
type sample struct {
	b [6]float64
	v [3]float64
}

func sampleAt(lab labImage, x, y int) sample {
	fx, fy := 2*float64(x)/float64(lab.w)-1, 2*float64(y)/float64(lab.h)-1
	i := (y*lab.w + x) * 3
	return sample{b: [6]float64{1, fx, fy, fx * fx, fy * fy, fx * fy},
		v: [3]float64{float64(lab.p[i]), float64(lab.p[i+1]), float64(lab.p[i+2])}}
}

// fitSurface fits the samples in use with a quadratic surface per channel.
func fitSurface(ss []sample, use []bool) [3][6]float64 {
	// The normal equations share their matrix across the three channels.
	var A [6][6]float64
	var B [3][6]float64
	for i, s := range ss {
		if !use[i] {
			continue
		}
		for p := 0; p < 6; p++ {
			for c := 0; c < 3; c++ {
				B[c][p] += s.b[p] * s.v[c]
			}
			for q := p; q < 6; q++ {
				A[p][q] += s.b[p] * s.b[q]
			}
		}
	}
	for p := 0; p < 6; p++ {
		for q := 0; q < p; q++ {
			A[p][q] = A[q][p] // symmetric
		}
		A[p][p] += 1e-3 * float64(len(ss)) // ridge: keeps a flat fit when the samples are a thin ring
	}
	var model [3][6]float64
	for c := 0; c < 3; c++ {
		model[c] = solve6(A, B[c])
	}
	return model
}

// residuals sets res[i] to the colour distance of sample i from the model.
func residuals(model [3][6]float64, ss []sample, res []float64) {
	for i, s := range ss {
		var d float64
		for c := 0; c < 3; c++ {
			var m float64
			for k := 0; k < 6; k++ {
				m += model[c][k] * s.b[k]
			}
			d += (s.v[c] - m) * (s.v[c] - m)
		}
		res[i] = math.Sqrt(d)
	}
}

func solve6(A [6][6]float64, B [6]float64) [6]float64 {
	const n = 6
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		A[c], A[p] = A[p], A[c]
		B[c], B[p] = B[p], B[c]
		if math.Abs(A[c][c]) < 1e-12 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := A[r][c] / A[c][c]
			for k := c; k < n; k++ {
				A[r][k] -= f * A[c][k]
			}
			B[r] -= f * B[c]
		}
	}
	var x [6]float64
	for r := n - 1; r >= 0; r-- {
		s := B[r]
		for k := r + 1; k < n; k++ {
			s -= A[r][k] * x[k]
		}
		if math.Abs(A[r][r]) > 1e-12 {
			x[r] = s / A[r][r]
		}
	}
	return x
}

// faceHoles and closeUpHoles say how large a hole in the foreground segment fills, as
// the part of the picture it may cover (1/faceHoles): a die's face and pips, and a face seen
// from close up (a single die filling much of the picture, tai-studio's close-ups). Larger
// holes are the inside of a tray's frame. The reader fills faces' holes first, and close-ups'
// only where it read nothing (see Read).
const faceHoles, closeUpHoles = 6, 2

// segmentation is a downscaled copy of the picture searched, split: its foreground, in
// which holes up to 1/holes of the picture are filled, the tray in shade, the scale of the
// copy, and the share of the picture the largest hole left open covers.
type segmentation struct {
	fg, shade   grid
	scale, open float64
}

// segment segments a downscaled copy of img (see segmentation).
func (r *Reader) segment(img gocv.Mat, holes int) segmentation {
	scale := math.Min(1, float64(r.o.DetectMaxDim)/float64(max(img.Cols(), img.Rows())))
	small := gocv.NewMat()
	defer small.Close()
	if scale < 1 {
		gocv.Resize(img, &small, image.Pt(int(math.Round(float64(img.Cols())*scale)), int(math.Round(float64(img.Rows())*scale))), 0, 0, gocv.InterpolationArea)
	} else {
		img.CopyTo(&small)
	}
	gocv.GaussianBlur(small, &small, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
	fg, shade := r.foreground(toLab(small))
	// Close gaps in the outline of pale dice on a pale tray, fill the faces, drop specks.
	fg, open := morphMat(fg, gocv.MorphClose, 5).fillHolesOpen(len(fg.b) / holes)
	return segmentation{morphMat(fg, gocv.MorphOpen, 3), shade, scale, float64(open) / float64(len(fg.b))}
}

// modeColour returns the mean colour of the most populated coarse Lab bin.
func modeColour(lab labImage) [3]float64 { return modeColourOf(lab, nil) }

// modeColourOf is modeColour over the pixels marked in mask (all when mask is nil).
func modeColourOf(lab labImage, mask []bool) [3]float64 {
	const qL, qC = 16, 8
	// Bins numbered in the order of (L, a, b): on a tie the first bin wins.
	counts := make([]int32, (256/qL)*(256/qC)*(256/qC))
	n := lab.w * lab.h
	key := func(i int) int {
		return (int(lab.p[3*i])/qL*(256/qC)+int(lab.p[3*i+1])/qC)*(256/qC) + int(lab.p[3*i+2])/qC
	}
	for i := 0; i < n; i += 2 {
		if mask == nil || mask[i] {
			counts[key(i)]++
		}
	}
	bk, bc := 0, int32(0)
	for k, c := range counts {
		if c > bc {
			bk, bc = k, c
		}
	}
	var sum [3]float64
	var m float64
	for i := 0; i < n; i += 2 {
		if (mask == nil || mask[i]) && key(i) == bk {
			for c := 0; c < 3; c++ {
				sum[c] += float64(lab.p[3*i+c])
			}
			m++
		}
	}
	if m == 0 {
		return [3]float64{}
	}
	return [3]float64{sum[0] / m, sum[1] / m, sum[2] / m}
}
