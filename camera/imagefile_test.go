package camera

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera/imghdr/imghdrtest"
)

// encodeExt encodes a w x h test pattern in the format of ext (".jpg", ".png", ...).
func encodeExt(t testing.TB, ext string, w, h int) []byte {
	t.Helper()
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	defer m.Close()
	gocv.Circle(&m, image.Pt(w/2, h/2), min(w, h)/3, color.RGBA{200, 40, 40, 0}, -1)
	gocv.Rectangle(&m, image.Rect(w/8, h/8, w/4, h/4), color.RGBA{250, 250, 250, 0}, -1)
	b, err := gocv.IMEncode(gocv.FileExt(ext), m)
	if err != nil {
		t.Fatalf("encode %s: %v", ext, err)
	}
	defer b.Close()
	return bytes.Clone(b.GetBytes())
}

// hugeJPEG is a small JPEG whose frame header claims w x h.
func hugeJPEG(t testing.TB, jpg []byte, w, h int) []byte {
	t.Helper()
	b, err := imghdrtest.WithJPEGSize(jpg, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pattern reads a 50x30 test picture of package imghdr's testdata.
func pattern(t testing.TB, ext string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("imghdr", "testdata", "pattern"+ext))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeImageRefuses: images whose header claims more than the limits, and
// bytes that are no image, are refused with an error, never handed to OpenCV
// (which aborts the process on the first two).
func TestDecodeImageRefuses(t *testing.T) {
	jpg := encodeExt(t, ".jpg", 640, 480)
	png := encodeExt(t, ".png", 640, 480)
	bmp := encodeExt(t, ".bmp", 64, 48)
	hugeBMP := bytes.Clone(bmp)
	binary.LittleEndian.PutUint32(hugeBMP[18:], 30000)
	cases := []struct {
		name string
		data []byte
		want []string // fragments of the error
	}{
		{"png claiming 100000x100000", imghdrtest.HugePNG(100000, 100000),
			[]string{"png of 100000x100000 px (10000.0 MP)", "12000 px a side and 25 MP", "scale it down"}},
		{"png claiming 20000x20000", imghdrtest.HugePNG(20000, 20000), []string{"20000x20000", "12000 px a side"}},
		{"png of 6000x5000 (30 MP)", imghdrtest.HugePNG(6000, 5000), []string{"6000x5000 px (30.0 MP)", "25 MP"}},
		{"jpeg claiming 60000x60000", hugeJPEG(t, jpg, 60000, 60000), []string{"jpeg of 60000x60000", "50 MP"}},
		{"jpeg claiming 9000x9000 (81 MP)", hugeJPEG(t, jpg, 9000, 9000), []string{"9000x9000", "50 MP"}},
		{"jpeg claiming 0 rows (DNL)", hugeJPEG(t, jpg, 640, 0), []string{"not an image", "no height"}},
		{"truncated jpeg", jpg[:len(jpg)/3], []string{"jpeg of 640x480 px is cut short", "copy it again"}},
		{"bmp claiming 30000 wide", hugeBMP, []string{"bmp of 30000x48"}},
		{"ppm claiming 99999x99999", []byte("P6\n99999 99999\n255\n\x00\x00\x00"), []string{"pnm of 99999x99999"}},
		{"jpeg cut before its frame header", jpg[:12], []string{"not an image", "jpeg header"}},
		{"png cut inside its pixels", png[:len(png)/2], []string{"png of 640x480 px does not decode"}},
		{"png cut inside its header", png[:20], []string{"not an image", "no IHDR"}},
		{"text", []byte("roll: 3 5 5 6\n"), []string{"not an image", "no JPEG, PNG, BMP, WebP, TIFF or PNM header"}},
		{"empty", nil, []string{"not an image"}},
		{"gif", []byte("GIF89a\x10\x00\x10\x00\x00\x00\x00;"), []string{"not an image"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := DecodeImage(c.data)
			if err == nil {
				m.Close()
				t.Fatalf("decoded to %dx%d, want an error", m.Cols(), m.Rows())
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestDecodeImageFormats: each format imghdr reads decodes if this build's
// OpenCV has its codec (Debian's has all; the lean build leaves WebP and TIFF
// out), and is refused with a message naming the format otherwise.
func TestDecodeImageFormats(t *testing.T) {
	for _, c := range []struct{ ext, format string }{
		{".jpg", "jpeg"}, {"-progressive.jpg", "jpeg"}, {".png", "png"}, {".bmp", "bmp"},
		{".webp", "webp"}, {".tiff", "tiff"}, {".ppm", "pnm"},
	} {
		m, err := DecodeImage(pattern(t, c.ext))
		if !decodes(c.format) {
			if err == nil {
				m.Close()
				t.Errorf("%s decoded, but this build lists it as not decoded", c.ext)
			} else if !strings.Contains(err.Error(), "does not decode "+c.format) || !strings.Contains(err.Error(), "convert") {
				t.Errorf("%s: error %q does not name the format and the fix", c.ext, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.ext, err)
			continue
		}
		if m.Cols() != 50 || m.Rows() != 30 {
			t.Errorf("%s: %dx%d, want 50x30", c.ext, m.Cols(), m.Rows())
		} else if px := m.GetVecbAt(15, 25); px[2] < 150 || px[1] > 90 {
			t.Errorf("%s: centre pixel %v is not the red disc", c.ext, px)
		}
		m.Close()
	}
	if !decodes("jpeg") || !decodes("png") {
		t.Error("every build must decode JPEG and PNG")
	}
}

// TestDecodeImageSizes: what comes out of DecodeImage for real images of each
// size: small ones as they are, large JPEGs decoded reduced, the rest scaled
// down, never over WorkingSide.
func TestDecodeImageSizes(t *testing.T) {
	cases := []struct {
		ext          string
		w, h         int
		wantW, wantH int
	}{
		{".jpg", 640, 480, 640, 480},
		{".jpg", 2048, 1536, 2048, 1536},
		{".jpg", 4000, 3000, 2000, 1500}, // decoded at 1/2 by libjpeg
		{".jpg", 3000, 4000, 1500, 2000},
		{".jpg", 3264, 2448, 1632, 1224}, // an 8-MP phone photo: 1/2 is still over 1600
		{".jpg", 3000, 2000, 2048, 1365}, // 1/2 would be 1500: full size, then INTER_AREA
		{".jpg", 7000, 5000, 1750, 1250}, // 1/4
		{".jpg", 12000, 4000, 2048, 683}, // 1/4 (3000), then INTER_AREA
		{".png", 4000, 3000, 2048, 1536},
		{".png", 2100, 100, 2048, 98},
		{".bmp", 3000, 1000, 2048, 683},
	}
	for _, c := range cases {
		data := encodeExt(t, c.ext, c.w, c.h)
		m, err := DecodeImage(data)
		if err != nil {
			t.Fatalf("%s %dx%d: %v", c.ext, c.w, c.h, err)
		}
		if m.Cols() != c.wantW || m.Rows() != c.wantH || m.Type() != gocv.MatTypeCV8UC3 {
			t.Errorf("%s %dx%d: decoded %dx%d type %v, want %dx%d 8UC3", c.ext, c.w, c.h, m.Cols(), m.Rows(), m.Type(), c.wantW, c.wantH)
		}
		// The picture survives: the red disc is still in the middle.
		if px := m.GetVecbAt(m.Rows()/2, m.Cols()/2); px[2] < 150 || px[1] > 90 {
			t.Errorf("%s %dx%d: centre pixel %v is not the red disc", c.ext, c.w, c.h, px)
		}
		m.Close()
	}
}

// TestLoadImageAsIMRead: photos within WorkingSide come out exactly as
// gocv.IMRead gives them (EXIF orientation included).
func TestLoadImageAsIMRead(t *testing.T) {
	for _, f := range testFrames {
		got, err := LoadImage(framePath(f))
		if err != nil {
			t.Fatal(err)
		}
		want := gocv.IMRead(framePath(f), gocv.IMReadColor)
		diff := gocv.NewMat()
		if got.Cols() != want.Cols() || got.Rows() != want.Rows() {
			t.Errorf("%s: %dx%d, IMRead %dx%d", f, got.Cols(), got.Rows(), want.Cols(), want.Rows())
		} else if gocv.AbsDiff(got, want, &diff); gocv.CountNonZero(diff.Reshape(1, 0)) != 0 {
			t.Errorf("%s: pixels differ from IMRead", f)
		}
		diff.Close()
		got.Close()
		want.Close()
	}
}

func TestLoadImageErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		path string
		want string
	}{
		{write("huge.png", imghdrtest.HugePNG(100000, 100000)), "huge.png: png of 100000x100000 px"},
		{write("empty.jpg", nil), "empty (0 bytes)"},
		{write("notes.jpg", []byte("not a photo")), "notes.jpg: not an image"},
		{dir, "is a folder: use dir:"},
		{filepath.Join(dir, "missing.jpg"), "no such file"},
	}
	for _, c := range cases {
		m, err := LoadImage(c.path)
		if err == nil {
			m.Close()
			t.Errorf("%s: no error", c.path)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q lacks %q", c.path, err, c.want)
		}
	}
}

// TestDirSourceHugeImage: a dir: source meeting a PNG that claims
// 100000x100000 reports it and goes on to the next image.
func TestDirSourceHugeImage(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"1.jpg": encodeExt(t, ".jpg", 320, 240),
		"2.png": imghdrtest.HugePNG(100000, 100000),
		"3.jpg": encodeExt(t, ".jpg", 4000, 3000),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src, err := OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx := context.Background()
	var got []string
	for {
		m, err := src.Frame(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, image.Pt(m.Cols(), m.Rows()).String())
		m.Close()
	}
	if len(got) != 3 || got[0] != "(320,240)" || !strings.Contains(got[1], "frame 2 of") ||
		!strings.Contains(got[1], "100000x100000") || got[2] != "(2000,1500)" {
		t.Fatalf("frames: %q", got)
	}
}

// TestFitFrame: captured frames over the limits are refused, large ones scaled.
func TestFitFrame(t *testing.T) {
	cases := []struct {
		w, h         int
		wantW, wantH int // 0: refused
	}{
		{1280, 960, 1280, 960},
		{3840, 2160, 2048, 1152},
		{12001, 10, 0, 0},
		{8000, 7000, 0, 0},
	}
	for _, c := range cases {
		m, err := FitFrame(gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC3), "test")
		if c.wantW == 0 {
			if err == nil || !strings.Contains(err.Error(), "larger than") {
				t.Errorf("%dx%d: %v, want refused", c.w, c.h, err)
			}
			continue
		}
		if err != nil || m.Cols() != c.wantW || m.Rows() != c.wantH {
			t.Errorf("%dx%d: %v, %dx%d, want %dx%d", c.w, c.h, err, m.Cols(), m.Rows(), c.wantW, c.wantH)
		}
		m.Close()
	}
}
