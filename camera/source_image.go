package camera

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"

	"gocv.io/x/gocv"
)

// ImageSource turns Go images into frames (the simulated table draws dice as
// image.Image; the reader wants BGR Mats).
type ImageSource struct {
	next func(ctx context.Context) (image.Image, error)
}

// NewImageSource returns a Source whose Frame calls next and converts its image
// to an 8-bit BGR Mat. Errors from next (io.EOF included) are passed through.
func NewImageSource(next func(ctx context.Context) (image.Image, error)) Source {
	return &ImageSource{next: next}
}

func (s *ImageSource) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	img, err := s.next(ctx)
	if err != nil {
		return gocv.Mat{}, err
	}
	return ImageToMat(img)
}

func (s *ImageSource) Close() error { return nil }

// ImageToMat converts a Go image to an 8-bit BGR Mat owned by the caller.
// Transparent pixels come out as their colour over black.
func ImageToMat(img image.Image) (gocv.Mat, error) {
	if img == nil {
		return gocv.Mat{}, errors.New("image to frame: nil image")
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return gocv.Mat{}, fmt.Errorf("image to frame: empty image (%dx%d)", w, h)
	}
	var rgba *image.RGBA
	switch im := img.(type) {
	case *image.RGBA:
		rgba = im
	default: // draw has fast paths for NRGBA, YCbCr, Gray, Paletted
		rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
		b = rgba.Bounds()
	}
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	dst, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("image to frame: %w", err)
	}
	for y := 0; y < h; y++ {
		src := rgba.Pix[rgba.PixOffset(b.Min.X, b.Min.Y+y):]
		row := dst[y*w*3 : (y+1)*w*3]
		for x := 0; x < w; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = src[4*x+2], src[4*x+1], src[4*x]
		}
	}
	return m, nil
}
