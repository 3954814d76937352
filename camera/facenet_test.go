package camera

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaceNetWeights: both built-in networks parse and differ, and a damaged file is
// refused with what is wrong with it.
func TestFaceNetWeights(t *testing.T) {
	nets, err := builtinNets()
	if err != nil {
		t.Fatalf("built-in weights: %v", err)
	}
	if fmt.Sprint(nets[0].fc2.w) == fmt.Sprint(nets[1].fc2.w) {
		t.Error("the two built-in networks have the same weights: the pair guards nothing")
	}
	changed := func(at int, v uint32) []byte {
		b := append([]byte(nil), faceNetWeights...)
		binary.LittleEndian.PutUint32(b[at:], v)
		return b
	}
	// After "CSFN" and the version: the side, the number of convolutions, each one's
	// channels and pool flag, the dense width, then the first array's length.
	convs := int(binary.LittleEndian.Uint32(faceNetWeights[12:]))
	first := 8 + 4*(3+2*convs)
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a CSFN"},
		{"other file", []byte("\x89PNG\r\n\x1a\n...."), "not a CSFN"},
		{"newer version", changed(4, 3), "version 3"},
		{"older version", changed(4, 1), "version 1"},
		{"other crop side", changed(8, 48), "trained on 48-pixel crops"},
		{"no convolutions", changed(12, 0), "0 convolutions"},
		{"bad pool flag", changed(20, 7), "pool 7"},
		{"cut short", faceNetWeights[:len(faceNetWeights)/2], "cut short"},
		{"cut in the header", faceNetWeights[:20], "cut short"},
		{"wrong architecture", changed(first, 7), "architecture has 432"},
		{"extra bytes", append(append([]byte(nil), faceNetWeights...), 0, 0), "left over"},
	} {
		if _, err := parseFaceNet(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestDihedral: the eight turns and mirrors of a crop are eight different rearrangements of
// its pixels, and four quarter turns bring it back.
func TestDihedral(t *testing.T) {
	const plane = netSide * netSide
	src := make([]float32, 3*plane)
	for i := range src {
		src[i] = float32(i)
	}
	seen := map[string]int{}
	for k := 0; k < 8; k++ {
		dst := make([]float32, len(src))
		dihedral(src, dst, k)
		used := make([]bool, len(src))
		for c := 0; c < 3; c++ {
			for _, v := range dst[c*plane : (c+1)*plane] {
				i := int(v)
				if i/plane != c || used[i] {
					t.Fatalf("turn %d: pixel %d moved across channels or used twice", k, i)
				}
				used[i] = true
			}
		}
		key := fmt.Sprint(dst[:2]) // the first two pixels tell the eight apart
		if j, ok := seen[key]; ok {
			t.Errorf("turns %d and %d are the same", j, k)
		}
		seen[key] = k
	}
	a, b := append([]float32(nil), src...), make([]float32, len(src))
	for i := 0; i < 4; i++ {
		dihedral(a, b, 1)
		a, b = b, a
	}
	for i := range a {
		if a[i] != src[i] {
			t.Fatalf("four quarter turns moved pixel %d", i)
		}
	}
}

// TestFaceNetParity: each network, its convolutions run through OpenCV's dnn, gives the
// probabilities PyTorch gave for the same crops (testdata/facenet/parity*.json, written by
// scripts/facenet/parity.py from held-out photos), so the weights are read and the layers
// computed as they were trained.
func TestFaceNetParity(t *testing.T) {
	for _, c := range []struct {
		file    string
		weights []byte
	}{{"parity.json", faceNetWeights}, {"parity2.json", faceNetWeights2}} {
		t.Run(c.file, func(t *testing.T) { testParity(t, c.file, c.weights) })
	}
}

func testParity(t *testing.T, file string, weights []byte) {
	b, err := os.ReadFile(filepath.Join("testdata", "facenet", file))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string     `json:"name"`
		BGR   []byte     `json:"bgr"`
		Probs [7]float64 `json:"probs"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(cases) < 8 {
		t.Fatalf("%s holds %d crops, want at least 8", file, len(cases))
	}
	w, err := parseFaceNet(weights)
	if err != nil {
		t.Fatal(err)
	}
	n := newNetRunner(w)
	defer n.close()
	for _, c := range cases {
		if len(c.BGR) != netSide*netSide*3 {
			t.Fatalf("%s: %d bytes, want %d", c.Name, len(c.BGR), netSide*netSide*3)
		}
		got := n.probs(normalise(c.BGR))
		for i := range got {
			if math.Abs(got[i]-c.Probs[i]) > 1e-4 {
				t.Errorf("%s: probabilities %.5f, PyTorch %.5f", c.Name, got, c.Probs)
				break
			}
		}
	}
}

// BenchmarkFaceNet: the cost of one pass of a network; a die's second look (netVote) or
// confirmation (netConfirm) costs at most 48: two networks, three squares, eight turns.
func BenchmarkFaceNet(b *testing.B) {
	w, err := parseFaceNet(faceNetWeights)
	if err != nil {
		b.Fatal(err)
	}
	n := newNetRunner(w)
	defer n.close()
	px := make([]byte, netSide*netSide*3)
	for i := range px {
		px[i] = byte(i * 7)
	}
	x := normalise(px)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n.probs(x)
	}
}
