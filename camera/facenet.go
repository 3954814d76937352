package camera

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
)

// facenet.bin holds the weights of faceNet, written by scripts/facenet/export.py: "CSFN", a
// version, then each array as a length and that many little-endian float32s, batch norm
// already folded into the convolutions.
//
//go:embed facenet.bin
var faceNetWeights []byte

// builtinNet parses faceNetWeights the first time a Reader needs them; the network is never
// changed after, so every Reader shares it (calibration makes one Reader per setting tried).
var builtinNet = sync.OnceValues(func() (*faceNet, error) { return parseFaceNet(faceNetWeights) })

// netSide is the side of the square crop the network reads, in pixels.
const netSide = 32

// faceNet reads a die's top face from a 32×32 BGR crop centred on it, 1.5 die sides wide:
// five 3×3 convolutions (16, 16, 32, 32 and 64 channels, a 2×2 max pool after the second,
// fourth and fifth), a dense layer of 64 and seven outputs, "no top face here" and the
// values 1 to 6. It is small enough to run in plain Go, and it is asked only about dice
// whose pips fit no layout and, in a photo it completes, the dice read from pips (netRead).
type faceNet struct {
	convs [5]convLayer
	fc1   denseLayer
	fc2   denseLayer
}

type convLayer struct {
	in, out int
	w       []float32 // out × in × 3 × 3
	b       []float32
	pool    bool // a 2×2 max pool after the ReLU
}

type denseLayer struct {
	in, out int
	w       []float32 // out × in
	b       []float32
}

// parseFaceNet reads the weights written by export.py, checking every array's length
// against the architecture.
func parseFaceNet(b []byte) (*faceNet, error) {
	if len(b) < 8 || string(b[:4]) != "CSFN" {
		return nil, errors.New("face network: not a CSFN weights file")
	}
	if v := binary.LittleEndian.Uint32(b[4:8]); v != 1 {
		return nil, fmt.Errorf("face network: weights version %d, this build reads version 1", v)
	}
	b = b[8:]
	next := func(want int) ([]float32, error) {
		if len(b) < 4 {
			return nil, errors.New("face network: weights file cut short")
		}
		n := int(binary.LittleEndian.Uint32(b))
		if n != want {
			return nil, fmt.Errorf("face network: an array of %d weights where the architecture has %d", n, want)
		}
		if len(b) < 4+4*n {
			return nil, errors.New("face network: weights file cut short")
		}
		a := make([]float32, n)
		for i := range a {
			a[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4+4*i:]))
		}
		b = b[4+4*n:]
		return a, nil
	}
	n := &faceNet{}
	chans := [6]int{3, 16, 16, 32, 32, 64}
	for i := range n.convs {
		c := convLayer{in: chans[i], out: chans[i+1], pool: i != 0 && i != 2}
		var err error
		if c.w, err = next(c.out * c.in * 9); err != nil {
			return nil, err
		}
		if c.b, err = next(c.out); err != nil {
			return nil, err
		}
		n.convs[i] = c
	}
	for i, d := range []*denseLayer{&n.fc1, &n.fc2} {
		d.in, d.out = [2]int{64 * 4 * 4, 64}[i], [2]int{64, 7}[i]
		var err error
		if d.w, err = next(d.out * d.in); err != nil {
			return nil, err
		}
		if d.b, err = next(d.out); err != nil {
			return nil, err
		}
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("face network: %d bytes left over after the last array", len(b))
	}
	return n, nil
}

// probs returns the seven outputs' probabilities for one normalised crop (channels × rows ×
// columns, see netInput).
func (n *faceNet) probs(x []float32) [7]float64 {
	side := netSide
	for _, c := range n.convs {
		x = c.apply(x, side)
		if c.pool {
			x = maxPool(x, c.out, side)
			side /= 2
		}
	}
	h := n.fc1.apply(x, true)
	o := n.fc2.apply(h, false)
	var p [7]float64
	m := math.Inf(-1)
	for _, v := range o {
		m = math.Max(m, float64(v))
	}
	sum := 0.0
	for i, v := range o {
		p[i] = math.Exp(float64(v) - m)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// apply is a 3×3 convolution with zero padding followed by a ReLU, on side×side planes.
// Output channels are computed four at a time (every layer has a multiple of four), so each
// input value loaded serves four sums.
func (c convLayer) apply(x []float32, side int) []float32 {
	plane := side * side
	out := make([]float32, c.out*plane)
	for o := 0; o < c.out; o += 4 {
		d0, d1 := out[o*plane:(o+1)*plane], out[(o+1)*plane:(o+2)*plane]
		d2, d3 := out[(o+2)*plane:(o+3)*plane], out[(o+3)*plane:(o+4)*plane]
		for i := 0; i < plane; i++ {
			d0[i], d1[i], d2[i], d3[i] = c.b[o], c.b[o+1], c.b[o+2], c.b[o+3]
		}
		for ic := 0; ic < c.in; ic++ {
			src := x[ic*plane : (ic+1)*plane]
			k0 := c.w[(o*c.in+ic)*9:]
			k1 := c.w[((o+1)*c.in+ic)*9:]
			k2 := c.w[((o+2)*c.in+ic)*9:]
			k3 := c.w[((o+3)*c.in+ic)*9:]
			for ky := 0; ky < 3; ky++ {
				y0, y1 := max(0, 1-ky), min(side, side+1-ky)
				for kx := 0; kx < 3; kx++ {
					j := ky*3 + kx
					w0, w1, w2, w3 := k0[j], k1[j], k2[j], k3[j]
					x0, x1 := max(0, 1-kx), min(side, side+1-kx)
					for y := y0; y < y1; y++ {
						r := y*side + x0
						n := x1 - x0
						s := src[(y+ky-1)*side+x0+kx-1:]
						s = s[:n] // one bounds check for the row, not one per pixel
						e0, e1, e2, e3 := d0[r:r+n], d1[r:r+n], d2[r:r+n], d3[r:r+n]
						for i, v := range s {
							e0[i] += w0 * v
							e1[i] += w1 * v
							e2[i] += w2 * v
							e3[i] += w3 * v
						}
					}
				}
			}
		}
	}
	for i, v := range out {
		if v < 0 {
			out[i] = 0
		}
	}
	return out
}

// maxPool halves each of ch side×side planes by the largest of every 2×2 block.
func maxPool(x []float32, ch, side int) []float32 {
	h := side / 2
	out := make([]float32, ch*h*h)
	for c := 0; c < ch; c++ {
		src, dst := x[c*side*side:], out[c*h*h:]
		for y := 0; y < h; y++ {
			for xx := 0; xx < h; xx++ {
				i := 2*y*side + 2*xx
				dst[y*h+xx] = max(src[i], src[i+1], src[i+side], src[i+side+1])
			}
		}
	}
	return out
}

func (d denseLayer) apply(x []float32, relu bool) []float32 {
	out := make([]float32, d.out)
	for o := range out {
		s := d.b[o]
		for i, w := range d.w[o*d.in : (o+1)*d.in] {
			s += w * x[i]
		}
		if relu && s < 0 {
			s = 0
		}
		out[o] = s
	}
	return out
}
