package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// warpFace returns the Lab bytes of a P×P patch centred on the candidate, rotated to its axes
// and scaled by k.
func warpFace(img gocv.Mat, rr rotRect, k float64, P int) ([]byte, bool) {
	src, ok := newSurround(img, rr.cx, rr.cy, k, P)
	if !ok {
		return nil, false
	}
	defer src.Close()
	return src.warp(rr), true
}

// surround is the part of the picture around a point from which P×P patches centred there
// are resampled at scale k. When k is small it is shrunk first with area averaging
// (warpAffine alone would alias); a face read at several turns shares that one shrinking.
type surround struct {
	roi, small gocv.Mat
	shrunk     bool
	box        image.Rectangle
	k, pre     float64 // the patches' scale, and the shrinking's
	P          int
}

func newSurround(img gocv.Mat, cx, cy, k float64, P int) (*surround, bool) {
	reach := float64(P) / k * 0.75
	box := image.Rect(int(cx-reach), int(cy-reach), int(cx+reach)+1, int(cy+reach)+1).
		Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if box.Dx() < 4 || box.Dy() < 4 {
		return nil, false
	}
	s := &surround{roi: img.Region(box), box: box, k: k, pre: 1, P: P}
	if k < 0.7 {
		pre := k / 0.8
		s.small, s.shrunk = gocv.NewMat(), true
		gocv.Resize(s.roi, &s.small, image.Pt(max(1, int(float64(box.Dx())*pre)), max(1, int(float64(box.Dy())*pre))), 0, 0, gocv.InterpolationArea)
		s.pre = float64(s.small.Cols()) / float64(box.Dx())
	}
	return s, true
}

func (s *surround) Close() {
	s.roi.Close()
	if s.shrunk {
		s.small.Close()
	}
}

// warp returns the Lab bytes of the patch in the axes of rr, which is centred where the
// surround was made.
func (s *surround) warp(rr rotRect) []byte {
	src := s.roi
	if s.shrunk {
		src = s.small
	}
	cx, cy := (rr.cx-float64(s.box.Min.X))*s.pre, (rr.cy-float64(s.box.Min.Y))*s.pre
	kk := s.k / s.pre
	ca, sa := math.Cos(rr.ang), math.Sin(rr.ang)
	h := float64(s.P) / 2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, kk*ca)
	m.SetDoubleAt(0, 1, kk*sa)
	m.SetDoubleAt(0, 2, h-kk*(ca*cx+sa*cy))
	m.SetDoubleAt(1, 0, -kk*sa)
	m.SetDoubleAt(1, 1, kk*ca)
	m.SetDoubleAt(1, 2, h-kk*(-sa*cx+ca*cy))
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpAffineWithParams(src, &out, m, image.Pt(s.P, s.P), gocv.InterpolationLinear, gocv.BorderReplicate, black())
	return toLab(out).p
}
