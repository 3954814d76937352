package dice

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// maxCands is the most detector peaks read further (pipeline.MAX_CANDS).
const maxCands = 24

// A candidate at least closerFrom sure but under the peak threshold is looked at closer: the
// detector run again on a zoomSide square round it at zoom times the letterbox's scale
// (pipeline.CLOSER_FROM, ZOOM, ZOOM_SIDE). Small dice the detector half sees at its 320 px it
// sees whole there; weaker candidates are mostly specks and parts of dice.
const (
	closerFrom = 0.3
	zoom       = 2.0
	zoomSide   = 128
)

// A frame where no die is found is looked at again farther away: the whole frame in the middle
// farBy of the detector's input (pipeline.FAR). A die close up, half the frame or more, is
// bigger than any the detector learnt (at most 140 of its 320 px, 0.44 of the frame), and it
// finds none, or only its pips. tai-studio's close-ups (0.43-0.81 of the frame, never trained
// on) are found there: the built-in networks read 2 of its 18 photos before, 15 with. Only peaks of at least farMinSide of the frame's
// longer side count: smaller dice are the first look's, and those the far look found in its
// stead were mostly parts of dice cut by the frame's edge, misread (6 more of matteop65's 11,390
// cut photos).
const (
	farBy      = 0.5
	farMinSide = 0.3
)

// cand is one detector peak: how sure, the die's centre and side, in frame pixels.
type cand struct {
	peak, x, y, side float64
}

// letterbox shrinks (or grows) a BGR frame so its longer side is cfg.DetSide, at the top left
// of a DetSide square, grey (cfg.Pad) to the right and below (common.letterbox). It returns
// the square and the scale.
func letterbox(frame gocv.Mat, cfg config) (gocv.Mat, float64) {
	h, w := frame.Rows(), frame.Cols()
	side := cfg.DetSide
	s := detScale(frame, cfg)
	nw := max(1, int(math.RoundToEven(float64(w)*s)))
	nh := max(1, int(math.RoundToEven(float64(h)*s)))
	interp := gocv.InterpolationLinear
	if s < 1 {
		interp = gocv.InterpolationArea
	}
	r := gocv.NewMat()
	defer r.Close()
	gocv.Resize(frame, &r, image.Pt(nw, nh), 0, 0, interp)
	out := gocv.NewMat()
	p := uint8(cfg.Pad)
	gocv.CopyMakeBorder(r, &out, 0, side-nh, 0, side-nw, gocv.BorderConstant, color.RGBA{p, p, p, 0})
	return out, s
}

// detScale is the letterbox's scale for a frame: its longer side to cfg.DetSide.
func detScale(frame gocv.Mat, cfg config) float64 {
	return float64(cfg.DetSide) / float64(max(frame.Rows(), frame.Cols()))
}

// detBlob turns a BGR uint8 square into the detector's 1 x 3 x side x side input: values/255
// in NCHW (common.det_input).
func detBlob(img gocv.Mat) (gocv.Mat, error) {
	if !img.IsContinuous() || img.Type() != gocv.MatTypeCV8UC3 {
		return gocv.Mat{}, errors.New("detector input is not a continuous 8-bit BGR image")
	}
	pix, err := img.DataPtrUint8()
	if err != nil {
		return gocv.Mat{}, err
	}
	h, w := img.Rows(), img.Cols()
	blob := gocv.NewMatWithSizes([]int{1, 3, h, w}, gocv.MatTypeCV32F)
	dst, err := blob.DataPtrFloat32()
	if err != nil {
		blob.Close()
		return gocv.Mat{}, err
	}
	n := h * w
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			dst[c*n+i] = float32(pix[3*i+c]) / 255
		}
	}
	return blob, nil
}

// candidates runs the detector on a BGR frame and returns its peaks, surest first
// (pipeline.candidates).
func (m *model) candidates(frame gocv.Mat) ([]cand, error) {
	lb, s := letterbox(frame, m.cfg)
	defer lb.Close()
	c, err := m.detect(m.det, lb, s)
	if err != nil {
		return nil, fmt.Errorf("detector: %w", err)
	}
	return surest(c), nil
}

// detect runs a detector network on a BGR square and returns its peaks (peaks), in the pixels
// of what was scaled by s to the square.
func (m *model) detect(net gocv.Net, sq gocv.Mat, s float64) ([]cand, error) {
	blob, err := detBlob(sq)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	defer blob.Close()
	net.SetInput(blob, "")
	out := net.Forward("")
	defer out.Close()
	g := sq.Rows() / m.cfg.Stride
	if sz := out.Size(); len(sz) != 4 || sz[0] != 1 || sz[1] != 4 || sz[2] != g || sz[3] != g {
		return nil, fmt.Errorf("output is %v, want [1 4 %d %d]", sz, g, g)
	}
	o, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	return peaks(o, g, float64(m.cfg.Stride), s, m.cfg.MinPeak), nil
}

// surest sorts candidates surest first (ties keep their order) and keeps at most maxCands.
func surest(c []cand) []cand {
	sort.SliceStable(c, func(i, j int) bool { return c[i].peak > c[j].peak })
	if len(c) > maxCands {
		c = c[:maxCands]
	}
	return c
}

// zoomSquare cuts the side x side detector input round (cx, cy) at scale z from a BGR frame
// (common.zoom_square): a square of side/z frame pixels, rounded to whole pixels, from (x0, y0),
// the letterbox's grey past the frame's edge, resized to side. It returns the square and its
// scale; the caller closes the square.
func zoomSquare(frame gocv.Mat, cx, cy, z float64, side int, cfg config) (sq gocv.Mat, s float64, x0, y0 int) {
	n := max(4, int(math.RoundToEven(float64(side)/z)))
	x0 = int(math.RoundToEven(cx - float64(n)/2))
	y0 = int(math.RoundToEven(cy - float64(n)/2))
	p := float64(cfg.Pad)
	full := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(p, p, p, 0), n, n, gocv.MatTypeCV8UC3)
	in := image.Rect(x0, y0, x0+n, y0+n).Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
	if !in.Empty() {
		src := frame.Region(in)
		dst := full.Region(in.Sub(image.Pt(x0, y0)))
		src.CopyTo(&dst)
		src.Close()
		dst.Close()
	}
	if n == side {
		return full, 1, x0, y0
	}
	defer full.Close()
	interp := gocv.InterpolationLinear
	if n > side {
		interp = gocv.InterpolationArea
	}
	sq = gocv.NewMat()
	gocv.Resize(full, &sq, image.Pt(side, side), 0, 0, interp)
	return sq, float64(side) / float64(n), x0, y0
}

// closer is the detector's surest peak on the die of a weak candidate c, seen closer
// (pipeline.closer): the zoom network run on a zoomSquare round it. The peak must frame the same
// die: its centre within half a side of c's, its side 0.6-1.6 times c's. ok is false when there
// is none.
func (m *model) closer(frame gocv.Mat, c cand) (k cand, ok bool, err error) {
	z := zoom * detScale(frame, m.cfg)
	sq, s, x0, y0 := zoomSquare(frame, c.x, c.y, z, zoomSide, m.cfg)
	defer sq.Close()
	found, err := m.detect(m.zoom, sq, s)
	if err != nil {
		return cand{}, false, fmt.Errorf("closer look: %w", err)
	}
	for _, p := range found {
		p.x += float64(x0)
		p.y += float64(y0)
		r := p.side / c.side
		if math.Hypot(p.x-c.x, p.y-c.y) < 0.5*math.Max(p.side, c.side) && r >= 0.6 && r <= 1.6 && (!ok || p.peak > k.peak) {
			k, ok = p, true
		}
	}
	return k, ok, nil
}

// farther runs the detector on the whole frame shrunk to farBy of its input, centred, and
// returns its peaks of dice at least farMinSide of the frame, surest first (pipeline.farther).
func (m *model) farther(frame gocv.Mat) ([]cand, error) {
	z := farBy * detScale(frame, m.cfg)
	sq, s, x0, y0 := zoomSquare(frame, float64(frame.Cols())/2, float64(frame.Rows())/2, z, m.cfg.DetSide, m.cfg)
	defer sq.Close()
	found, err := m.detect(m.det, sq, s)
	if err != nil {
		return nil, fmt.Errorf("look farther: %w", err)
	}
	least := farMinSide * float64(max(frame.Rows(), frame.Cols()))
	var c []cand
	for _, k := range found {
		if k.side >= least {
			k.x += float64(x0)
			k.y += float64(y0)
			c = append(c, k)
		}
	}
	return surest(c), nil
}

// withLooks returns the candidates followed by the closer looks at those from closerFrom to
// under th.Peak sure that find their die, and per candidate the index of its look or -1.
func (m *model) withLooks(frame gocv.Mat, c []cand) ([]cand, []int, error) {
	all := slices.Clip(c) // the looks are appended to a copy: c's spare room may be shared
	looks := make([]int, len(c))
	for i, k := range c {
		looks[i] = -1
		if k.peak < closerFrom || k.peak >= m.th.Peak {
			continue
		}
		z, ok, err := m.closer(frame, k)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			all = append(all, z)
			looks[i] = len(all) - 1
		}
	}
	return all, looks, nil
}

// peaks reads the detector's 4 x g x g output o (heat, log side, offset x, offset y): the cells
// that equal the largest heat of their 3x3 neighbourhood and reach minPeak, in row-major order,
// in the pixels of what was scaled by s to the detector's input.
func peaks(o []float32, g int, stride, s, minPeak float64) []cand {
	n := g * g
	heat := o[:n]
	var c []cand
	for y := 0; y < g; y++ {
		for x := 0; x < g; x++ {
			h := heat[y*g+x]
			if float64(h) < minPeak {
				continue
			}
			top := true
			for dy := -1; dy <= 1 && top; dy++ {
				for dx := -1; dx <= 1; dx++ {
					yy, xx := y+dy, x+dx
					if yy < 0 || yy >= g || xx < 0 || xx >= g {
						continue
					}
					if heat[yy*g+xx] > h {
						top = false
						break
					}
				}
			}
			if !top {
				continue
			}
			i := y*g + x
			c = append(c, cand{
				peak: float64(h),
				side: math.Exp(float64(o[n+i])) / s,
				x:    (float64(x) + float64(o[2*n+i])) * stride / s,
				y:    (float64(y) + float64(o[3*n+i])) * stride / s,
			})
		}
	}
	return c
}

// inTray keeps the candidates whose centre lies in tray; an empty tray keeps them all.
func inTray(c []cand, tray image.Rectangle) []cand {
	if tray.Empty() {
		return c
	}
	var out []cand
	for _, k := range c {
		if k.x >= float64(tray.Min.X) && k.x < float64(tray.Max.X) && k.y >= float64(tray.Min.Y) && k.y < float64(tray.Max.Y) {
			out = append(out, k)
		}
	}
	return out
}
