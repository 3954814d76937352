package dice

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// parityFile is written by scripts/dicenet/parity.py from the PyTorch weights the built-in
// ONNX networks were exported from.
const parityFile = "testdata/parity.json"

type parityFixture struct {
	Model  string            `json:"model"` // "" = the built-in networks
	SHA256 map[string]string `json:"sha256"`
	Photos []struct {
		File  string       `json:"file"`
		Cands [][4]float64 `json:"cands"` // peak, x, y, side
		Probs [][7]float64 `json:"probs"`
		Wide  [][7]float64 `json:"wide"` // each candidate read wideBy times as wide
		// Looks are the closer looks at the weak candidates: index, then the look (nil: none).
		Looks [][2]json.RawMessage `json:"looks"`
	} `json:"photos"`
	Squares []struct {
		Name  string     `json:"name"`
		BGR   string     `json:"bgr"`
		Probs [7]float64 `json:"probs"`
	} `json:"squares"`
	FaceSquares []struct {
		File string  `json:"file"`
		X    float64 `json:"x"`
		Y    float64 `json:"y"`
		Side float64 `json:"side"`
		BGR  string  `json:"bgr"`
	} `json:"face_squares"`
	ZoomSquares []struct {
		File   string  `json:"file"`
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		Z      float64 `json:"z"`
		Scale  float64 `json:"scale"`
		X0     int     `json:"x0"`
		Y0     int     `json:"y0"`
		SHA256 string  `json:"sha256"`
	} `json:"zoom_squares"`
	Rot90 struct {
		Rows, Cols int
		BGR        string `json:"bgr"`
		Turned     []struct {
			K, Rows, Cols int
			BGR           string `json:"bgr"`
		} `json:"turned"`
	} `json:"rot90"`
}

func readParity(t *testing.T) parityFixture {
	t.Helper()
	b, err := os.ReadFile(parityFile)
	if err != nil {
		t.Fatal(err)
	}
	var fx parityFixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatalf("%s: %v", parityFile, err)
	}
	return fx
}

// parityModel loads the networks the fixture was made from and checks they are the ones.
func parityModel(t *testing.T, fx parityFixture) *model {
	t.Helper()
	for name, want := range fx.SHA256 {
		var b []byte
		var err error
		if fx.Model == "" {
			b, err = builtIn.ReadFile("model/" + name)
		} else {
			b, err = os.ReadFile(filepath.Join(fx.Model, name))
		}
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != want {
			t.Fatalf("%s was made from another %s: run scripts/dicenet/parity.py with the weights of the networks in dice/model", parityFile, name)
		}
	}
	m, err := loadModel(fx.Model)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.close() })
	return m
}

func matFromB64(t *testing.T, s string, rows, cols int, mt gocv.MatType) gocv.Mat {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gocv.NewMatFromBytes(rows, cols, mt, b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestParityCandidates: the detector run by OpenCV finds the peaks PyTorch finds, where it
// finds them, as sure.
func TestParityCandidates(t *testing.T) {
	fx := readParity(t)
	m := parityModel(t, fx)
	for _, p := range fx.Photos {
		t.Run(p.File, func(t *testing.T) {
			frame := readPhoto(t, p.File)
			defer frame.Close()
			got, err := m.candidates(frame)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(p.Cands) {
				t.Fatalf("%d candidates, PyTorch finds %d", len(got), len(p.Cands))
			}
			// Peaks equal to the last bits (a plateau) may come in either order: match each of
			// PyTorch's to one of Go's as sure, at the same place.
			used := make([]bool, len(got))
			for i, w := range p.Cands {
				j := -1
				for k, g := range got {
					if !used[k] && near(g.peak, w[0], 1e-4) && near(g.x, w[1], 0.05) && near(g.y, w[2], 0.05) && near(g.side, w[3], 0.05) {
						j = k
						break
					}
				}
				if j < 0 {
					g := got[i]
					t.Errorf("candidate %d: PyTorch's peak %.6f at (%.3f,%.3f) side %.3f is not in Go's; Go's %d: peak %.6f at (%.3f,%.3f) side %.3f",
						i, w[0], w[1], w[2], w[3], i, g.peak, g.x, g.y, g.side)
					continue
				}
				used[j] = true
			}
		})
	}
}

// TestParityFaceProbs: the face network run by OpenCV on PyTorch's candidates reads what
// PyTorch reads (squares cut, turned and normalised alike), at the die's side and wider.
func TestParityFaceProbs(t *testing.T) {
	fx := readParity(t)
	m := parityModel(t, fx)
	for _, p := range fx.Photos {
		t.Run(p.File, func(t *testing.T) {
			frame := readPhoto(t, p.File)
			defer frame.Close()
			cands := make([]cand, len(p.Cands))
			for i, c := range p.Cands {
				cands[i] = cand{peak: c[0], x: c[1], y: c[2], side: c[3]}
			}
			got, err := m.faceProbs(frame, cands, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Close()
			checkProbs(t, got.probs, p.Probs)
			wide := m.wideReader(frame, cands)
			var w [][7]float64
			for i := range cands {
				q, err := wide(i)
				if err != nil {
					t.Fatal(err)
				}
				w = append(w, q)
			}
			checkProbs(t, w, p.Wide)
		})
	}
	for _, s := range fx.Squares {
		t.Run(s.Name, func(t *testing.T) {
			sq := matFromB64(t, s.BGR, m.cfg.FaceSide, m.cfg.FaceSide, gocv.MatTypeCV8UC3)
			defer sq.Close()
			got, err := m.squareProbs([]gocv.Mat{sq})
			if err != nil {
				t.Fatal(err)
			}
			checkProbs(t, got, [][7]float64{s.Probs})
		})
	}
}

func checkProbs(t *testing.T, got, want [][7]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows of probabilities, PyTorch has %d", len(got), len(want))
	}
	for i := range want {
		for j := range want[i] {
			if !near(got[i][j], want[i][j], 1e-4) {
				t.Errorf("square %d: probabilities %.5f, PyTorch %.5f", i, got[i], want[i])
				break
			}
		}
	}
}

// TestParityFaceSquare: faceSquare cuts the very pixels common.face_square cuts, inside the
// frame, across its edges and wholly outside it.
func TestParityFaceSquare(t *testing.T) {
	fx := readParity(t)
	cfg := defaultConfig(t)
	for _, s := range fx.FaceSquares {
		frame := readPhoto(t, s.File)
		want := matFromB64(t, s.BGR, cfg.FaceSide, cfg.FaceSide, gocv.MatTypeCV8UC3)
		got := faceSquare(frame, s.X, s.Y, s.Side, cfg)
		g, _ := got.DataPtrUint8()
		w, _ := want.DataPtrUint8()
		diff := 0
		for i := range w {
			if g[i] != w[i] {
				diff++
			}
		}
		if diff > 0 || len(g) != len(w) {
			t.Errorf("square at (%v,%v) side %v: %d of %d bytes differ from Python's", s.X, s.Y, s.Side, diff, len(w))
		}
		got.Close()
		want.Close()
		frame.Close()
	}
}

// TestParityCloser: a closer look at each weak candidate finds the peak PyTorch finds there, or
// none where it finds none, and withLooks looks at those candidates only.
func TestParityCloser(t *testing.T) {
	fx := readParity(t)
	m := parityModel(t, fx)
	n := 0
	for _, p := range fx.Photos {
		t.Run(p.File, func(t *testing.T) {
			frame := readPhoto(t, p.File)
			defer frame.Close()
			cands := make([]cand, len(p.Cands))
			for i, c := range p.Cands {
				cands[i] = cand{peak: c[0], x: c[1], y: c[2], side: c[3]}
			}
			all, looks, err := m.withLooks(frame, cands)
			if err != nil {
				t.Fatal(err)
			}
			want := make(map[int]*[4]float64)
			for _, l := range p.Looks {
				var i int
				var k *[4]float64
				if err := json.Unmarshal(l[0], &i); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(l[1], &k); err != nil {
					t.Fatal(err)
				}
				want[i] = k
			}
			for i, j := range looks {
				w, looked := want[i]
				switch {
				case !looked && j >= 0:
					t.Errorf("candidate %d (peak %.3f) looked at closer; PyTorch does not look", i, cands[i].peak)
				case looked && (w == nil) != (j < 0):
					t.Errorf("candidate %d: closer look found %v (index %d), PyTorch's %v", i, j >= 0, j, w)
				case j >= 0:
					n++
					g := all[j]
					if !near(g.peak, w[0], 1e-4) || !near(g.x, w[1], 0.05) || !near(g.y, w[2], 0.05) || !near(g.side, w[3], 0.05) {
						t.Errorf("candidate %d: closer look %+v, PyTorch's %v", i, g, *w)
					}
				}
			}
		})
	}
	if n == 0 {
		t.Errorf("%s has no closer look found: the test checks nothing (pick a photo with weak candidates)", parityFile)
	}
}

// TestParityZoomSquare: zoomSquare cuts the very pixels common.zoom_square cuts, at its place
// and scale, shrunk, grown and across the frame's edges.
func TestParityZoomSquare(t *testing.T) {
	fx := readParity(t)
	cfg := defaultConfig(t)
	if len(fx.ZoomSquares) == 0 {
		t.Fatalf("no zoom squares in %s", parityFile)
	}
	for _, z := range fx.ZoomSquares {
		frame := readPhoto(t, z.File)
		sq, s, x0, y0 := zoomSquare(frame, z.X, z.Y, z.Z, zoomSide, cfg)
		b, err := sq.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		if s != z.Scale || x0 != z.X0 || y0 != z.Y0 || hex.EncodeToString(h[:]) != z.SHA256 {
			t.Errorf("square at (%v,%v) zoom %v: scale %v from (%d,%d), Python's %v from (%d,%d); bytes alike: %v",
				z.X, z.Y, z.Z, s, x0, y0, z.Scale, z.X0, z.Y0, hex.EncodeToString(h[:]) == z.SHA256)
		}
		sq.Close()
		frame.Close()
	}
}

// TestTurnMatchesNumpy: turn(sq, k) is np.rot90(sq, k, axes=(1, 2)) on the batch, as
// pipeline.square_probs turns the squares.
func TestTurnMatchesNumpy(t *testing.T) {
	fx := readParity(t)
	r := fx.Rot90
	if len(r.Turned) != 4 {
		t.Fatalf("%d turns in %s", len(r.Turned), parityFile)
	}
	src := matFromB64(t, r.BGR, r.Rows, r.Cols, gocv.MatTypeCV8UC3)
	defer src.Close()
	for _, w := range r.Turned {
		want := matFromB64(t, w.BGR, w.Rows, w.Cols, gocv.MatTypeCV8UC3)
		got := turn(src, w.K)
		g, _ := got.DataPtrUint8()
		wb, _ := want.DataPtrUint8()
		if got.Rows() != w.Rows || got.Cols() != w.Cols || string(g) != string(wb) {
			t.Errorf("k=%d: %dx%d %v, numpy %dx%d %v", w.K, got.Rows(), got.Cols(), g, w.Rows, w.Cols, wb)
		}
		got.Close()
		want.Close()
	}
}
