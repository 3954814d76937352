package mjpeg

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/cantstop/cantstop/camera/imghdr"
)

// Splitter cuts a stream of concatenated JPEG images (rpicam-vid
// --codec mjpeg -o -) into whole images. It walks the JPEG segment structure
// rather than searching for FFD9, because an EXIF thumbnail carries its own
// SOI/EOI inside an APP1 segment; in entropy-coded data FF is always followed
// by 00 (stuffing), a restart marker, or a real marker. Bytes outside an image
// and images cut short are dropped and counted, and reading resumes at the
// next SOI. An image whose frame header (SOF) claims a size over the limits
// of package imghdr is dropped too, and counted in Oversize: OpenCV would abort
// the process on it.
type Splitter struct {
	r        *bufio.Reader
	max      int   // largest image accepted, bytes
	Dropped  int64 // bytes skipped while resynchronising
	Oversize int   // images dropped for the size their header claims
	// LastOversize says why the last such image was dropped.
	LastOversize error
}

// errResync means the stream is not a well-formed JPEG at this point.
var errResync = errors.New("malformed JPEG stream")

// NewSplitter reads images of at most max bytes from r.
func NewSplitter(r io.Reader, max int) *Splitter {
	return &Splitter{r: bufio.NewReaderSize(r, 256<<10), max: max}
}

// Next returns the next whole image (a fresh slice) or the read error; a
// stream that ends between images gives io.EOF, inside one io.ErrUnexpectedEOF.
func (s *Splitter) Next() ([]byte, error) {
	for {
		if err := s.findSOI(); err != nil {
			return nil, err
		}
		img, err := s.image()
		if errors.Is(err, errResync) {
			s.Dropped += int64(len(img))
			continue
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return img, err
	}
}

// findSOI consumes bytes up to and including the next FF D8.
func (s *Splitter) findSOI() error {
	for {
		chunk, err := s.r.ReadSlice(0xFF)
		s.Dropped += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return err
		}
		b, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		if b == 0xD8 {
			s.Dropped -= 1
			return nil
		}
		s.Dropped++
		if b == 0xFF {
			_ = s.r.UnreadByte()
			s.Dropped--
		}
	}
}

// marker reads FF (fill FFs) XX and returns XX.
func (s *Splitter) marker() (byte, error) {
	b, err := s.r.ReadByte()
	if err != nil {
		return 0, err
	}
	if b != 0xFF {
		return 0, errResync
	}
	for b == 0xFF {
		if b, err = s.r.ReadByte(); err != nil {
			return 0, err
		}
	}
	if b == 0x00 {
		return 0, errResync
	}
	return b, nil
}

func (s *Splitter) image() ([]byte, error) {
	buf := []byte{0xFF, 0xD8}
	m, err := s.marker()
	for {
		if err != nil {
			return buf, err
		}
		switch {
		case m == 0xD8: // a new image began: the previous one was cut short
			s.Dropped += int64(len(buf))
			buf = append(buf[:0], 0xFF, 0xD8)
			m, err = s.marker()
			continue
		case m == 0xD9:
			return append(buf, 0xFF, 0xD9), nil
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7): // no length
			buf = append(buf, 0xFF, m)
			m, err = s.marker()
			continue
		}
		var l [2]byte
		if _, err = io.ReadFull(s.r, l[:]); err != nil {
			return buf, err
		}
		n := int(l[0])<<8 | int(l[1])
		if n < 2 {
			return buf, errResync
		}
		if len(buf)+n > s.max {
			return buf, fmt.Errorf("%w: image larger than %d bytes", errResync, s.max)
		}
		buf = append(buf, 0xFF, m, l[0], l[1])
		start := len(buf)
		buf = append(buf, make([]byte, n-2)...)
		if _, err = io.ReadFull(s.r, buf[start:]); err != nil {
			return buf, err
		}
		if imghdr.IsSOF(m) {
			w, h, serr := imghdr.SOFSize(buf[start:])
			if serr == nil {
				serr = imghdr.Header{Format: "jpeg", Width: w, Height: h}.Check()
			}
			if serr != nil {
				s.Oversize++
				s.LastOversize = serr
				return buf, fmt.Errorf("%w: %v", errResync, serr)
			}
		}
		if m != 0xDA { // not start of scan
			m, err = s.marker()
			continue
		}
		buf, m, err = s.scan(buf)
	}
}

// scan copies entropy-coded data up to the next marker, which it returns.
func (s *Splitter) scan(buf []byte) ([]byte, byte, error) {
	for {
		chunk, err := s.r.ReadSlice(0xFF)
		buf = append(buf, chunk...)
		if len(buf) > s.max {
			return buf, 0, fmt.Errorf("%w: image larger than %d bytes", errResync, s.max)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return buf, 0, err
		}
		b, err := s.r.ReadByte()
		if err != nil {
			return buf, 0, err
		}
		switch {
		case b == 0x00 || (b >= 0xD0 && b <= 0xD7): // stuffed FF, restart marker
			buf = append(buf, b)
		case b == 0xFF: // fill byte: look again
			_ = s.r.UnreadByte()
		default: // a marker: EOI, or DHT/SOS between progressive scans
			return buf[:len(buf)-1], b, nil
		}
	}
}
