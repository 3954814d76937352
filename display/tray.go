package display

import (
	"fmt"
	"image"
	"image/color"
	"sort"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// TrayBox is the tray being marked on the device's buttons (KindTray): the empty tray as the
// camera sees it and the box the dice land in. Screen.Selected is the edge being moved
// (EdgeLeft..EdgeBottom) or EdgeNone while the whole box is shown for OK.
type TrayBox struct {
	Picture image.Image     // the whole frame, at any scale (the OLED shows it shrunk and dithered)
	Frame   image.Point     // the frame's size in pixels: Box's coordinates
	Box     image.Rectangle // the tray, in frame pixels
	Found   bool            // Box is the tray calibration found, not yet moved
}

// The edges of a TrayBox, in the order the buttons visit them.
const (
	EdgeLeft = iota
	EdgeTop
	EdgeRight
	EdgeBottom
	EdgeNone
)

// pictureRect is where the tray's picture goes: the body's height less a pixel above and
// below, at the frame's aspect, against the left edge.
func pictureRect(frame image.Point) image.Rectangle {
	h := Height - bodyTop - 2
	w := h * 4 / 3
	if frame.X > 0 && frame.Y > 0 {
		w = min(Width/2+16, max(8, (h*frame.X+frame.Y/2)/frame.Y))
	}
	return image.Rect(0, bodyTop+1, w, bodyTop+1+h)
}

func composeTray(c *content, s Screen, t tr) {
	b := s.Tray.Box
	box := para{text: fmt.Sprintf("%d,%d – %d,%d", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)}
	switch {
	case s.Selected >= EdgeLeft && s.Selected <= EdgeBottom:
		c.title = t.f(mTEdgeLeft + msg(s.Selected))
		c.pos = fmt.Sprintf("%d/4", s.Selected+1)
		c.add(box)
		c.add(para{text: t.f(mTrayMove), optional: true})
		c.add(para{text: t.f(mTrayNext), optional: true})
	default:
		c.title = t.f(mTTray)
		if s.Tray.Found {
			c.title = t.f(mSTCalTray)
		}
		c.add(box)
		c.add(para{text: t.f(mTrayUse), optional: true})
		c.add(para{text: t.f(mTrayFix), optional: true})
		c.add(para{text: t.f(mTrayQuit), optional: true})
	}
}

// drawTray paints the body of a KindTray screen: the picture with the box on it, and the
// buttons' hints (c's optional paragraphs) beside it, one a row, as many as fit.
func drawTray(img *image1bit.VerticalLSB, s Screen, c content) error {
	pr := pictureRect(s.Tray.Frame)
	if s.Tray.Picture != nil {
		dither(img, s.Tray.Picture, pr)
	}
	if f := s.Tray.Frame; f.X > 0 && f.Y > 0 {
		sx, sy := float64(pr.Dx())/float64(f.X), float64(pr.Dy())/float64(f.Y)
		b := s.Tray.Box
		r := image.Rect(pr.Min.X+int(float64(b.Min.X)*sx), pr.Min.Y+int(float64(b.Min.Y)*sy),
			pr.Min.X+int(float64(b.Max.X)*sx+0.5), pr.Min.Y+int(float64(b.Max.Y)*sy+0.5))
		r.Max.X, r.Max.Y = max(r.Max.X, r.Min.X+1), max(r.Max.Y, r.Min.Y+1)
		drawBox(img, r.Intersect(pr), s.Selected)
	}
	x, y := pr.Max.X+2, bodyTop
	var errs error
	for _, p := range c.paras {
		if !p.optional {
			continue
		}
		if w := measure(p.text); x+w > textLeft+textWidth {
			errs = fmt.Errorf("tray hint %q is %d px wide, %d beside the picture: shorten it", p.text, w, textLeft+textWidth-x)
			continue
		}
		drawText(img, x, y+ascent, 1, p.text, image1bit.On)
		y += rowH
	}
	return errs
}

// drawBox draws the box's edges as light lines with a dark rim, so they show on any picture.
// While an edge is moved it is drawn three times as thick and the others dashed.
func drawBox(img *image1bit.VerticalLSB, r image.Rectangle, sel int) {
	edges := [4]image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1),
		image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y),
	}
	moving := sel >= EdgeLeft && sel <= EdgeBottom
	if moving {
		if sel == EdgeLeft || sel == EdgeRight {
			edges[sel].Min.X--
			edges[sel].Max.X++
		} else {
			edges[sel].Min.Y--
			edges[sel].Max.Y++
		}
	}
	for _, e := range edges {
		fill(img, e.Inset(-1).Intersect(img.Bounds()), image1bit.Off)
	}
	for i, e := range edges {
		e = e.Intersect(img.Bounds())
		for y := e.Min.Y; y < e.Max.Y; y++ {
			for x := e.Min.X; x < e.Max.X; x++ {
				if !moving || i == sel || (x+y)/2%2 == 0 {
					img.SetBit(x, y, image1bit.On)
				}
			}
		}
	}
}

// bayer is the 4×4 ordered-dither matrix: thresholds in sixteenths.
var bayer = [4][4]uint8{{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}}

// dither draws pic shrunk into r as 1-bit pixels: each pixel the mean grey of its part of
// pic, stretched between the picture's 2nd and 98th percentile, then ordered-dithered.
func dither(img *image1bit.VerticalLSB, pic image.Image, r image.Rectangle) {
	pb := pic.Bounds()
	if pb.Empty() || r.Empty() {
		return
	}
	w, h := r.Dx(), r.Dy()
	grey := make([]float64, w*h)
	for y := 0; y < h; y++ {
		y0, y1 := pb.Min.Y+y*pb.Dy()/h, pb.Min.Y+max((y+1)*pb.Dy()/h, y*pb.Dy()/h+1)
		for x := 0; x < w; x++ {
			x0, x1 := pb.Min.X+x*pb.Dx()/w, pb.Min.X+max((x+1)*pb.Dx()/w, x*pb.Dx()/w+1)
			sum, n := 0.0, 0
			// At most 4×4 samples a pixel: a 4000 px photo costs no more than a small one.
			for yy := y0; yy < y1; yy += max(1, (y1-y0)/4) {
				for xx := x0; xx < x1; xx += max(1, (x1-x0)/4) {
					sum += float64(color.GrayModel.Convert(pic.At(xx, yy)).(color.Gray).Y)
					n++
				}
			}
			grey[y*w+x] = sum / float64(n)
		}
	}
	sorted := append([]float64(nil), grey...)
	sort.Float64s(sorted)
	lo, hi := sorted[len(sorted)*2/100], sorted[len(sorted)*98/100]
	if hi-lo < 16 {
		lo, hi = lo-8, hi+8
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := (grey[y*w+x] - lo) / (hi - lo) * 16
			setBit(img, r.Min.X+x, r.Min.Y+y, image1bit.Bit(v > float64(bayer[y%4][x%4])+0.5))
		}
	}
}
