package camera

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cantstop/cantstop/camera/imghdr"
	"github.com/cantstop/cantstop/camera/imghdr/imghdrtest"
)

// FuzzDecodeImage: arbitrary bytes never crash DecodeImage (OpenCV aborts the
// process on a header it cannot allocate for), and what decodes is within the
// limits. Seeds: the testdata frames, each format at a small size, and the
// crafted huge headers of the tests.
func FuzzDecodeImage(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "frames", "*.jpg"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, ext := range []string{".jpg", ".png", ".bmp", ".webp", ".tiff", ".ppm"} {
		f.Add(pattern(f, ext))
	}
	f.Add(imghdrtest.HugePNG(100000, 100000))
	f.Add(hugeJPEG(f, pattern(f, ".jpg"), 60000, 60000))
	f.Add([]byte("P6\n99999 99999\n255\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, herr := imghdr.Read(data)
		m, err := DecodeImage(data)
		if err != nil {
			return
		}
		defer m.Close()
		if herr != nil || h.Check() != nil {
			t.Fatalf("decoded although the header is refused: %v %+v", herr, h)
		}
		if m.Empty() || max(m.Cols(), m.Rows()) > WorkingSide {
			t.Fatalf("decoded to %dx%d", m.Cols(), m.Rows())
		}
	})
}
