package camera

import (
	"encoding/binary"
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// darkSpot is a pip-sized dark blob found in the whole picture, in image pixels.
type darkSpot struct {
	x, y, d float64
}

// darkSpots finds pip-like blobs in the whole picture: compact, round spots darker than
// their surroundings (a black-hat of the lightness). Ivory dice on pale wood are often not
// segmented at all, but their pips still stand out. gray receives the picture's lightness,
// scaled to 640 pixels at most, which the returned grayImg views (no copy): it lives as long
// as gray.
func darkSpots(img gocv.Mat, gray *gocv.Mat) ([]darkSpot, grayImg) {
	scale := math.Min(1, 640/float64(max(img.Cols(), img.Rows())))
	gocv.CvtColor(img, gray, gocv.ColorBGRToGray)
	if scale < 1 {
		gocv.Resize(*gray, gray, image.Pt(int(math.Round(float64(img.Cols())*scale)), int(math.Round(float64(img.Rows())*scale))), 0, 0, gocv.InterpolationArea)
	}
	out, ok := spotsIn(*gray, scale, gocv.MorphBlackhat)
	if !ok {
		return nil, grayImg{}
	}
	p, err := gray.DataPtrUint8()
	if err != nil {
		return out, grayImg{}
	}
	return out, grayImg{w: gray.Cols(), h: gray.Rows(), p: p, scale: scale}
}

// lightSpots finds the spots lighter than their surroundings (a dark die's light pips) in
// the lightness darkSpots left in gray, by a top-hat where darkSpots takes a black-hat: the
// dark spots of the picture's negative.
func lightSpots(g grayImg, gray gocv.Mat) []darkSpot {
	if g.p == nil {
		return nil
	}
	out, _ := spotsIn(gray, g.scale, gocv.MorphTophat)
	return out
}

// spotsIn finds the compact spots that op (a black-hat or a top-hat) makes stand out of the
// lightness gray, scaled by scale from the picture; false when nothing stands out of the
// texture.
func spotsIn(gray gocv.Mat, scale float64, op gocv.MorphType) ([]darkSpot, bool) {
	k := int(0.03*float64(max(gray.Cols(), gray.Rows())))/2*2 + 1
	kern := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(k, k))
	defer kern.Close()
	bh := gocv.NewMat()
	defer bh.Close()
	gocv.MorphologyEx(gray, &bh, op, kern)
	// The tray's own texture sets the threshold; a pip on an ivory die is far darker (a white
	// pip on a dark die far lighter). The texture's 0.9 quantile from every 7th pixel, by a
	// histogram of the bytes.
	v, err := bh.DataPtrUint8()
	if err != nil {
		return nil, false
	}
	var hist [256]int
	n := 0
	for i := 0; i < len(v); i += 7 {
		hist[v[i]]++
		n++
	}
	q, rank := 0, int(0.9*float64(n-1))
	for acc := hist[0]; acc <= rank && q < 255; acc += hist[q] {
		q++
	}
	if 6*q >= 255 {
		return nil, false // texture as strong as any pip: nothing stands out
	}
	bin := gocv.NewMat()
	defer bin.Close()
	gocv.Threshold(bh, &bin, float32(max(30, 6*q)), 255, gocv.ThresholdBinary)
	m, err := bin.DataPtrUint8()
	if err != nil {
		return nil, false
	}
	// Pips are few and small: flood only from the pixels above the threshold (skipped to,
	// eight at a time), clearing each pixel as it is reached (bin is ours).
	w, h := bin.Cols(), bin.Rows()
	var stack []int
	var out []darkSpot
	for i0 := 0; i0 < len(m); i0++ {
		if i0%8 == 0 && i0+8 <= len(m) && binary.LittleEndian.Uint64(m[i0:]) == 0 {
			i0 += 7
			continue
		}
		if m[i0] == 0 {
			continue
		}
		m[i0] = 0
		stack = append(stack[:0], i0)
		x0, y0, x1, y1 := w, h, 0, 0
		var sx, sy, area float64
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := i%w, i/w
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			sx += float64(x)
			sy += float64(y)
			area++
			for ny := max(y-1, 0); ny <= min(y+1, h-1); ny++ {
				for nx := max(x-1, 0); nx <= min(x+1, w-1); nx++ {
					if j := ny*w + nx; m[j] != 0 {
						m[j] = 0
						stack = append(stack, j)
					}
				}
			}
		}
		bw, bhh := float64(x1-x0+1), float64(y1-y0+1)
		if area < 3 || math.Max(bw, bhh) > 2*math.Min(bw, bhh) || area < 0.5*bw*bhh || math.Max(bw, bhh) > float64(k) {
			continue
		}
		out = append(out, darkSpot{x: (sx/area+0.5)/scale - 0.5, y: (sy/area+0.5)/scale - 0.5, d: 2 * math.Sqrt(area/math.Pi) / scale})
	}
	return out, true
}

// spotClusters groups spots of similar size lying within a few pip diameters of each other:
// the pips of one face.
func spotClusters(sp []darkSpot) [][]darkSpot {
	n := len(sp)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := sp[i], sp[j]
			if math.Max(a.d, b.d) > 2*math.Min(a.d, b.d) {
				continue
			}
			if math.Hypot(a.x-b.x, a.y-b.y) < 2.5*(a.d+b.d) {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := make(map[int][]darkSpot)
	var order []int
	for i := range sp {
		r := find(i)
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], sp[i])
	}
	var out [][]darkSpot
	for _, r := range order {
		out = append(out, groups[r])
	}
	return out
}

// fitSpots fits a canonical layout to spots, within the largest layout error.
func (r *Reader) fitSpots(cl []darkSpot) (fit, bool) {
	pts := make([][2]float64, len(cl))
	var dm float64
	for i, s := range cl {
		pts[i] = [2]float64{s.x, s.y}
		dm += s.d / float64(len(cl))
	}
	ft, ok := fitLayout(pts, 6*dm)
	return ft, ok && ft.err <= r.o.MaxLayoutError
}

// spotSizes is the largest ratio of the diameters of one face's pips (printed alike and
// foreshortened alike); a side face's pips are foreshortened more, so smaller.
const spotSizes = 1.25

// spotFaces finds the faces inside a cluster of spots that fits no layout as a whole: in an
// oblique view a top face's pips cluster with its side faces' pips, and neighbouring dice
// with each other. Every face of two to six pips holds two diagonally opposite corner pips,
// so each pair of spots of about one size is taken for such a pair; the face it defines,
// 3.6 pip spacings wide, must hold spots at exactly the places of one layout, fitted within
// maxErr, no other spot, and no spot of its pips' size just beyond it. A face whose spots
// are all spots of a bigger face is part of it (a 6's column is no 3). Faces may share
// spots; they are returned largest pips first.
func spotFaces(cl []darkSpot, maxErr float64) [][]darkSpot {
	type hyp struct {
		idx []int // ascending
		dm  float64
	}
	var hs []hyp
	places := [][2]float64{{-1, -1}, {1, 1}, {1, -1}, {-1, 1}, {0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	sized := func(a, b darkSpot) bool { return math.Max(a.d, b.d) <= spotSizes*math.Min(a.d, b.d) }
	occ := make([]int, len(places))
	for i := range cl {
		for j := i + 1; j < len(cl); j++ {
			a, b := cl[i], cl[j]
			dx, dy := b.x-a.x, b.y-a.y
			sp := math.Hypot(dx, dy) / (2 * math.Sqrt2) // the pip spacing
			if !sized(a, b) || sp < 0.75*(a.d+b.d)/2 {
				continue // pips closer than their own size are no face's
			}
			f := frame{cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2, ang: math.Atan2(dy, dx) - math.Pi/4, a: sp}
			for k := range occ {
				occ[k] = -1
			}
			ok := true
			for k, s := range cl {
				u, v := f.local(s.x, s.y)
				if m := math.Max(math.Abs(u), math.Abs(v)); m > 1.8 {
					// Off the face, but no neighbour's pip lies this near: its face ends
					// outside this one, and its pips lie 0.8 spacings inside it. A spot of
					// the pips' size here is a pip of a bigger face (two pips of a 6's
					// rows fit a diagonal 2 with the 6's next pips just off its face).
					ok = ok && (m > 1.8+0.8/math.Sqrt2 || !sized(s, a))
					continue
				}
				// The nearest place: in an oblique view the diagonal pair fixes the frame
				// only roughly; the layout's fit below decides.
				at, bd := 0, math.Inf(1)
				for p, q := range places {
					if d := math.Hypot(u-q[0], v-q[1]); d < bd {
						at, bd = p, d
					}
				}
				if bd > 0.6 || occ[at] >= 0 || !sized(s, a) {
					ok = false // a spot on the face off the layout's places, or of another size
					break
				}
				occ[at] = k
			}
			if !ok {
				continue
			}
			var h hyp
			var at, pts [][2]float64
			for p, k := range occ {
				if k >= 0 {
					h.idx = append(h.idx, k)
					at = append(at, places[p])
					pts = append(pts, [2]float64{cl[k].x, cl[k].y})
					h.dm += cl[k].d
				}
			}
			h.dm /= float64(len(h.idx))
			if !isLayout(at) {
				continue
			}
			if ft, ok := fitLayout(pts, 6*h.dm); !ok || ft.err > maxErr {
				continue
			}
			sort.Ints(h.idx)
			hs = append(hs, h)
		}
	}
	// within says whether every spot of a is one of b's.
	within := func(a, b []int) bool {
		for _, x := range a {
			if !slices.Contains(b, x) {
				return false
			}
		}
		return true
	}
	var out [][]darkSpot
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].dm > hs[j].dm })
	for i, h := range hs {
		keep := true
		for j, o := range hs {
			// Part of a bigger face, or found before from its other diagonal.
			keep = keep && !(within(h.idx, o.idx) && (len(h.idx) < len(o.idx) || j < i))
		}
		if keep {
			f := make([]darkSpot, len(h.idx))
			for n, k := range h.idx {
				f[n] = cl[k]
			}
			out = append(out, f)
		}
	}
	return out
}

// isLayout says whether places (on the grid of a face) are exactly those of a layout.
func isLayout(at [][2]float64) bool {
	for _, l := range layouts(len(at)) {
		same := true
		for _, p := range l {
			same = same && slices.Contains(at, p)
		}
		if same {
			return true
		}
	}
	return false
}

// shareSpot says whether two sets of spots have one in common.
func shareSpot(a, b []darkSpot) bool {
	for _, s := range a {
		if slices.Contains(b, s) {
			return true
		}
	}
	return false
}
