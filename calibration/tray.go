package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// Tray is the region of the frame the dice land in, seen empty.
type Tray struct {
	Frame   image.Point     `json:"frame"`   // size (w, h) of the frames it was found in
	Outline []image.Point   `json:"outline"` // convex polygon, frame pixels
	Box     image.Rectangle `json:"box"`     // bounding box of Outline
	Lab     [3]float64      `json:"lab"`     // median colour of the empty tray, OpenCV 8-bit Lab
	Spread  float64         `json:"spread"`  // median Lab distance of tray pixels from Lab (texture, noise)
	Share   float64         `json:"share"`   // part of the frame the tray covers, 0-1
	// Found is the box FindTray found, kept when the person calibrating types another Box:
	// View compares the tray it finds later with this one. Empty in profiles made before it.
	Found image.Rectangle `json:"found,omitempty"`
}

// workSide is the longest side of the copy the tray is searched in.
const workSide = 320

// labImage is an 8-bit Lab picture as bytes, for pixel work in Go.
type labImage struct {
	w, h int
	pix  []byte // L, a, b per pixel
}

func (l labImage) at(x, y int) [3]float64 {
	i := 3 * (y*l.w + x)
	return [3]float64{float64(l.pix[i]), float64(l.pix[i+1]), float64(l.pix[i+2])}
}

func toLab(bgr gocv.Mat) (labImage, error) {
	if bgr.Empty() || bgr.Type() != gocv.MatTypeCV8UC3 {
		return labImage{}, fmt.Errorf("want an 8-bit BGR frame, got %v %dx%d", bgr.Type(), bgr.Cols(), bgr.Rows())
	}
	lab := gocv.NewMat()
	defer lab.Close()
	gocv.CvtColor(bgr, &lab, gocv.ColorBGRToLab)
	if !lab.IsContinuous() {
		c := lab.Clone()
		defer c.Close()
		lab = c
	}
	data, err := lab.DataPtrUint8()
	if err != nil {
		return labImage{}, err
	}
	return labImage{w: lab.Cols(), h: lab.Rows(), pix: append([]byte(nil), data...)}, nil
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

// medianLab is the per-channel median of some colours.
func medianLab(cs [][3]float64) [3]float64 {
	var out [3]float64
	if len(cs) == 0 {
		return out
	}
	ch := make([]float64, len(cs))
	for k := 0; k < 3; k++ {
		for i, c := range cs {
			ch[i] = c[k]
		}
		out[k] = median(ch)
	}
	return out
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// FindTray finds the empty tray: the uniform surface around the centre of the
// frame, grown outwards until its colour changes (tray walls, table), as a
// convex outline. A tray that fills the whole view gives the frame's outline.
func FindTray(empty gocv.Mat) (Tray, error) {
	if empty.Empty() || empty.Cols() < 32 || empty.Rows() < 32 {
		return Tray{}, fmt.Errorf("find tray: empty or tiny frame (%dx%d): check the camera", empty.Cols(), empty.Rows())
	}
	w, h := empty.Cols(), empty.Rows()
	scale := math.Min(1, float64(workSide)/float64(max(w, h)))
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(empty, &small, image.Pt(max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))), 0, 0, gocv.InterpolationArea)
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(small, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	plain, err := toLab(small)
	if err != nil {
		return Tray{}, fmt.Errorf("find tray: %w", err)
	}
	smooth, err := toLab(blur)
	if err != nil {
		return Tray{}, fmt.Errorf("find tray: %w", err)
	}
	sw, sh := smooth.w, smooth.h

	// The tray's colour: the median of the central part of the picture, and
	// how far its own pixels stray (felt texture, noise, uneven light).
	c := image.Rect(sw*3/10, sh*3/10, sw*7/10, sh*7/10)
	var centre [][3]float64
	for y := c.Min.Y; y < c.Max.Y; y++ {
		for x := c.Min.X; x < c.Max.X; x++ {
			centre = append(centre, smooth.at(x, y))
		}
	}
	seed := medianLab(centre)
	ds := make([]float64, len(centre))
	for i, p := range centre {
		ds[i] = dist(p, seed)
	}
	sort.Float64s(ds)
	// The surface may shade gradually (uneven light, sloping walls) but ends
	// at an edge: grow it between neighbours of nearly the same colour, never
	// straying far from the centre's colour. The 80th percentile ignores
	// dice and marks left in the tray.
	noise := ds[len(ds)*8/10]
	step := 3 + noise
	far := math.Max(45, 8*noise)

	// Flood the surface from the centre, 4-connected.
	in := make([]bool, sw*sh)
	seen := make([]bool, sw*sh)
	start := -1
	for r := 0; r < min(sw, sh)/2 && start < 0; r++ { // the nearest matching pixel to the centre
		for _, p := range []image.Point{{sw/2 + r, sh / 2}, {sw/2 - r, sh / 2}, {sw / 2, sh/2 + r}, {sw / 2, sh/2 - r}} {
			if dist(smooth.at(p.X, p.Y), seed) <= step {
				start = p.Y*sw + p.X
				break
			}
		}
	}
	if start < 0 {
		return Tray{}, errors.New("find tray: the middle of the picture has no even surface: point the camera at the empty tray, evenly lit")
	}
	stack := []int{start}
	seen[start] = true
	count := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		in[i] = true
		count++
		x, y := i%sw, i/sw
		for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if n[0] < 0 || n[1] < 0 || n[0] >= sw || n[1] >= sh {
				continue
			}
			j := n[1]*sw + n[0]
			if c := smooth.at(n[0], n[1]); !seen[j] && dist(c, smooth.at(x, y)) <= step && dist(c, seed) <= far {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	share := float64(count) / float64(sw*sh)
	if share < 0.05 {
		return Tray{}, fmt.Errorf("find tray: the even surface in the middle covers only %.0f%% of the picture: move the camera so the tray fills most of the view", 100*share)
	}

	// Outline: convex hull of the region's row ends, simplified.
	var ends []image.Point
	for y := 0; y < sh; y++ {
		first, last := -1, -1
		for x := 0; x < sw; x++ {
			if in[y*sw+x] {
				if first < 0 {
					first = x
				}
				last = x
			}
		}
		if first >= 0 {
			ends = append(ends, image.Pt(first, y), image.Pt(last+1, y), image.Pt(first, y+1), image.Pt(last+1, y+1))
		}
	}
	hull := convexHull(ends)
	pv := gocv.NewPointVectorFromPoints(hull)
	approx := gocv.ApproxPolyDP(pv, 0.01*perimeter(hull), true)
	poly := approx.ToPoints()
	approx.Close()
	pv.Close()
	t := Tray{Frame: image.Pt(w, h), Share: share}
	for _, p := range poly {
		q := image.Pt(min(w, int(math.Round(float64(p.X)/scale))), min(h, int(math.Round(float64(p.Y)/scale))))
		t.Outline = append(t.Outline, q)
		if len(t.Outline) == 1 {
			t.Box = image.Rectangle{Min: q, Max: q}
		}
		t.Box = t.Box.Union(image.Rectangle{Min: q, Max: q.Add(image.Pt(1, 1))})
	}
	t.Box = t.Box.Intersect(image.Rect(0, 0, w, h))
	t.Found = t.Box

	// Colour from the unblurred pixels of the region.
	var cols [][3]float64
	for i, ok := range in {
		if ok {
			cols = append(cols, plain.at(i%sw, i/sw))
		}
	}
	t.Lab = medianLab(cols)
	ds = ds[:0]
	for _, c := range cols {
		ds = append(ds, dist(c, t.Lab))
	}
	t.Spread = median(ds)
	if t.Spread > 20 {
		return Tray{}, fmt.Errorf("find tray: the surface is not even (its pixels stray %.0f from its colour): light the tray evenly, or line it with plain felt", t.Spread)
	}
	return t, nil
}

func perimeter(p []image.Point) float64 {
	s := 0.0
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		s += math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
	}
	return s
}

// convexHull is Andrew's monotone chain; it returns the hull counter-clockwise
// in image coordinates.
func convexHull(pts []image.Point) []image.Point {
	p := append([]image.Point(nil), pts...)
	sort.Slice(p, func(i, j int) bool { return p[i].X < p[j].X || (p[i].X == p[j].X && p[i].Y < p[j].Y) })
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b image.Point) int { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	var h []image.Point
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, q := range p {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], q) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, q)
		}
		h = h[:len(h)-1]
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	return h
}

// contains reports whether pt lies inside the convex polygon.
func contains(poly []image.Point, pt image.Point) bool {
	if len(poly) < 3 {
		return false
	}
	sign := 0
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		c := (b.X-a.X)*(pt.Y-a.Y) - (b.Y-a.Y)*(pt.X-a.X)
		switch {
		case c > 0 && sign < 0, c < 0 && sign > 0:
			return false
		case c > 0:
			sign = 1
		case c < 0:
			sign = -1
		}
	}
	return true
}
