package camera

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
)

// facenet.bin and facenet2.bin hold the weights of two faceNets, written by
// scripts/facenet/export.py: "CSFN", a version, then each array as a length and that many
// little-endian float32s, batch norm already folded into the convolutions. The two were
// trained the same way from different random seeds, so they err on different faces (see
// netVote).
//
//go:embed facenet.bin
var faceNetWeights []byte

//go:embed facenet2.bin
var faceNetWeights2 []byte

// builtinNets parses the weights the first time a Reader needs them; the networks are never
// changed after, so every Reader shares them (calibration makes one Reader per setting tried).
var builtinNets = sync.OnceValues(func() ([2]*faceNet, error) {
	var nets [2]*faceNet
	for i, b := range [2][]byte{faceNetWeights, faceNetWeights2} {
		n, err := parseFaceNet(b)
		if err != nil {
			return nets, fmt.Errorf("face network %d: %w", i+1, err)
		}
		nets[i] = n
	}
	return nets, nil
})

// netSide is the side of the square crop the network reads, in pixels.
const netSide = 32

// faceNet reads a die's top face from a 32×32 BGR crop centred on it, 1.5 die sides wide:
// five 3×3 convolutions (16, 16, 32, 32 and 64 channels, a 2×2 max pool after the second,
// fourth and fifth), a dense layer of 64 and seven outputs, "no top face here" and the
// values 1 to 6. It is small enough to run in plain Go, and it is asked only about dice
// whose pips fit no layout (netRead) and, in a photo it completes, the dice read from pips
// (netConfirm).
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
// The input is first copied into planes with a border of zeros, so every output pixel sums
// its nine taps without edge tests; output channels are computed four at a time (every
// layer has a multiple of four), so each input value loaded serves four sums, and each sum
// is stored once per input channel rather than once per tap.
func (c convLayer) apply(x []float32, side int) []float32 {
	plane, w := side*side, side+2
	pad := make([]float32, c.in*w*w)
	for ic := 0; ic < c.in; ic++ {
		for y := 0; y < side; y++ {
			copy(pad[ic*w*w+(y+1)*w+1:][:side], x[ic*plane+y*side:][:side])
		}
	}
	out := make([]float32, c.out*plane)
	for o := 0; o < c.out; o += 4 {
		d0, d1 := out[o*plane:(o+1)*plane], out[(o+1)*plane:(o+2)*plane]
		d2, d3 := out[(o+2)*plane:(o+3)*plane], out[(o+3)*plane:(o+4)*plane]
		for i := 0; i < plane; i++ {
			d0[i], d1[i], d2[i], d3[i] = c.b[o], c.b[o+1], c.b[o+2], c.b[o+3]
		}
		for ic := 0; ic < c.in; ic++ {
			k0 := (*[9]float32)(c.w[(o*c.in+ic)*9:])
			k1 := (*[9]float32)(c.w[((o+1)*c.in+ic)*9:])
			k2 := (*[9]float32)(c.w[((o+2)*c.in+ic)*9:])
			k3 := (*[9]float32)(c.w[((o+3)*c.in+ic)*9:])
			src := pad[ic*w*w : (ic+1)*w*w]
			for y := 0; y < side; y++ {
				// Three rows of the padded plane, each side+2 long, and the output row.
				r0, r1, r2 := src[y*w:][:w], src[(y+1)*w:][:w], src[(y+2)*w:][:w]
				e0, e1, e2, e3 := d0[y*side:][:side], d1[y*side:][:side], d2[y*side:][:side], d3[y*side:][:side]
				for i := range e0 {
					a0, a1, a2 := r0[i], r0[i+1], r0[i+2]
					b0, b1, b2 := r1[i], r1[i+1], r1[i+2]
					c0, c1, c2 := r2[i], r2[i+1], r2[i+2]
					e0[i] += k0[0]*a0 + k0[1]*a1 + k0[2]*a2 + k0[3]*b0 + k0[4]*b1 + k0[5]*b2 + k0[6]*c0 + k0[7]*c1 + k0[8]*c2
					e1[i] += k1[0]*a0 + k1[1]*a1 + k1[2]*a2 + k1[3]*b0 + k1[4]*b1 + k1[5]*b2 + k1[6]*c0 + k1[7]*c1 + k1[8]*c2
					e2[i] += k2[0]*a0 + k2[1]*a1 + k2[2]*a2 + k2[3]*b0 + k2[4]*b1 + k2[5]*b2 + k2[6]*c0 + k2[7]*c1 + k2[8]*c2
					e3[i] += k3[0]*a0 + k3[1]*a1 + k3[2]*a2 + k3[3]*b0 + k3[4]*b1 + k3[5]*b2 + k3[6]*c0 + k3[7]*c1 + k3[8]*c2
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
