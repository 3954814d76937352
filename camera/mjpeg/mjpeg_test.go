package mjpeg

import (
	"bytes"
	"errors"
	"image/jpeg"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/camera/imghdr/imghdrtest"
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

func readFile(t testing.TB, path ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(path...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withThumbnail puts an EXIF-style APP1 segment holding a whole JPEG (with
// its own SOI and EOI) right after the SOI, as cameras do.
func withThumbnail(img, thumb []byte) []byte {
	seg := append([]byte("Exif\x00\x00"), thumb...)
	out := []byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out = append(out, seg...)
	return append(out, img[2:]...)
}

// images are real frames in the encodings rpicam-vid and cameras produce
// (testdata/README.md): baseline, with an EXIF thumbnail, progressive, with
// restart markers, and a camera's own file.
func images(t testing.TB) [][]byte {
	base := readFile(t, "testdata", "baseline.jpg")
	return [][]byte{
		base,
		withThumbnail(base, readFile(t, "testdata", "thumbnail.jpg")),
		readFile(t, "testdata", "progressive.jpg"),
		readFile(t, "testdata", "restart.jpg"),
		readFile(t, "..", "testdata", "frames", "IMG_20191208_112833.jpg"),
	}
}

func TestSplitter(t *testing.T) {
	imgs := images(t)
	var stream []byte
	for i, img := range imgs {
		stream = append(stream, "\x00\xFF\xFFjunk\xFF"...)
		if i == 2 { // an image cut short (the process died mid-write), then a new one
			stream = append(stream, img[:len(img)/2]...)
		}
		stream = append(stream, img...)
	}
	stream = append(stream, imgs[0][:100]...) // cut off at the end

	for seed := int64(0); seed < 20; seed++ {
		s := NewSplitter(&chunkReader{data: stream, rnd: rand.New(rand.NewSource(seed))}, 1<<20)
		for i, w := range imgs {
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
	// Each split image decodes to the whole frame, thumbnail or not.
	for i, img := range imgs {
		m, err := jpeg.Decode(bytes.NewReader(img))
		if err != nil || (m.Bounds().Dx() != 320 && m.Bounds().Dx() != 640) {
			t.Errorf("image %d does not decode to a whole frame: %v", i, err)
		}
	}
	s := NewSplitter(bytes.NewReader(nil), 1<<20)
	if _, err := s.Next(); err != io.EOF {
		t.Errorf("empty stream: %v, want io.EOF", err)
	}
	// An image over the byte limit is skipped.
	big, small := imgs[4], imgs[0]
	s = NewSplitter(bytes.NewReader(append(append([]byte(nil), big...), small...)), len(small)+10)
	if got, err := s.Next(); err != nil || !bytes.Equal(got, small) {
		t.Errorf("an image over the size limit is skipped: got %d bytes, %v", len(got), err)
	}
}

// TestSplitterOversize: a frame whose header claims 60000x60000 in an
// rpicam-vid stream is dropped and counted; the frames around it come through.
func TestSplitterOversize(t *testing.T) {
	good := readFile(t, "testdata", "thumbnail.jpg")
	huge, err := imghdrtest.WithJPEGSize(good, 60000, 60000)
	if err != nil {
		t.Fatal(err)
	}
	stream := append(append(append([]byte(nil), good...), huge...), good...)
	s := NewSplitter(bytes.NewReader(stream), 1<<20)
	for i := 0; i < 2; i++ {
		img, err := s.Next()
		if err != nil || !bytes.Equal(img, good) {
			t.Fatalf("image %d: %v, %d bytes", i, err, len(img))
		}
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("end: %v", err)
	}
	if s.Oversize != 1 || s.LastOversize == nil || !strings.Contains(s.LastOversize.Error(), "60000x60000") {
		t.Fatalf("oversize %d, last %v", s.Oversize, s.LastOversize)
	}
}

// checkSplit reads data through a splitter in random pieces until it ends: the
// stream must end with io.EOF or io.ErrUnexpectedEOF, every image returned
// must be whole, and no more bytes come out than went in.
func checkSplit(t *testing.T, data []byte, rnd *rand.Rand, max int) {
	t.Helper()
	s := NewSplitter(&chunkReader{data: data, rnd: rnd}, max)
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
			t.Fatalf("image without SOI/EOI: % x", img[:min(len(img), 16)])
		}
		if total += len(img); total > len(data) {
			t.Fatalf("returned %d bytes from %d", total, len(data))
		}
	}
}

// TestSplitterDamage feeds damaged streams (bytes changed, cut, runs of FF
// and zeros, random noise) in random pieces; FuzzSplitter does the same more
// thoroughly.
func TestSplitterDamage(t *testing.T) {
	imgs := images(t)
	rnd := rand.New(rand.NewSource(7))
	for it := 0; it < 1500; it++ {
		src := imgs[rnd.Intn(len(imgs))]
		data := bytes.Clone(src)
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
		checkSplit(t, data, rnd, 1<<20)
	}
}

func FuzzSplitter(f *testing.F) {
	for _, img := range images(f) {
		f.Add(img[:min(len(img), 3000)])
	}
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSplit(t, data, rand.New(rand.NewSource(1)), 1<<16)
	})
}
