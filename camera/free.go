package camera

import (
	"encoding/binary"
	"math"

	"gocv.io/x/gocv"
)

// gridContrast returns the weakest contrast among the layout's pip places and the strongest
// among the 3×3 grid's free places.
func gridContrast(C []float64, P int, ft fit) (occ, free float64) {
	occ = math.Inf(1)
	r := math.Max(1.5, 0.28*ft.f.a)
	for u := -1; u <= 1; u++ {
		for v := -1; v <= 1; v++ {
			x, y := ft.f.at(float64(u), float64(v))
			var s, n float64
			for yy := int(y - r); yy <= int(y+r)+1; yy++ {
				for xx := int(x - r); xx <= int(x+r)+1; xx++ {
					if xx < 0 || yy < 0 || xx >= P || yy >= P || sq(float64(xx)-x)+sq(float64(yy)-y) > r*r {
						continue
					}
					s += C[yy*P+xx]
					n++
				}
			}
			if n > 0 {
				s /= n
			}
			used := false
			for _, p := range ft.layout {
				if p[0] == float64(u) && p[1] == float64(v) {
					used = true
				}
			}
			if used {
				occ = math.Min(occ, s)
			} else {
				free = math.Max(free, s)
			}
		}
	}
	return occ, free
}

// freeContrast is gridContrast for the pips idx fitted as ft at threshold t on the map o.C.
// Where the free places are not clear, a face of three or more pips is read again through a
// grey opening by a disc a quarter of its pips' width across: what survives it is as wide
// as a pip, while a glare streak or a crack, thinner, does not (nor does a streak's end
// taken for a pip). One or two pips say too little of their size, and reading a 1's or 2's
// free places so turned 3s into 2s and lost faces on the shared photos.
func freeContrast(o *openings, ft fit, pips []pip, idx []int, t float64) (occ, free float64) {
	occ, free = gridContrast(o.C, o.P, ft)
	if len(idx) >= 3 && !clearFree(occ, free, t, len(idx)) {
		if rad := 0.25 * pipWidth(pips, idx); rad >= 1 {
			occ, free = gridContrast(o.at(rad), o.P, ft)
		}
	}
	return occ, free
}

// clearFree says whether the free places of a face of n pips are clear: their contrast
// below the threshold t and a share of the pips' (see bestFit).
func clearFree(occ, free, t float64, n int) bool {
	ratio := freeShare
	if n == 6 {
		ratio = sixFreeShare
	}
	return free < t && free <= ratio*occ
}

// openings holds a P×P map and its grey openings by discs, made once per radius.
type openings struct {
	C  []float64
	P  int
	by map[float64][]float64
}

// at returns C opened by a disc of radius rad: the largest, over the discs holding a pixel,
// of the least value in the disc.
func (o *openings) at(rad float64) []float64 {
	if m, ok := o.by[rad]; ok {
		return m
	}
	out := o.C
	if src, err := gocv.NewMatFromBytes(o.P, o.P, gocv.MatTypeCV32F, f32bytes(o.C)); err == nil {
		defer src.Close()
		ri := int(rad)
		k := gocv.Zeros(2*ri+1, 2*ri+1, gocv.MatTypeCV8U)
		defer k.Close()
		for y := -ri; y <= ri; y++ {
			for x := -ri; x <= ri; x++ {
				if float64(x*x+y*y) <= rad*rad {
					k.SetUCharAt(y+ri, x+ri, 1)
				}
			}
		}
		dst := gocv.NewMat()
		defer dst.Close()
		gocv.MorphologyEx(src, &dst, gocv.MorphOpen, k)
		if v, err := dst.DataPtrFloat32(); err == nil && len(v) == o.P*o.P {
			out = make([]float64, len(v))
			for i, x := range v {
				out[i] = float64(x)
			}
		}
	}
	if o.by == nil {
		o.by = map[float64][]float64{}
	}
	o.by[rad] = out
	return out
}

// f32bytes packs v as float32s in native byte order, for a CV_32F Mat.
func f32bytes(v []float64) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.NativeEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
	}
	return b
}
