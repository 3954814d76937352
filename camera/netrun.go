package camera

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"gocv.io/x/gocv"
)

// netIdle is how many idle OpenCV networks a netRunner keeps: one per goroutine reading
// through the same Reader at once; more are made when needed and closed after use.
const netIdle = 4

// netRunner runs one faceNet for a Reader. The convolutions, nearly all of a pass's work,
// run in OpenCV's dnn module, which vectorises them (AVX on a PC, NEON on the Pi): a pass
// takes about 0.3 ms there against 2.3 ms in plain Go loops. The rest (faceNet.head) is
// small enough for Go. A gocv.Net holds C memory and is not safe for concurrent use, so the
// runner keeps its idle ones until Reader.Close.
type netRunner struct {
	w    *faceNet
	idle chan gocv.Net
}

func newNetRunner(w *faceNet) *netRunner {
	return &netRunner{w: w, idle: make(chan gocv.Net, netIdle)}
}

// get returns an idle network, or loads a new one.
func (n *netRunner) get() gocv.Net {
	select {
	case net := <-n.idle:
		return net
	default:
	}
	net, err := gocv.ReadNetBytes("darknet", n.w.model, n.w.cfg)
	if err != nil {
		// The weights are built into the program and checked by its tests: a broken build.
		panic(fmt.Sprintf("camera: OpenCV's dnn does not load the built-in face network: %v", err))
	}
	return net
}

// put keeps net for the next pass, or closes it when enough are idle.
func (n *netRunner) put(net gocv.Net) {
	select {
	case n.idle <- net:
	default:
		net.Close()
	}
}

// close closes the idle networks.
func (n *netRunner) close() {
	for {
		select {
		case net := <-n.idle:
			net.Close()
		default:
			return
		}
	}
}

// probs returns the seven outputs' probabilities for one normalised crop (channels × rows ×
// columns, see netInput).
func (n *netRunner) probs(x []float32) [7]float64 {
	if len(x) != 3*netSide*netSide {
		panic(fmt.Sprintf("camera: a face network's input of %d values, want %d", len(x), 3*netSide*netSide))
	}
	net := n.get()
	defer n.put(net)
	blob, err := gocv.NewMatWithSizesFromBytes([]int{1, 3, netSide, netSide}, gocv.MatTypeCV32F,
		unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x)))
	if err != nil {
		panic(fmt.Sprintf("camera: a face network's input blob: %v", err))
	}
	defer blob.Close()
	net.SetInput(blob, "")
	out := net.Forward("")
	defer out.Close()
	feat, err := out.DataPtrFloat32()
	if err != nil || len(feat) != n.w.fc1.in {
		panic(fmt.Sprintf("camera: the face network's convolutions gave %d values (%v), want %d", len(feat), err, n.w.fc1.in))
	}
	return n.w.head(feat)
}

// darknet writes a faceNet's convolutions as a Darknet model, the simplest format OpenCV's
// dnn reads from memory: a text description of the layers and the weights, after a
// version header, as each layer's biases then its kernels (output × input × 3 × 3, the
// order export.py writes them in).
func darknet(n *faceNet) (cfg, model []byte) {
	var c, w bytes.Buffer
	fmt.Fprintf(&c, "[net]\nwidth=%d\nheight=%d\nchannels=3\n", netSide, netSide)
	// Version 0.2.0, then the count of images seen in training as 64 bits.
	_ = binary.Write(&w, binary.LittleEndian, [3]int32{0, 2, 0})
	_ = binary.Write(&w, binary.LittleEndian, uint64(0))
	for _, l := range n.convs {
		fmt.Fprintf(&c, "\n[convolutional]\nfilters=%d\nsize=3\nstride=1\npad=1\nactivation=relu\n", l.out)
		_ = binary.Write(&w, binary.LittleEndian, l.b)
		_ = binary.Write(&w, binary.LittleEndian, l.w)
		if l.pool {
			c.WriteString("\n[maxpool]\nsize=2\nstride=2\npadding=0\n")
		}
	}
	return c.Bytes(), w.Bytes()
}
