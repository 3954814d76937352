package dice

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// faceSquare cuts the cfg.FaceSide square round a die of the given side centred at (cx, cy)
// from a BGR frame (common.face_square): a square of cfg.Crop*side pixels, rounded to whole
// pixels, the frame's edge replicated past it, shrunk (or grown) to FaceSide. The caller
// closes it.
func faceSquare(frame gocv.Mat, cx, cy, side float64, cfg config) gocv.Mat {
	n := max(4, int(math.RoundToEven(cfg.Crop*side)))
	x0 := int(math.RoundToEven(cx - float64(n)/2))
	y0 := int(math.RoundToEven(cy - float64(n)/2))
	h, w := frame.Rows(), frame.Cols()
	in := image.Rect(x0, y0, x0+n, y0+n).Intersect(image.Rect(0, 0, w, h))
	interp := gocv.InterpolationLinear
	if n > cfg.FaceSide {
		interp = gocv.InterpolationArea
	}
	sz := image.Pt(cfg.FaceSide, cfg.FaceSide)
	out := gocv.NewMat()
	if in.Empty() {
		p := float64(cfg.Pad)
		grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(p, p, p, 0), n, n, gocv.MatTypeCV8UC3)
		defer grey.Close()
		gocv.Resize(grey, &out, sz, 0, 0, interp)
		return out
	}
	sub := frame.Region(in)
	defer sub.Close()
	px0, py0 := max(0, -x0), max(0, -y0)
	px1, py1 := max(0, x0+n-w), max(0, y0+n-h)
	if px0 == 0 && py0 == 0 && px1 == 0 && py1 == 0 {
		gocv.Resize(sub, &out, sz, 0, 0, interp)
		return out
	}
	full := gocv.NewMat()
	defer full.Close()
	gocv.CopyMakeBorder(sub, &full, py0, py1, px0, px1, gocv.BorderReplicate, color.RGBA{})
	gocv.Resize(full, &out, sz, 0, 0, interp)
	return out
}

// turns are the quarter turns each square is read at, as np.rot90(sq, k, axes=(1, 2)) for
// k = 0..3: k = 1 turns the square 90° counter-clockwise. -1 is no turn.
var turns = [4]gocv.RotateFlag{-1, gocv.Rotate90CounterClockwise, gocv.Rotate180Clockwise, gocv.Rotate90Clockwise}

// turn returns sq turned k quarter turns counter-clockwise (np.rot90(sq, k)). The caller closes it.
func turn(sq gocv.Mat, k int) gocv.Mat {
	if k%4 == 0 {
		return sq.Clone()
	}
	out := gocv.NewMat()
	gocv.Rotate(sq, &out, turns[k%4])
	return out
}

// faceBlob turns BGR uint8 squares of one side into the face network's B x 3 x side x side
// input (common.face_input): per square, each channel less its mean, over the square's spread
// (population standard deviation of all its values) + 0.02.
func faceBlob(squares []gocv.Mat) (gocv.Mat, error) {
	if len(squares) == 0 {
		return gocv.Mat{}, errors.New("no squares")
	}
	h, w := squares[0].Rows(), squares[0].Cols()
	n := h * w
	blob := gocv.NewMatWithSizes([]int{len(squares), 3, h, w}, gocv.MatTypeCV32F)
	dst, err := blob.DataPtrFloat32()
	if err != nil {
		blob.Close()
		return gocv.Mat{}, err
	}
	for b, sq := range squares {
		if sq.Rows() != h || sq.Cols() != w || sq.Type() != gocv.MatTypeCV8UC3 || !sq.IsContinuous() {
			blob.Close()
			return gocv.Mat{}, fmt.Errorf("square %d is not a continuous %dx%d BGR image", b, w, h)
		}
		pix, err := sq.DataPtrUint8()
		if err != nil {
			blob.Close()
			return gocv.Mat{}, err
		}
		x := dst[b*3*n : (b+1)*3*n]
		for c := 0; c < 3; c++ {
			sum := 0.0
			for i := 0; i < n; i++ {
				v := float32(pix[3*i+c]) / 255
				x[c*n+i] = v
				sum += float64(v)
			}
			mean := float32(sum / float64(n))
			for i := 0; i < n; i++ {
				x[c*n+i] -= mean
			}
		}
		sum := 0.0
		for _, v := range x {
			sum += float64(v)
		}
		mean := sum / float64(len(x))
		ss := 0.0
		for _, v := range x {
			d := float64(v) - mean
			ss += d * d
		}
		den := float32(math.Sqrt(ss/float64(len(x)))) + 0.02
		for i := range x {
			x[i] /= den
		}
	}
	return blob, nil
}

// squareProbs runs the face network on squares, each at four quarter turns in one batch (all
// squares unturned, then all turned once, ...), and returns per square the 7 probabilities
// (0: no die's top face, 1-6: the face) averaged over the turns (pipeline.square_probs).
func (m *model) squareProbs(squares []gocv.Mat) ([][7]float64, error) {
	if len(squares) == 0 {
		return nil, nil
	}
	out, n, err := m.forwardTurns(squares, "")
	if err != nil {
		return nil, err
	}
	defer out.Close()
	if sz := out.Size(); len(sz) != 2 || sz[0] != n || sz[1] != 7 {
		return nil, fmt.Errorf("face output is %v, want [%d 7]", sz, n)
	}
	logits, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("face output: %w", err)
	}
	probs := make([][7]float64, len(squares))
	for i := 0; i < n; i++ {
		var z [7]float64
		for j, v := range logits[7*i : 7*i+7] {
			z[j] = float64(v)
		}
		q, p := softmax(z), &probs[i%len(squares)]
		for j := range q {
			p[j] += q[j] / 4
		}
	}
	return probs, nil
}

// forwardTurns runs the face network up to layer ("" for its output) on squares, each at four
// quarter turns in one batch (all squares unturned, then all turned once, ...); it returns the
// layer's output, which the caller closes, and the batch's size.
func (m *model) forwardTurns(squares []gocv.Mat, layer string) (gocv.Mat, int, error) {
	all := make([]gocv.Mat, 0, 4*len(squares))
	defer func() { closeAll(all) }()
	for k := 0; k < 4; k++ {
		for _, sq := range squares {
			all = append(all, turn(sq, k))
		}
	}
	blob, err := faceBlob(all)
	if err != nil {
		return gocv.Mat{}, 0, fmt.Errorf("face input: %w", err)
	}
	defer blob.Close()
	m.face.SetInput(blob, "")
	return m.face.Forward(layer), len(all), nil
}

// faceBatch is how many squares go through the face network at once (times four turns): the
// network's buffers grow with the batch. With the networks of 21:05 on 2026-12-05, the
// simulated table as the service runs it (`make lean-check`) peaked at 55-57 MB with one square
// a batch, 62 MB with four and 63 MB with all, against a 60 MB budget; BENCHMARKS-dice.md has
// the current figure.
const faceBatch = 1

// faces are what faceProbs read of the candidates.
type faces struct {
	probs [][7]float64 // the reading: the rig's head's where it reads, else the network's
	net   [][7]float64 // the network's own
	sq    []gocv.Mat   // the squares; Close frees them
}

// Close frees the squares.
func (f faces) Close() { closeAll(f.sq) }

// join is f followed by g: the reading of the candidates f read, then those g read.
func (f faces) join(g faces) faces {
	return faces{probs: append(f.probs, g.probs...), net: append(f.net, g.net...), sq: append(f.sq, g.sq...)}
}

// faceProbs reads each candidate's face (pipeline.face_probs), with the rig's head h when not
// nil, and keeps the squares it read them from (the caller closes them with faces.Close).
func (m *model) faceProbs(frame gocv.Mat, cands []cand, h *head) (faces, error) {
	var out faces
	if len(cands) == 0 {
		return out, nil
	}
	sq := make([]gocv.Mat, len(cands))
	for i, c := range cands {
		sq[i] = faceSquare(frame, c.x, c.y, c.side, m.cfg)
	}
	out.sq = sq
	net := m.netHead()
	for i := 0; i < len(sq); i += faceBatch {
		part := sq[i:min(i+faceBatch, len(sq))]
		if h == nil {
			p, err := m.squareProbs(part)
			if err != nil {
				out.Close()
				return faces{}, err
			}
			out.probs = append(out.probs, p...)
			out.net = append(out.net, p...)
			continue
		}
		f, err := m.squareFeatures(part)
		if err != nil {
			out.Close()
			return faces{}, err
		}
		for k, t := range f {
			pn := net.probs(t)
			out.net = append(out.net, pn)
			out.probs = append(out.probs, h.read(t, pn, cands[i+k].side, m.th))
		}
	}
	return out, nil
}

// wideBy is how much wider than its die a surely read die's second square is (decide's wide,
// pipeline.WIDE). Only dice read up to wideMax are read wider (pipeline.WIDE_MAX): a part of a
// face looks like a 1 (a pip), 2 or 3 (pips in a row) or 4 (a square of pips), never a 5 or 6;
// reading those wider too changed no held-out reading and cost half as much again.
const (
	wideBy  = 1.6
	wideMax = 4
)

// wideReader returns decide's wide for the candidates c: the network's reading of candidate
// i's face in a square wideBy times as wide, read once however often asked. The rig's head is
// not used: the wider square is the network's second opinion.
func (m *model) wideReader(frame gocv.Mat, c []cand) func(i int) ([7]float64, error) {
	read := map[int][7]float64{}
	return func(i int) ([7]float64, error) {
		if p, ok := read[i]; ok {
			return p, nil
		}
		sq := faceSquare(frame, c[i].x, c[i].y, c[i].side*wideBy, m.cfg)
		defer sq.Close()
		p, err := m.squareProbs([]gocv.Mat{sq})
		if err != nil {
			return [7]float64{}, fmt.Errorf("read wider: %w", err)
		}
		read[i] = p[0]
		return p[0], nil
	}
}

// squareFeatures runs the face network up to its dense layer on squares, each at four quarter
// turns, and returns [square][turn] -> the features.
func (m *model) squareFeatures(squares []gocv.Mat) ([][4][]float32, error) {
	out, n, err := m.forwardTurns(squares, m.dense.Layer)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	d := m.dense.In
	if sz := out.Size(); len(sz) < 2 || sz[0] != n || out.Total() != n*d {
		return nil, fmt.Errorf("face features are %v, want [%d %d]", sz, n, d)
	}
	v, err := out.DataPtrFloat32()
	if err != nil {
		return nil, fmt.Errorf("face features: %w", err)
	}
	f := make([][4][]float32, len(squares))
	for i := 0; i < n; i++ {
		f[i%len(squares)][i/len(squares)] = append([]float32(nil), v[i*d:(i+1)*d]...)
	}
	return f, nil
}
