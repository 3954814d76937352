package dice

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"
)

// builtIn holds the networks trained by scripts/dicenet/train.py and the settings they were
// trained with. Read-only.
//
//go:embed model/detector.onnx model/face.onnx model/model.json
var builtIn embed.FS

// The files of a model folder (Opts.Model) and of the built-in model.
const (
	detFile  = "detector.onnx"
	faceFile = "face.onnx"
	cfgFile  = "model.json"
)

// thresholds are the decision thresholds tuned on held-out rigs (pipeline.decide's th).
type thresholds struct {
	// Peak: a detector peak at least this sure may be a die.
	Peak float64 `json:"peak"`
	// Face: a die's face is read only if its value's probability reaches this.
	Face float64 `json:"face"`
	// Doubt: a non-die peak whose face value the network reads with at least this makes the
	// frame unreadable (above 1: never).
	Doubt float64 `json:"doubt"`
	// Look: a closer look at a weak candidate is a die only if its value's probability reaches
	// this too (below Face: Face alone; above 1: never).
	Look float64 `json:"look"`
	// Lean: a peak at least Peak sure whose face the network does not call bare but whose
	// likeliest value stays under this is a spot of the scene, not a die (0: none is).
	Lean float64 `json:"lean"`
	// MinPeak is config.MinPeak: a doubt needs a peak at least this sure.
	MinPeak float64 `json:"-"`
}

// afterSpot is th for a frame where a spot as strong as a die was passed over (a spot of the
// rig's background, or one whose face leans to no value): its faces must be as sure as a closer
// look's, as the spot may have hidden a misread from the thresholds' tuning.
func (th thresholds) afterSpot() thresholds {
	th.Face = max(th.Face, th.Look)
	return th
}

// config is model.json: the sizes the networks were trained with (scripts/dicenet/common.py).
type config struct {
	DetSide    int        `json:"det_side"`  // the detector's square input side
	Stride     int        `json:"stride"`    // its output grid step
	FaceSide   int        `json:"face_side"` // the face network's square side
	Crop       float64    `json:"crop"`      // a face square's side per die side
	Pad        int        `json:"pad"`       // the letterbox's grey
	MinPeak    float64    `json:"min_peak"`  // detector peaks below this are no candidates
	Thresholds thresholds `json:"thresholds"`
}

// model is the two networks and their settings.
type model struct {
	det, face gocv.Net
	// zoom is the detector again, for closer looks: its zoomSide input, unlike det's, would make
	// OpenCV set the network up anew at each change of size.
	zoom gocv.Net
	cfg  config
	th   thresholds
	// dense is the face network's last layer, for adapting to a rig (adapt.go); its Layer is
	// "" when the network has none OpenCV names as expected.
	dense dense
}

// loadModel loads the networks from dir, or the built-in ones when dir is "".
func loadModel(dir string) (*model, error) {
	read := func(name string) ([]byte, error) {
		if dir == "" {
			b, err := builtIn.ReadFile("model/" + name)
			if err != nil {
				return nil, fmt.Errorf("built-in %s: %w", name, err)
			}
			return b, nil
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("model folder: %w", err)
		}
		return b, nil
	}
	where := dir
	if where == "" {
		where = "built-in model"
	}
	b, err := read(cfgFile)
	if err != nil {
		return nil, err
	}
	cfg, err := parseConfig(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", where, cfgFile, err)
	}
	detB, err := read(detFile)
	if err != nil {
		return nil, err
	}
	faceB, err := read(faceFile)
	if err != nil {
		return nil, err
	}
	det, err := readNet(detB)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", where, detFile, err)
	}
	zoom, err := readNet(detB)
	if err != nil {
		det.Close()
		return nil, fmt.Errorf("%s: %s: %w", where, detFile, err)
	}
	face, err := readNet(faceB)
	if err != nil {
		det.Close()
		zoom.Close()
		return nil, fmt.Errorf("%s: %s: %w", where, faceFile, err)
	}
	th := cfg.Thresholds
	th.MinPeak = cfg.MinPeak
	return &model{det: det, zoom: zoom, face: face, cfg: cfg, th: th, dense: findDense(faceB, face)}, nil
}

// findDense reads the face network's last dense layer and checks that OpenCV has the layer
// giving its features (by name, among the layers up to the outputs: asking OpenCV for a layer
// it lacks aborts the program). Without one the reader works but cannot adapt to a rig.
func findDense(b []byte, net gocv.Net) dense {
	d, err := lastDense(b)
	if err != nil || d.Out != 7 {
		return dense{}
	}
	last := 0
	for _, id := range net.GetUnconnectedOutLayers() {
		last = max(last, id)
	}
	for id := 1; id <= last; id++ {
		l := net.GetLayer(id)
		name := l.GetName()
		l.Close()
		if name == d.Layer {
			return d
		}
	}
	return dense{}
}

// readNet loads an ONNX network to run on the CPU.
func readNet(b []byte) (gocv.Net, error) {
	if err := checkONNX(b); err != nil {
		return gocv.Net{}, err
	}
	n, err := gocv.ReadNetFromONNXBytes(b)
	if err != nil {
		return gocv.Net{}, fmt.Errorf("read ONNX: %w", err)
	}
	if n.Empty() {
		n.Close()
		return gocv.Net{}, errors.New("OpenCV could not read the network")
	}
	if err := n.SetPreferableBackend(gocv.NetBackendDefault); err != nil {
		n.Close()
		return gocv.Net{}, fmt.Errorf("set backend: %w", err)
	}
	if err := n.SetPreferableTarget(gocv.NetTargetCPU); err != nil {
		n.Close()
		return gocv.Net{}, fmt.Errorf("set target: %w", err)
	}
	return n, nil
}

// parseConfig reads model.json and checks every setting the reader uses.
func parseConfig(b []byte) (config, error) {
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		return config{}, fmt.Errorf("parse: %w", err)
	}
	checks := []struct {
		name   string
		v      float64
		lo, hi float64
	}{
		{"det_side", float64(c.DetSide), 32, 4096},
		{"stride", float64(c.Stride), 1, 64},
		{"face_side", float64(c.FaceSide), 8, 1024},
		{"crop", c.Crop, 0.5, 4},
		{"pad", float64(c.Pad), 0, 255},
		{"min_peak", c.MinPeak, 0.001, 1},
		{"thresholds.peak", c.Thresholds.Peak, 0, 1},
		{"thresholds.face", c.Thresholds.Face, 0, 1},
		{"thresholds.doubt", c.Thresholds.Doubt, 0, 2},
		{"thresholds.look", c.Thresholds.Look, 0, 2},
	}
	for _, k := range checks {
		if math.IsNaN(k.v) || k.v < k.lo || k.v > k.hi {
			return config{}, fmt.Errorf("%s = %v is out of range [%v, %v] (missing or damaged?)", k.name, k.v, k.lo, k.hi)
		}
	}
	if c.DetSide%c.Stride != 0 {
		return config{}, fmt.Errorf("det_side = %d is not a multiple of stride = %d", c.DetSide, c.Stride)
	}
	return c, nil
}

// close frees the networks.
func (m *model) close() error {
	return errors.Join(m.det.Close(), m.zoom.Close(), m.face.Close())
}

// checkONNX checks that b is a well-formed protobuf message holding a graph (ModelProto field
// 7), as an ONNX file is: OpenCV aborts the whole program on a file it cannot parse, so a
// truncated or foreign file must be refused before it gets there.
func checkONNX(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty file")
	}
	graph := false
	if err := pbField(b, func(num, wire int, _ uint64, _ []byte) error {
		graph = graph || num == 7 && wire == 2
		return nil
	}); err != nil {
		return fmt.Errorf("not an ONNX file or truncated (%w)", err)
	}
	if !graph {
		return errors.New("not an ONNX file (no graph)")
	}
	return nil
}
