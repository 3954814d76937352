package camera

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"os"

	"gocv.io/x/gocv"
)

// Limits on images read from files, from bytes (rpicam-vid's MJPEG frames) and
// from captures. OpenCV allocates whatever a header claims (and throws an
// exception nothing catches, aborting the process, past 2^30 pixels), so the
// size is read from the header and checked before anything is decoded.
//
// The dice reader works on a 320-px copy of the frame and cuts the dice's face
// squares from the frame itself, so nothing gains from frames larger than
// WorkingSide: a 12-MP phone photo is decoded straight to half size.
const (
	// MaxImageSide is the longest side, in pixels, of an image that is read.
	MaxImageSide = 12000
	// MaxImagePixels bounds a JPEG, which is decoded reduced (1/2, 1/4 or 1/8
	// in libjpeg's scaled DCT): a 50-MP JPEG costs at most ~38 MB decoded.
	MaxImagePixels = 50_000_000
	// MaxFullDecodePixels bounds the other formats (PNG, BMP, WebP, TIFF, PNM),
	// which OpenCV decodes at full size: 25 MP is 75 MB of BGR.
	MaxFullDecodePixels = 25_000_000
	// MaxImageBytes bounds an image file read by LoadImage.
	MaxImageBytes = 256 << 20
	// WorkingSide is the longest side of a frame as the sources return it: larger
	// frames are decoded reduced (JPEG) or scaled down with INTER_AREA.
	WorkingSide = 2048
	// MinReducedSide is the shortest longer side a reduced JPEG decode may give
	// (a 4000-px photo is decoded at 1/2, 2000 px; a 3000-px one at full size and
	// scaled), so that the dice's face squares keep their detail.
	MinReducedSide = 1600
)

// ImageHeader is what an image's header says about it.
type ImageHeader struct {
	Format        string // "jpeg", "png", "bmp", "webp", "tiff", "pnm"
	Width, Height int
}

// errNotImage marks data that is no image format this package reads.
var errNotImage = errors.New("not an image OpenCV can decode")

// ReadImageHeader reads the format and size from the first bytes of an image,
// without decoding it. It knows the formats Debian's OpenCV decodes and the
// camera sources use: JPEG, PNG, BMP, WebP, TIFF and PNM (PBM/PGM/PPM/PAM).
func ReadImageHeader(data []byte) (ImageHeader, error) {
	var (
		h   ImageHeader
		err error
	)
	switch {
	case len(data) >= 2 && data[0] == 0xFF && data[1] == 0xD8:
		h.Format = "jpeg"
		h.Width, h.Height, err = jpegSize(data)
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		h.Format = "png"
		h.Width, h.Height, err = pngSize(data)
	case bytes.HasPrefix(data, []byte("BM")):
		h.Format = "bmp"
		h.Width, h.Height, err = bmpSize(data)
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		h.Format = "webp"
		h.Width, h.Height, err = webpSize(data)
	case bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*")):
		h.Format = "tiff"
		h.Width, h.Height, err = tiffSize(data)
	case len(data) >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '7':
		h.Format = "pnm"
		h.Width, h.Height, err = pnmSize(data)
	default:
		return h, fmt.Errorf("%w: the first bytes are no JPEG, PNG, BMP, WebP, TIFF or PNM header (use one of those; other formats OpenCV reads are refused because their size cannot be checked before decoding)", errNotImage)
	}
	if err != nil {
		return h, fmt.Errorf("%w: %s header: %v", errNotImage, h.Format, err)
	}
	if h.Width <= 0 || h.Height <= 0 {
		return h, fmt.Errorf("%w: %s header gives a size of %dx%d", errNotImage, h.Format, h.Width, h.Height)
	}
	return h, nil
}

// checkSize refuses an image too large to decode, naming its size, the limit
// and what to do.
func (h ImageHeader) checkSize() error {
	limit := MaxFullDecodePixels
	if h.Format == "jpeg" {
		limit = MaxImagePixels
	}
	px := int64(h.Width) * int64(h.Height)
	if h.Width > MaxImageSide || h.Height > MaxImageSide || px > int64(limit) {
		return fmt.Errorf("%s of %dx%d px (%.1f MP) is larger than the %d px a side and %d MP read for %s: "+
			"the dice reader needs no more than %d px, so scale it down first (e.g. convert IN -resize %dx%d OUT.jpg)",
			h.Format, h.Width, h.Height, float64(px)/1e6, MaxImageSide, limit/1_000_000, h.Format,
			WorkingSide, WorkingSide, WorkingSide)
	}
	return nil
}

// jpegReduction is the IMDecode flag and factor for a JPEG whose longer side
// is side: the largest libjpeg reduction that keeps it at least MinReducedSide
// (FitFrame then scales what is still over WorkingSide).
func jpegReduction(side int) (gocv.IMReadFlag, int) {
	for _, r := range []struct {
		flag gocv.IMReadFlag
		n    int
	}{{gocv.IMReadReducedColor8, 8}, {gocv.IMReadReducedColor4, 4}, {gocv.IMReadReducedColor2, 2}} {
		if side/r.n >= MinReducedSide {
			return r.flag, r.n
		}
	}
	return gocv.IMReadColor, 1
}

// DecodeImage decodes an image held in memory (a file's bytes, an MJPEG frame)
// to an 8-bit BGR Mat owned by the caller, whose longer side is at most
// WorkingSide. The size in the header is checked first: an image over the
// limits above is refused with an error, never handed to OpenCV.
func DecodeImage(data []byte) (gocv.Mat, error) {
	h, err := ReadImageHeader(data)
	if err != nil {
		return gocv.Mat{}, err
	}
	if err := h.checkSize(); err != nil {
		return gocv.Mat{}, err
	}
	flag := gocv.IMReadColor
	if h.Format == "jpeg" {
		flag, _ = jpegReduction(max(h.Width, h.Height))
	}
	m, err := gocv.IMDecode(data, flag)
	if err != nil || m.Empty() {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("%s of %dx%d px does not decode (a truncated or damaged file?)", h.Format, h.Width, h.Height)
	}
	return FitFrame(m, h.Format)
}

// LoadImage reads and decodes one image file as DecodeImage does, with an
// error naming the file for each way it fails.
func LoadImage(path string) (gocv.Mat, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	switch {
	case fi.IsDir():
		return gocv.Mat{}, fmt.Errorf("%s is a folder: use dir:%s", path, path)
	case fi.Size() == 0:
		return gocv.Mat{}, fmt.Errorf("%s is empty (0 bytes)", path)
	case fi.Size() > MaxImageBytes:
		return gocv.Mat{}, fmt.Errorf("%s is %d MB, more than the %d MB an image may be: scale it down to %d px and save it as JPEG",
			path, fi.Size()>>20, MaxImageBytes>>20, WorkingSide)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	m, err := DecodeImage(data)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// FitFrame checks a decoded or captured frame against the limits and scales
// it down (INTER_AREA) so that its longer side is at most WorkingSide. It takes
// m: it returns m itself, a scaled copy (closing m), or an error (closing m).
// what names the frame's origin in the error.
func FitFrame(m gocv.Mat, what string) (gocv.Mat, error) {
	w, h := m.Cols(), m.Rows()
	if w > MaxImageSide || h > MaxImageSide || int64(w)*int64(h) > MaxImagePixels {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("%s frame of %dx%d px is larger than the %d px a side and %d MP read: set the source's size to %d px or less",
			what, w, h, MaxImageSide, MaxImagePixels/1_000_000, WorkingSide)
	}
	side := max(w, h)
	if side <= WorkingSide {
		return m, nil
	}
	nw := max(1, (w*WorkingSide+side/2)/side)
	nh := max(1, (h*WorkingSide+side/2)/side)
	out := gocv.NewMat()
	gocv.Resize(m, &out, image.Pt(nw, nh), 0, 0, gocv.InterpolationArea)
	m.Close()
	if out.Empty() {
		out.Close()
		return gocv.Mat{}, fmt.Errorf("%s frame of %dx%d px: scaling it to %dx%d failed", what, w, h, nw, nh)
	}
	return out, nil
}

// jpegSize walks the JPEG's segments to its frame header (SOFn).
func jpegSize(data []byte) (int, int, error) {
	off := 2
	for {
		// A marker: FF, fill FFs, then the code.
		if off >= len(data) || data[off] != 0xFF {
			return 0, 0, errors.New("no frame header (SOF) before the data ends or stops being JPEG")
		}
		for off < len(data) && data[off] == 0xFF {
			off++
		}
		if off >= len(data) {
			return 0, 0, errors.New("cut short before its frame header (SOF)")
		}
		m := data[off]
		off++
		switch {
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7): // no length
			continue
		case m == 0xD8 || m == 0xD9 || m == 0xDA || m == 0x00:
			return 0, 0, fmt.Errorf("marker FF%02X before the frame header (SOF)", m)
		}
		if off+2 > len(data) {
			return 0, 0, errors.New("cut short before its frame header (SOF)")
		}
		n := int(binary.BigEndian.Uint16(data[off:]))
		if n < 2 || off+n > len(data) {
			return 0, 0, fmt.Errorf("segment FF%02X of %d bytes runs past the end", m, n)
		}
		if isSOF(m) {
			return sofSize(data[off+2 : off+n])
		}
		off += n
	}
}

// isSOF reports whether a JPEG marker code is a frame header: C0-CF except
// DHT (C4), JPG (C8) and DAC (CC).
func isSOF(m byte) bool { return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC }

// sofSize reads width and height from a SOFn segment's payload (after the length).
func sofSize(p []byte) (int, int, error) {
	if len(p) < 6 {
		return 0, 0, errors.New("frame header (SOF) too short")
	}
	h := int(binary.BigEndian.Uint16(p[1:]))
	w := int(binary.BigEndian.Uint16(p[3:]))
	if h == 0 {
		return 0, 0, errors.New("frame header gives no height (DNL), which is not read")
	}
	return w, h, nil
}

func pngSize(data []byte) (int, int, error) {
	// Signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
	if len(data) < 24 || string(data[12:16]) != "IHDR" {
		return 0, 0, errors.New("no IHDR chunk after the signature")
	}
	w, h := binary.BigEndian.Uint32(data[16:]), binary.BigEndian.Uint32(data[20:])
	if w > 1<<30 || h > 1<<30 {
		return 0, 0, fmt.Errorf("size %dx%d is not a PNG size", w, h)
	}
	return int(w), int(h), nil
}

func bmpSize(data []byte) (int, int, error) {
	if len(data) < 26 {
		return 0, 0, errors.New("cut short")
	}
	switch dib := binary.LittleEndian.Uint32(data[14:]); {
	case dib == 12: // OS/2 BITMAPCOREHEADER: 16-bit sizes
		return int(binary.LittleEndian.Uint16(data[18:])), int(binary.LittleEndian.Uint16(data[20:])), nil
	case dib >= 40:
		w := int64(int32(binary.LittleEndian.Uint32(data[18:])))
		h := int64(int32(binary.LittleEndian.Uint32(data[22:])))
		if h < 0 { // top-down
			h = -h
		}
		return int(w), int(h), nil
	default:
		return 0, 0, fmt.Errorf("unknown info header of %d bytes", dib)
	}
}

func webpSize(data []byte) (int, int, error) {
	if len(data) < 30 {
		return 0, 0, errors.New("cut short")
	}
	switch string(data[12:16]) {
	case "VP8 ": // lossy: key frame start code, then 14-bit sizes
		if data[23] != 0x9D || data[24] != 0x01 || data[25] != 0x2A {
			return 0, 0, errors.New("VP8 key frame start code missing")
		}
		return int(binary.LittleEndian.Uint16(data[26:]) & 0x3FFF), int(binary.LittleEndian.Uint16(data[28:]) & 0x3FFF), nil
	case "VP8L": // lossless: signature 2F, then 14-bit width-1 and height-1
		if data[20] != 0x2F {
			return 0, 0, errors.New("VP8L signature missing")
		}
		b := binary.LittleEndian.Uint32(data[21:])
		return int(b&0x3FFF) + 1, int(b>>14&0x3FFF) + 1, nil
	case "VP8X": // extended: 24-bit canvas width-1 and height-1
		u24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
		return u24(data[24:]) + 1, u24(data[27:]) + 1, nil
	}
	return 0, 0, fmt.Errorf("unknown chunk %q", data[12:16])
}

func tiffSize(data []byte) (int, int, error) {
	var bo binary.ByteOrder = binary.LittleEndian
	if data[0] == 'M' {
		bo = binary.BigEndian
	}
	if len(data) < 8 {
		return 0, 0, errors.New("cut short")
	}
	off := int64(bo.Uint32(data[4:]))
	if off+2 > int64(len(data)) {
		return 0, 0, errors.New("first directory (IFD) past the end")
	}
	n := int64(bo.Uint16(data[off:]))
	w, h := -1, -1
	for i := int64(0); i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(data)) {
			return 0, 0, errors.New("directory (IFD) runs past the end")
		}
		tag, typ := bo.Uint16(data[e:]), bo.Uint16(data[e+2:])
		var v int
		switch typ {
		case 3: // SHORT
			v = int(bo.Uint16(data[e+8:]))
		case 4: // LONG
			v = int(bo.Uint32(data[e+8:]) & 0x7FFFFFFF)
		default:
			continue
		}
		switch tag {
		case 256:
			w = v
		case 257:
			h = v
		}
	}
	if w < 0 || h < 0 {
		return 0, 0, errors.New("no ImageWidth and ImageLength in the first directory")
	}
	return w, h, nil
}

// pnmSize reads the text header of PBM/PGM/PPM (P1-P6) and PAM (P7).
func pnmSize(data []byte) (int, int, error) {
	off := 2
	if data[1] == '7' {
		var w, h = -1, -1
		for _, ln := range bytes.Split(data[2:min(len(data), 4096)], []byte("\n")) {
			f := bytes.Fields(ln)
			if len(f) == 2 && string(f[0]) == "WIDTH" {
				w = atoiSmall(f[1])
			}
			if len(f) == 2 && string(f[0]) == "HEIGHT" {
				h = atoiSmall(f[1])
			}
			if len(f) >= 1 && string(f[0]) == "ENDHDR" {
				break
			}
		}
		if w < 0 || h < 0 {
			return 0, 0, errors.New("no WIDTH and HEIGHT before ENDHDR")
		}
		return w, h, nil
	}
	var v [2]int
	for i := range v {
		for off < len(data) {
			if c := data[off]; c == '#' {
				for off < len(data) && data[off] != '\n' {
					off++
				}
			} else if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				off++
			} else {
				break
			}
		}
		start := off
		for off < len(data) && data[off] >= '0' && data[off] <= '9' && off-start < 10 {
			off++
		}
		if off == start {
			return 0, 0, errors.New("no width and height")
		}
		v[i] = atoiSmall(data[start:off])
	}
	return v[0], v[1], nil
}

// atoiSmall parses up to 9 decimal digits; -1 if b is not that.
func atoiSmall(b []byte) int {
	if len(b) == 0 || len(b) > 9 {
		return -1
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
