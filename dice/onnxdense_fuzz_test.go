package dice

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLastDense checks that reading the dense layer of a face.onnx never panics and that what
// it accepts is consistent. Seeds: the built-in face.onnx, cut short, and garbage.
//
//	scripts/fuzz.sh FuzzLastDense
func FuzzLastDense(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("model", faceFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte{0x3a, 0x05, 0x0a, 0x03, 0x01, 0x02, 0x03})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := lastDense(data)
		if err != nil {
			return
		}
		if d.In <= 0 || d.Out <= 0 || len(d.W) != d.In*d.Out || len(d.B) != d.Out || d.Layer == "" {
			t.Fatalf("accepted an inconsistent layer: %d x %d, %d weights, %d biases, layer %q", d.Out, d.In, len(d.W), len(d.B), d.Layer)
		}
	})
}
