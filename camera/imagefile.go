package camera

import (
	"fmt"
	"image"
	"os"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera/imghdr"
)

// Limits on images read from files, from bytes (rpicam-vid's MJPEG frames) and
// from captures: the sizes of package imghdr, checked before anything is decoded.
//
// The dice reader works on a 320-px copy of the frame and cuts the dice's face
// squares from the frame itself, so nothing gains from frames larger than
// WorkingSide: a 12-MP phone photo is decoded straight to half size.
const (
	// MaxImageSide is the longest side, in pixels, of an image that is read.
	MaxImageSide = imghdr.MaxSide
	// MaxImageBytes bounds an image file read by LoadImage.
	MaxImageBytes = 256 << 20
	// WorkingSide is the longest side of a frame as the sources return it: larger
	// frames are decoded reduced (JPEG) or scaled down with INTER_AREA.
	WorkingSide = imghdr.WorkingSide
	// MinReducedSide is the shortest longer side a reduced JPEG decode may give
	// (a 4000-px photo is decoded at 1/2, 2000 px; a 3000-px one at full size and
	// scaled), so that the dice's face squares keep their detail.
	MinReducedSide = 1600
)

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
	h, err := imghdr.Read(data)
	if err != nil {
		return gocv.Mat{}, err
	}
	if err := h.Check(); err != nil {
		return gocv.Mat{}, err
	}
	if !decodes(h.Format) {
		return gocv.Mat{}, fmt.Errorf("%s of %dx%d px: this build's OpenCV does not decode %s (it reads %s): convert the image to JPEG or PNG",
			h.Format, h.Width, h.Height, h.Format, decodedFormats)
	}
	if h.Format == "jpeg" && !imghdr.JPEGComplete(data) {
		return gocv.Mat{}, fmt.Errorf("jpeg of %dx%d px is cut short (it lacks the end-of-image marker): the file or frame is truncated; copy it again", h.Width, h.Height)
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
	if w > MaxImageSide || h > MaxImageSide || int64(w)*int64(h) > imghdr.MaxJPEGPixels {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("%s frame of %dx%d px is larger than the %d px a side and %d MP read: set the source's size to %d px or less",
			what, w, h, MaxImageSide, imghdr.MaxJPEGPixels/1_000_000, WorkingSide)
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
