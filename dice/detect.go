package dice

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// maxCands is the most detector peaks read further (pipeline.MAX_CANDS).
const maxCands = 24

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
	s := float64(side) / float64(max(h, w))
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
	blob, err := detBlob(lb)
	if err != nil {
		return nil, fmt.Errorf("detector input: %w", err)
	}
	defer blob.Close()
	m.det.SetInput(blob, "")
	out := m.det.Forward("")
	defer out.Close()
	g := m.cfg.DetSide / m.cfg.Stride
	if sz := out.Size(); len(sz) != 4 || sz[0] != 1 || sz[1] != 4 || sz[2] != g || sz[3] != g {
		return nil, fmt.Errorf("detector output is %v, want [1 4 %d %d]", out.Size(), g, g)
	}
	o, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("detector output: %w", err)
	}
	return peaks(o, g, float64(m.cfg.Stride), s, m.cfg.MinPeak), nil
}

// peaks reads the detector's 4 x g x g output o (heat, log side, offset x, offset y): the cells
// that equal the largest heat of their 3x3 neighbourhood and reach minPeak, in frame pixels
// (scale s), surest first, at most maxCands. Ties keep the row-major order.
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
	sort.SliceStable(c, func(i, j int) bool { return c[i].peak > c[j].peak })
	if len(c) > maxCands {
		c = c[:maxCands]
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
