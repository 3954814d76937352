package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/cantstop/cantstop/camera"
	"gocv.io/x/gocv"
)

// DieLook is what one die of the calibration roll looked like.
type DieLook struct {
	Value        int
	Box          image.Rectangle
	SidePx       float64    // side of the top face
	PipPx        float64    // pip diameter
	FaceLab      [3]float64 // face colour
	PipLab       [3]float64 // pip colour
	FaceContrast float64    // face vs tray
	PipContrast  float64    // pips vs face
}

// Measure measures the dice the reader read in a frame of the calibration
// roll: size, pip size, colours and contrasts, per die and overall (medians
// for sizes and colours, the least contrast, since the worst die decides).
// Only dice read with a value and all their pips are measured; a die that
// cannot be measured is left out.
func Measure(frame gocv.Mat, rd camera.Reading, tray Tray) (Dice, []DieLook, error) {
	var looks []DieLook
	var skipped error
	bounds := image.Rect(0, 0, frame.Cols(), frame.Rows())
	for _, d := range rd.Dice {
		if d.Value < 1 || len(d.Pips) != d.Value || d.Box.Intersect(bounds).Empty() {
			continue
		}
		l, err := measureDie(frame, d, tray)
		if err != nil {
			// One die too small or too blurred to measure does not spoil the
			// others; only when none can be measured is the roll useless.
			skipped = fmt.Errorf("measure the die at %v: %w", d.Box, err)
			continue
		}
		looks = append(looks, l)
	}
	if len(looks) == 0 {
		if skipped != nil {
			return Dice{}, nil, skipped
		}
		return Dice{}, nil, errors.New("measure dice: no die was read, so there is nothing to measure")
	}
	var sides, pips []float64
	var faces, pipCols [][3]float64
	out := Dice{Count: len(rd.Dice), FaceContrast: math.Inf(1), PipContrast: math.Inf(1)}
	for _, l := range looks {
		sides, pips = append(sides, l.SidePx), append(pips, l.PipPx)
		faces, pipCols = append(faces, l.FaceLab), append(pipCols, l.PipLab)
		out.FaceContrast = math.Min(out.FaceContrast, l.FaceContrast)
		out.PipContrast = math.Min(out.PipContrast, l.PipContrast)
		out.Values = append(out.Values, l.Value)
	}
	out.SidePx, out.PipPx = round1(median(sides)), round1(median(pips))
	out.FaceLab, out.PipLab = roundLab(medianLab(faces)), roundLab(medianLab(pipCols))
	out.FaceContrast, out.PipContrast = round1(out.FaceContrast), round1(out.PipContrast)
	return out, looks, nil
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func roundLab(c [3]float64) [3]float64 {
	return [3]float64{math.Round(c[0]), math.Round(c[1]), math.Round(c[2])}
}

// measureDie works on the die's box, grown a little, in Lab.
func measureDie(frame gocv.Mat, d camera.Die, tray Tray) (DieLook, error) {
	bounds := image.Rect(0, 0, frame.Cols(), frame.Rows())
	g := max(2, d.Box.Dx()/8)
	r := d.Box.Inset(-g).Intersect(bounds)
	roi := frame.Region(r)
	lab, err := toLab(roi)
	roi.Close()
	if err != nil {
		return DieLook{}, err
	}
	l := DieLook{Value: d.Value, Box: d.Box}

	// The die: pixels unlike the tray, connected to the pips.
	thr := math.Max(12, 3*tray.Spread+6)
	die := make([]bool, lab.w*lab.h)
	for y := 0; y < lab.h; y++ {
		for x := 0; x < lab.w; x++ {
			die[y*lab.w+x] = dist(lab.at(x, y), tray.Lab) > thr
		}
	}
	c := image.Pt(d.Box.Dx()/2+d.Box.Min.X-r.Min.X, d.Box.Dy()/2+d.Box.Min.Y-r.Min.Y)
	region := component(die, lab.w, lab.h, c)
	var pts []image.Point
	for i, ok := range region {
		if ok {
			pts = append(pts, image.Pt(i%lab.w, i/lab.w))
		}
	}
	side := float64(min(d.Box.Dx(), d.Box.Dy())) / 1.2 // a face turned 45° fills 1.41 of its box
	if len(pts) >= 16 {
		h := convexHull(edgePoints(pts))
		if s := math.Sqrt(polyArea(h)); s > 0.5*side && s < 1.5*float64(max(d.Box.Dx(), d.Box.Dy())) {
			side = s
		}
	}
	l.SidePx = side

	// Pip colour near each pip centre; face colour well away from all pips.
	pipR := math.Max(1, side*0.05)
	clear := side * 0.16
	local := make([]image.Point, len(d.Pips))
	for i, p := range d.Pips {
		local[i] = p.Sub(r.Min)
	}
	var pipCols, faceCols [][3]float64
	for _, p := range pts {
		near := math.Inf(1)
		for _, q := range local {
			near = math.Min(near, math.Hypot(float64(p.X-q.X), float64(p.Y-q.Y)))
		}
		switch {
		case near <= pipR:
			pipCols = append(pipCols, lab.at(p.X, p.Y))
		case near >= clear:
			faceCols = append(faceCols, lab.at(p.X, p.Y))
		}
	}
	for _, q := range local { // pips the same colour as the tray are not in the die's region
		for y := q.Y - int(pipR); y <= q.Y+int(pipR); y++ {
			for x := q.X - int(pipR); x <= q.X+int(pipR); x++ {
				if x >= 0 && y >= 0 && x < lab.w && y < lab.h && !region[y*lab.w+x] && math.Hypot(float64(x-q.X), float64(y-q.Y)) <= pipR {
					pipCols = append(pipCols, lab.at(x, y))
				}
			}
		}
	}
	if len(pipCols) == 0 || len(faceCols) == 0 {
		return l, errors.New("too small to tell its face from its pips")
	}
	l.PipLab, l.FaceLab = medianLab(pipCols), medianLab(faceCols)
	l.FaceContrast = dist(l.FaceLab, tray.Lab)
	l.PipContrast = dist(l.PipLab, l.FaceLab)

	// Pip size: pixels nearer the pip colour than the face colour, within
	// reach of a pip centre, as discs.
	reach := side * 0.14
	var diam []float64
	for _, q := range local {
		n := 0
		for y := q.Y - int(reach); y <= q.Y+int(reach); y++ {
			for x := q.X - int(reach); x <= q.X+int(reach); x++ {
				if x < 0 || y < 0 || x >= lab.w || y >= lab.h || math.Hypot(float64(x-q.X), float64(y-q.Y)) > reach {
					continue
				}
				px := lab.at(x, y)
				if dist(px, l.PipLab) < dist(px, l.FaceLab) {
					n++
				}
			}
		}
		diam = append(diam, 2*math.Sqrt(float64(n)/math.Pi))
	}
	l.PipPx = median(diam)
	return l, nil
}

// component returns the 4-connected region of mask nearest to c.
func component(mask []bool, w, h int, c image.Point) []bool {
	start, best := -1, math.Inf(1)
	for i, ok := range mask {
		if ok {
			if d := math.Hypot(float64(i%w-c.X), float64(i/w-c.Y)); d < best {
				start, best = i, d
			}
		}
	}
	out := make([]bool, len(mask))
	if start < 0 {
		return out
	}
	stack := []int{start}
	out[start] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%w, i/w
		for _, n := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if n[0] < 0 || n[1] < 0 || n[0] >= w || n[1] >= h {
				continue
			}
			j := n[1]*w + n[0]
			if mask[j] && !out[j] {
				out[j] = true
				stack = append(stack, j)
			}
		}
	}
	return out
}

// edgePoints keeps the corners of each pixel at the ends of each row, which
// is all a convex hull needs.
func edgePoints(pts []image.Point) []image.Point {
	ends := map[int][2]int{}
	for _, p := range pts {
		e, ok := ends[p.Y]
		if !ok {
			e = [2]int{p.X, p.X}
		}
		ends[p.Y] = [2]int{min(e[0], p.X), max(e[1], p.X)}
	}
	var out []image.Point
	for y, e := range ends {
		out = append(out, image.Pt(e[0], y), image.Pt(e[1]+1, y), image.Pt(e[0], y+1), image.Pt(e[1]+1, y+1))
	}
	return out
}

func polyArea(p []image.Point) float64 {
	s := 0
	for i := range p {
		a, b := p[i], p[(i+1)%len(p)]
		s += a.X*b.Y - b.X*a.Y
	}
	return math.Abs(float64(s)) / 2
}
