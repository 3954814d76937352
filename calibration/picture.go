package calibration

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// Picture draws what calibration saw on a copy of the frame: the tray
// outline (blue), and each die's box and value (dice.Annotate). The
// caller closes the result.
func Picture(frame gocv.Mat, tray Tray, rd dice.Reading) gocv.Mat {
	out := dice.Annotate(frame, rd)
	if out.Empty() || len(tray.Outline) < 3 {
		return out
	}
	blue := color.RGBA{30, 120, 255, 0}
	thick := max(1, max(out.Cols(), out.Rows())/400)
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{tray.Outline})
	gocv.Polylines(&out, pv, true, blue, thick)
	pv.Close()
	org := tray.Outline[0]
	for _, p := range tray.Outline { // label at the top-left-most corner
		if p.X+p.Y < org.X+org.Y {
			org = p
		}
	}
	org = image.Pt(org.X+4, org.Y+18)
	gocv.PutText(&out, "tray", org, gocv.FontHersheySimplex, 0.6, blue, thick)
	return out
}

// thumbnail is a grey copy of frame whose longer side is at most side pixels: what a small
// display shows of the tray (panel's tray screen), kept without OpenCV memory.
func thumbnail(frame gocv.Mat, side int) (image.Image, error) {
	s := min(1, float64(side)/float64(max(frame.Cols(), frame.Rows())))
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(frame, &small, image.Pt(max(1, int(s*float64(frame.Cols()))), max(1, int(s*float64(frame.Rows())))), 0, 0, gocv.InterpolationArea)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(small, &grey, gocv.ColorBGRToGray)
	img, err := grey.ToImage()
	if err != nil {
		return nil, fmt.Errorf("tray picture: %w", err)
	}
	return img, nil
}

// WritePicture writes the result's picture (PNG, or JPEG by extension).
func (r Result) WritePicture(path string) error {
	if r.Picture.Empty() {
		return errors.New("write calibration picture: there is no picture")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write calibration picture: %w", err)
	}
	if !gocv.IMWrite(path, r.Picture) {
		return fmt.Errorf("write calibration picture %s: OpenCV could not write it (use .png or .jpg)", path)
	}
	return nil
}

// Close frees the picture.
func (r *Result) Close() {
	r.Picture.Close()
	r.Picture = gocv.Mat{}
}
