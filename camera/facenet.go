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
// values 1 to 6. It is asked only about dice whose pips fit no layout (netRead) and, in a
// photo it completes, the dice read from pips (netConfirm). A Reader runs it through
// OpenCV (netRunner); cfg and model are its convolutions as a Darknet model for that.
type faceNet struct {
	convs      [5]convLayer
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
	n.cfg, n.model = darknet(n)
	return n, nil
}

// head turns the convolutions' output (64 channels of 4×4) into the seven outputs'
// probabilities: the two dense layers and a softmax.
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
