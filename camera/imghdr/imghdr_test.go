package imghdr_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/camera/imghdr"
	"github.com/cantstop/cantstop/camera/imghdr/imghdrtest"
)

// pattern reads testdata/pattern.EXT: a 50x30 picture written by Debian's
// OpenCV 4.6 (scripts in testdata/README.md).
func pattern(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hugeJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	b, err := imghdrtest.WithJPEGSize(pattern(t, "pattern.jpg"), w, h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRead(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		format string
		w, h   int
	}{
		{"jpeg", pattern(t, "pattern.jpg"), "jpeg", 50, 30},
		{"progressive jpeg", pattern(t, "pattern-progressive.jpg"), "jpeg", 50, 30},
		{"png", pattern(t, "pattern.png"), "png", 50, 30},
		{"bmp", pattern(t, "pattern.bmp"), "bmp", 50, 30},
		{"webp", pattern(t, "pattern.webp"), "webp", 50, 30},
		{"tiff", pattern(t, "pattern.tiff"), "tiff", 50, 30},
		{"ppm", pattern(t, "pattern.ppm"), "pnm", 50, 30},
		{"pgm with a comment", []byte("P5\n# made by hand\n50 30\n255\n" + strings.Repeat("\x00", 1500)), "pnm", 50, 30},
		{"pam", []byte("P7\nWIDTH 50\nHEIGHT 30\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n"), "pnm", 50, 30},
		{"huge png", imghdrtest.HugePNG(100000, 100000), "png", 100000, 100000},
		{"huge jpeg", hugeJPEG(t, 60000, 60000), "jpeg", 60000, 60000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := imghdr.Read(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if h != (imghdr.Header{Format: c.format, Width: c.w, Height: c.h}) {
				t.Fatalf("got %+v, want %s %dx%d", h, c.format, c.w, c.h)
			}
		})
	}
}

// TestReadRefuses: bytes that are no image, or an image whose header is cut
// or gives no size, are refused with an error that says which.
func TestReadRefuses(t *testing.T) {
	jpg, png := pattern(t, "pattern.jpg"), pattern(t, "pattern.png")
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"jpeg cut before its frame header", jpg[:12], "jpeg header"},
		{"jpeg claiming 0 rows (DNL)", hugeJPEG(t, 640, 0), "no height"},
		{"png cut inside its header", png[:20], "no IHDR"},
		{"bmp cut", pattern(t, "pattern.bmp")[:20], "bmp header: cut short"},
		{"tiff with its directory past the end", pattern(t, "pattern.tiff")[:8], "past the end"},
		{"ppm without a size", []byte("P6\n"), "no width and height"},
		{"text", []byte("roll: 3 5 5 6\n"), "no JPEG, PNG, BMP, WebP, TIFF or PNM header"},
		{"empty", nil, "no JPEG, PNG"},
		{"gif", []byte("GIF89a\x10\x00\x10\x00\x00\x00\x00;"), "no JPEG, PNG"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := imghdr.Read(c.data)
			if err == nil {
				t.Fatalf("read %+v, want an error", h)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not an image") {
				t.Errorf("error %q lacks %q", err, c.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	hugeBMP := bytes.Clone(pattern(t, "pattern.bmp"))
	binary.LittleEndian.PutUint32(hugeBMP[18:], 30000)
	cases := []struct {
		name string
		data []byte
		want []string // fragments of the error; none: accepted
	}{
		{"png of 50x30", pattern(t, "pattern.png"), nil},
		{"png claiming 100000x100000", imghdrtest.HugePNG(100000, 100000),
			[]string{"png of 100000x100000 px (10000.0 MP)", "12000 px a side and 25 MP", "scale it down"}},
		{"png claiming 20000x20000", imghdrtest.HugePNG(20000, 20000), []string{"20000x20000", "12000 px a side"}},
		{"png of 6000x5000 (30 MP)", imghdrtest.HugePNG(6000, 5000), []string{"6000x5000 px (30.0 MP)", "25 MP"}},
		{"png of 5000x5000 (25 MP)", imghdrtest.HugePNG(5000, 5000), nil},
		{"jpeg claiming 60000x60000", hugeJPEG(t, 60000, 60000), []string{"jpeg of 60000x60000", "50 MP"}},
		{"jpeg claiming 9000x9000 (81 MP)", hugeJPEG(t, 9000, 9000), []string{"9000x9000", "50 MP"}},
		{"jpeg of 7000x7000 (49 MP)", hugeJPEG(t, 7000, 7000), nil},
		{"bmp claiming 30000 wide", hugeBMP, []string{"bmp of 30000x30"}},
		{"ppm claiming 99999x99999", []byte("P6\n99999 99999\n255\n\x00\x00\x00"), []string{"pnm of 99999x99999"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, err := imghdr.Read(c.data)
			if err != nil {
				t.Fatal(err)
			}
			err = h.Check()
			if c.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("%+v accepted, want refused", h)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestJPEGComplete(t *testing.T) {
	jpg := pattern(t, "pattern.jpg")
	for _, c := range []struct {
		name string
		data []byte
		want bool
	}{
		{"whole", jpg, true},
		{"zero padding after the end", append(bytes.Clone(jpg), 0, 0, 0), true},
		{"cut short", jpg[:len(jpg)-40], false},
		{"cut before the last byte", jpg[:len(jpg)-1], false},
		{"empty", nil, false},
	} {
		if got := imghdr.JPEGComplete(c.data); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
