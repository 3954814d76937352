package camera

import (
	"bytes"
	"errors"
	"image"
	"io"
	"math/rand"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// chunkReader returns at most a random few bytes per Read, like a pipe
// delivering a stream in pieces.
type chunkReader struct {
	data []byte
	rnd  *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.rnd.Intn(700))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

func encode(t testing.TB, m gocv.Mat, params ...int) []byte {
	t.Helper()
	if len(params) == 0 {
		params = []int{gocv.IMWriteJpegQuality, 95}
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, params)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...)
}

// withThumbnail puts an EXIF-style APP1 segment holding a whole JPEG (with
// its own SOI and EOI) right after the SOI, as cameras do.
func withThumbnail(img, thumb []byte) []byte {
	seg := append([]byte("Exif\x00\x00"), thumb...)
	out := []byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out = append(out, seg...)
	return append(out, img[2:]...)
}

// splitterImages are real frames in the encodings rpicam-vid and cameras
// produce: baseline, progressive (several scans, tables between them),
// restart markers, and with an EXIF thumbnail.
func splitterImages(t testing.TB) [][]byte {
	var imgs [][]byte
	thumbSrc := gocv.IMRead(framePath(testFrames[2]), gocv.IMReadColor)
	defer thumbSrc.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(thumbSrc, &small, image.Pt(64, 64), 0, 0, gocv.InterpolationArea)
	thumb := encode(t, small)
	for i, f := range testFrames {
		m := gocv.IMRead(framePath(f), gocv.IMReadColor)
		switch i {
		case 0:
			imgs = append(imgs, encode(t, m, gocv.IMWriteJpegQuality, 90), withThumbnail(encode(t, m), thumb))
		case 1:
			imgs = append(imgs, encode(t, m, gocv.IMWriteJpegProgressive, 1))
		case 2:
			imgs = append(imgs, encode(t, m, gocv.IMWriteJpegRstInterval, 4))
		}
		m.Close()
	}
	raw, err := os.ReadFile(framePath(testFrames[0])) // as the photographer's camera wrote it
	if err != nil {
		t.Fatal(err)
	}
	return append(imgs, raw)
}

func TestMJPEGSplitter(t *testing.T) {
	imgs := splitterImages(t)
	var stream []byte
	var want [][]byte
	for i, img := range imgs {
		stream = append(stream, "\x00\xFF\xFFjunk\xFF"...)
		if i == 2 { // an image cut short (the process died mid-write), then a new one
			stream = append(stream, img[:len(img)/2]...)
		}
		stream = append(stream, img...)
		want = append(want, img)
	}
	stream = append(stream, imgs[0][:100]...) // cut off at the end

	for seed := int64(0); seed < 20; seed++ {
		s := newMJPEGSplitter(&chunkReader{data: stream, rnd: rand.New(rand.NewSource(seed))}, 1<<20)
		for i, w := range want {
			got, err := s.Next()
			if err != nil {
				t.Fatalf("seed %d image %d: %v", seed, i, err)
			}
			if !bytes.Equal(got, w) {
				t.Fatalf("seed %d image %d: got %d bytes, want %d (starts % x, ends % x)", seed, i, len(got), len(w), got[:min(8, len(got))], got[max(0, len(got)-4):])
			}
		}
		if _, err := s.Next(); err != io.ErrUnexpectedEOF {
			t.Errorf("seed %d: stream cut inside an image gives %v, want io.ErrUnexpectedEOF", seed, err)
		}
		if s.Dropped == 0 {
			t.Errorf("seed %d: no bytes counted as dropped", seed)
		}
	}
	// Each split image decodes to the full frame, thumbnail or not.
	for i, img := range imgs {
		m, err := gocv.IMDecode(img, gocv.IMReadColor)
		if err != nil || m.Cols() != 640 {
			t.Errorf("image %d does not decode to a 640-wide frame: %v", i, err)
		}
		m.Close()
	}
	s := newMJPEGSplitter(bytes.NewReader(nil), 1<<20)
	if _, err := s.Next(); err != io.EOF {
		t.Errorf("empty stream: %v, want io.EOF", err)
	}
	if len(imgs[1]) <= len(imgs[3])+10 {
		t.Fatalf("test needs image 1 (%d bytes) larger than image 3 (%d)", len(imgs[1]), len(imgs[3]))
	}
	s = newMJPEGSplitter(bytes.NewReader(append(append([]byte(nil), imgs[1]...), imgs[3]...)), len(imgs[3])+10)
	if got, err := s.Next(); err != nil || !bytes.Equal(got, imgs[3]) {
		t.Errorf("an image over the size limit is skipped: got %d bytes, %v", len(got), err)
	}
}

func FuzzMJPEGSplitter(f *testing.F) {
	for _, name := range testFrames { // plain file reads: fuzz workers start fast
		img, err := os.ReadFile(framePath(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img[:3000])
	}
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newMJPEGSplitter(&chunkReader{data: data, rnd: rand.New(rand.NewSource(1))}, 1<<16)
		total := 0
		for {
			img, err := s.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(img) < 4 || img[0] != 0xFF || img[1] != 0xD8 || img[len(img)-2] != 0xFF || img[len(img)-1] != 0xD9 {
				t.Fatalf("image without SOI/EOI: % x", img)
			}
			if total += len(img); total > len(data) {
				t.Fatalf("returned %d bytes from %d", total, len(data))
			}
		}
	})
}

// TestMJPEGSplitterDamage feeds damaged streams (bytes changed, cut, runs of
// FF and zeros, random noise) in random pieces: every call ends, and every
// image returned is whole. (go test -fuzz does the same more thoroughly, but
// stalls in this cgo-linked package on this machine.)
func TestMJPEGSplitterDamage(t *testing.T) {
	imgs := splitterImages(t)
	rnd := rand.New(rand.NewSource(7))
	for it := 0; it < 1500; it++ {
		src := imgs[rnd.Intn(len(imgs))]
		data := append([]byte(nil), src...)
		switch rnd.Intn(5) {
		case 0:
			data = append(data[:rnd.Intn(len(data))], bytes.Repeat([]byte{0xFF}, rnd.Intn(5000))...)
		case 1:
			data = append(data, bytes.Repeat([]byte{0}, rnd.Intn(5000))...)
		case 2:
			data = make([]byte, rnd.Intn(50000))
			rnd.Read(data)
		case 3:
			data = append(data, src[:rnd.Intn(len(src))]...)
		}
		for k := rnd.Intn(10); k > 0 && len(data) > 0; k-- {
			data[rnd.Intn(len(data))] = byte(rnd.Intn(256))
		}
		s := newMJPEGSplitter(&chunkReader{data: data, rnd: rnd}, 1<<20)
		total := 0
		for {
			img, err := s.Next()
			if err != nil {
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					t.Fatalf("stream %d: error %v", it, err)
				}
				break
			}
			if img[0] != 0xFF || img[1] != 0xD8 || img[len(img)-2] != 0xFF || img[len(img)-1] != 0xD9 {
				t.Fatalf("stream %d: image without SOI/EOI", it)
			}
			if total += len(img); total > len(data) {
				t.Fatalf("stream %d: %d bytes of images from %d", it, total, len(data))
			}
		}
	}
}
