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
// scripts/facenet/export.py: "CSFN", version 2, the architecture (the crop's side, the
// number of convolutions, each one's output channels and whether a 2×2 max pool follows it,
// the dense layer's width), then each array as a length and that many little-endian
// float32s, batch norm already folded into the convolutions. The two were trained the same
// way from different random seeds, so they err on different faces (see netVote).
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

// netSide is the side of the square crop the networks read, in pixels. The weights carry
// the side they were trained on; 48 was tried and not taken (BENCHMARKS-dice.md).
const netSide = 32

// faceNet reads a die's top face from a netSide×netSide BGR crop centred on it, 1.5 die
// sides wide: 3×3 convolutions with ReLUs, some followed by a 2×2 max pool (the shipped
// ones: 16, 16, 32, 32 and 64 channels, a pool after the second, fourth and fifth), a dense
// layer (64) and seven outputs, "no top face here" and the values 1 to 6. It is asked only
// about dice whose pips fit no layout (netRead) and, in a photo it completes, the dice read
// from pips (netConfirm). A Reader runs it through OpenCV (netRunner); cfg and model are
// its convolutions as a Darknet model for that.
type faceNet struct {
	convs      []convLayer
	fc1        denseLayer
	fc2        denseLayer
	cfg, model []byte
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

// parseFaceNet reads the weights written by export.py, checking the architecture against
// netSide and every array's length against the architecture.
func parseFaceNet(b []byte) (*faceNet, error) {
	if len(b) < 8 || string(b[:4]) != "CSFN" {
		return nil, errors.New("face network: not a CSFN weights file")
	}
	if v := binary.LittleEndian.Uint32(b[4:8]); v != 2 {
		return nil, fmt.Errorf("face network: weights version %d, this build reads version 2", v)
	}
	b = b[8:]
	word := func() (int, error) {
		if len(b) < 4 {
			return 0, errors.New("face network: weights file cut short")
		}
		v := int(binary.LittleEndian.Uint32(b))
		b = b[4:]
		return v, nil
	}
	next := func(want int) ([]float32, error) {
		n, err := word()
		if err != nil {
			return nil, err
		}
		if n != want {
			return nil, fmt.Errorf("face network: an array of %d weights where the architecture has %d", n, want)
		}
		if len(b) < 4*n {
			return nil, errors.New("face network: weights file cut short")
		}
		a := make([]float32, n)
		for i := range a {
			a[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		b = b[4*n:]
		return a, nil
	}
	side, err := word()
	if err != nil {
		return nil, err
	}
	if side != netSide {
		return nil, fmt.Errorf("face network: trained on %d-pixel crops, this build cuts %d", side, netSide)
	}
	count, err := word()
	if err != nil {
		return nil, err
	}
	if count < 1 || count > 16 {
		return nil, fmt.Errorf("face network: %d convolutions, want 1 to 16", count)
	}
	n := &faceNet{}
	in, grid := 3, side
	for i := 0; i < count; i++ {
		out, err := word()
		if err != nil {
			return nil, err
		}
		pool, err := word()
		if err != nil {
			return nil, err
		}
		if out < 1 || out > 1024 || pool > 1 || pool == 1 && grid < 2 {
			return nil, fmt.Errorf("face network: convolution %d has %d channels and pool %d", i+1, out, pool)
		}
		n.convs = append(n.convs, convLayer{in: in, out: out, pool: pool == 1})
		if pool == 1 {
			grid /= 2
		}
		in = out
	}
	hidden, err := word()
	if err != nil {
		return nil, err
	}
	if hidden < 1 || hidden > 4096 {
		return nil, fmt.Errorf("face network: a dense layer of %d, want 1 to 4096", hidden)
	}
	for i := range n.convs {
		c := &n.convs[i]
		if c.w, err = next(c.out * c.in * 9); err != nil {
			return nil, err
		}
		if c.b, err = next(c.out); err != nil {
			return nil, err
		}
	}
	n.fc1 = denseLayer{in: in * grid * grid, out: hidden}
	n.fc2 = denseLayer{in: hidden, out: 7}
	for _, d := range []*denseLayer{&n.fc1, &n.fc2} {
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
	n.cfg, n.model = darknet(n)
	return n, nil
}

// head turns the convolutions' output (the last one's channels over its grid) into the
// seven outputs' probabilities: the two dense layers and a softmax.
func (n *faceNet) head(feat []float32) [7]float64 {
	h := n.fc1.apply(feat, true)
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
