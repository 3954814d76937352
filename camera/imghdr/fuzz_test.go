package imghdr_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cantstop/cantstop/camera/imghdr"
	"github.com/cantstop/cantstop/camera/imghdr/imghdrtest"
)

// FuzzRead: any bytes give a header or an error, never a panic, and a header
// that passes Check is within the limits.
func FuzzRead(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "pattern*"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add(imghdrtest.HugePNG(100000, 100000))
	f.Add([]byte("P7\nWIDTH 50\nHEIGHT 30\nENDHDR\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := imghdr.Read(data)
		if err != nil {
			return
		}
		if h.Width <= 0 || h.Height <= 0 {
			t.Fatalf("read %+v without an error", h)
		}
		if h.Check() == nil && (h.Width > imghdr.MaxSide || h.Height > imghdr.MaxSide ||
			int64(h.Width)*int64(h.Height) > imghdr.MaxJPEGPixels) {
			t.Fatalf("%+v passes Check", h)
		}
	})
}
