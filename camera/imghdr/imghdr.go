package imghdr

import (
	"bytes"
	"errors"
	"fmt"
)

// Limits on images the program reads. OpenCV allocates whatever a header
// claims (and throws an exception nothing catches, aborting the process, past
// 2^30 pixels), so the size is read here and checked before anything is decoded.
const (
	// MaxSide is the longest side, in pixels, of an image that is read.
	MaxSide = 12000
	// MaxJPEGPixels bounds a JPEG, which is decoded reduced (1/2, 1/4 or 1/8
	// in libjpeg's scaled DCT): a 50-MP JPEG costs at most ~38 MB decoded.
	MaxJPEGPixels = 50_000_000
	// MaxFullDecodePixels bounds the other formats (PNG, BMP, WebP, TIFF, PNM),
	// which OpenCV decodes at full size: 25 MP is 75 MB of BGR.
	MaxFullDecodePixels = 25_000_000
	// WorkingSide is the longest side of a frame as the program works on it:
	// the dice reader gains nothing from more.
	WorkingSide = 2048
)

// Header is what an image's header says about it.
type Header struct {
	Format        string // "jpeg", "png", "bmp", "webp", "tiff", "pnm"; "video" for a capture
	Width, Height int
}

// ErrNotImage marks data that is no image format Read knows.
var ErrNotImage = errors.New("not an image OpenCV can decode")

// Read reads the format and size from the first bytes of an image, without
// decoding it. It knows the formats Debian's OpenCV decodes and the camera
// sources use: JPEG, PNG, BMP, WebP, TIFF and PNM (PBM/PGM/PPM/PAM).
func Read(data []byte) (Header, error) {
	var (
		h   Header
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
		return h, fmt.Errorf("%w: the first bytes are no JPEG, PNG, BMP, WebP, TIFF or PNM header (use one of those; other formats OpenCV reads are refused because their size cannot be checked before decoding)", ErrNotImage)
	}
	if err != nil {
		return h, fmt.Errorf("%w: %s header: %v", ErrNotImage, h.Format, err)
	}
	if h.Width <= 0 || h.Height <= 0 {
		return h, fmt.Errorf("%w: %s header gives a size of %dx%d", ErrNotImage, h.Format, h.Width, h.Height)
	}
	return h, nil
}

// Check refuses an image too large to decode, naming its size, the limit and
// what to do.
func (h Header) Check() error {
	limit := MaxFullDecodePixels
	if h.Format == "jpeg" {
		limit = MaxJPEGPixels
	}
	px := int64(h.Width) * int64(h.Height)
	if h.Width > MaxSide || h.Height > MaxSide || px > int64(limit) {
		return fmt.Errorf("%s of %dx%d px (%.1f MP) is larger than the %d px a side and %d MP read for %s: "+
			"the dice reader needs no more than %d px, so scale it down first (e.g. convert IN -resize %dx%d OUT.jpg)",
			h.Format, h.Width, h.Height, float64(px)/1e6, MaxSide, limit/1_000_000, h.Format,
			WorkingSide, WorkingSide, WorkingSide)
	}
	return nil
}
