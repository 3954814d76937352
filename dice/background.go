package dice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"

	"github.com/cantstop/cantstop/camera"
	"gocv.io/x/gocv"
)

// Background is the rig's empty table as its fixed camera sees it, made at calibration (the
// empty tray, and the confirmed rolls round their dice). A detector peak on a spot that looks
// as it does there is part of the rig (a screw head, a stain, a printed pip), not a die, and
// the reader drops it before reading faces: such spots otherwise make every frame unreadable.
// A die lying on that spot changes it, so it stays. Pixels a die covered in every frame given
// are not known, and a peak there is kept.
type Background struct {
	// Frame is the size of the frames it was made from and applies to.
	Frame image.Point
	// Size is the size it is kept at: the frame shrunk to BackgroundSide on its longer side.
	Size image.Point
	// Pix is Size.X x Size.Y BGR pixels, row by row; Known says which of them were seen
	// uncovered (one per pixel).
	Pix   []byte
	Known []bool
}

// Background tuning, measured on the shared rigs (BENCHMARKS-dice.md):
const (
	// BackgroundSide is the longer side of a Background in pixels.
	BackgroundSide = 320
	// maskGrow: a die's box is masked this much larger, for its shadow and the detector's
	// box error.
	maskGrow = 1.6
	// spotGrow: a peak is compared on its box this much larger, so that a die's edges are in it.
	spotGrow = 1.5
	// staticCorr is how closely a spot's pixels must follow the background's (correlation of
	// the two patches, mean colours taken off: light that changes a little changes no shape) for
	// it to be part of the rig. Measured with 10 photos for the background: nell-byler's screw
	// heads 0.88-0.99; held-out dice of the three photo rigs at most 0.73.
	staticCorr = 0.85
	// minSpread: a background patch flatter than this (standard deviation, BGR levels) has no
	// shape to follow, and any die correlates with its noise as well as a stain does.
	minSpread = 10.0
	// staticShift is how far, in background pixels, a spot may have moved (a camera on a stand
	// that was touched).
	staticShift = 3
	// minKnown is the share of a spot's pixels that must be known to compare it.
	minKnown = 0.8
)

// BackgroundMaker makes a Background from frames of one fixed camera, keeping each frame only
// at the background's size, and the boxes of its dice.
type BackgroundMaker struct {
	frame, size image.Point
	small       [][]byte
	cover       [][]image.Rectangle // per frame, the pixels round its dice
}

// Add takes a frame with the boxes of the dice in it (frame pixels; none for the empty tray):
// the pixels round those dice are not the background. A frame of another size than the first
// is refused.
func (m *BackgroundMaker) Add(frame gocv.Mat, dice []image.Rectangle) error {
	if frame.Empty() || frame.Type() != gocv.MatTypeCV8UC3 {
		return errors.New("background: not a colour frame")
	}
	fs := image.Pt(frame.Cols(), frame.Rows())
	if len(m.small) == 0 {
		m.frame, m.size = fs, backgroundSize(fs)
	} else if fs != m.frame {
		return fmt.Errorf("background: a frame of %dx%d after frames of %dx%d: one camera, one size", fs.X, fs.Y, m.frame.X, m.frame.Y)
	}
	r := gocv.NewMat()
	defer r.Close()
	gocv.Resize(frame, &r, m.size, 0, 0, gocv.InterpolationArea)
	s := float64(m.size.X) / float64(fs.X)
	var cover []image.Rectangle
	for _, b := range dice {
		if c := scaleRect(grow(b, maskGrow), s).Intersect(image.Rectangle{Max: m.size}); !c.Empty() {
			cover = append(cover, c)
		}
	}
	m.small = append(m.small, r.ToBytes())
	m.cover = append(m.cover, cover)
	return nil
}

// Frames is how many frames were added.
func (m *BackgroundMaker) Frames() int { return len(m.small) }

// Make returns the background: each pixel the median of the frames that had no die on it.
func (m *BackgroundMaker) Make() (*Background, error) {
	if len(m.small) == 0 {
		return nil, errors.New("background: no frames")
	}
	n := m.size.X * m.size.Y
	bg := &Background{Frame: m.frame, Size: m.size, Pix: make([]byte, 3*n), Known: make([]bool, n)}
	v := make([]byte, 0, len(m.small))
	covered := func(i int, p image.Point) bool {
		for _, c := range m.cover[i] {
			if p.In(c) {
				return true
			}
		}
		return false
	}
	seen := make([]int, 0, len(m.small)) // the frames with no die on the pixel
	for p := 0; p < n; p++ {
		pt := image.Pt(p%m.size.X, p/m.size.X)
		seen = seen[:0]
		for i := range m.small {
			if !covered(i, pt) {
				seen = append(seen, i)
			}
		}
		if len(seen) == 0 {
			continue
		}
		for c := 0; c < 3; c++ {
			v = v[:0]
			for _, i := range seen {
				v = append(v, m.small[i][3*p+c])
			}
			slices.Sort(v)
			bg.Pix[3*p+c] = v[len(v)/2]
		}
		bg.Known[p] = true
	}
	return bg, nil
}

// Check reports what is wrong with a Background (one read from a file).
func (b *Background) Check() error {
	n := b.Size.X * b.Size.Y
	switch {
	case b.Frame.X <= 0 || b.Frame.Y <= 0 || b.Size.X <= 0 || b.Size.Y <= 0:
		return fmt.Errorf("background of %v for frames of %v: want positive sizes", b.Size, b.Frame)
	case max(b.Frame.X, b.Frame.Y) > camera.MaxImageSide:
		return fmt.Errorf("background for frames of %v: want at most %d pixels a side", b.Frame, camera.MaxImageSide)
	case b.Size != backgroundSize(b.Frame):
		return fmt.Errorf("background of %v for frames of %v: want %v", b.Size, b.Frame, backgroundSize(b.Frame))
	case len(b.Pix) != 3*n || len(b.Known) != n:
		return fmt.Errorf("background of %v with %d bytes and %d known flags: want %d and %d", b.Size, len(b.Pix), len(b.Known), 3*n, n)
	}
	return nil
}

// Known share is the share of its pixels seen uncovered.
func (b *Background) KnownShare() float64 {
	k := 0
	for _, ok := range b.Known {
		if ok {
			k++
		}
	}
	return float64(k) / float64(max(1, len(b.Known)))
}

// staticDrop splits the candidates into those that are not part of the rig and those that are,
// its spots. A frame of another size than the background's keeps them all.
func (b *Background) staticDrop(frame gocv.Mat, cands []cand) (kept, spots []cand) {
	if b == nil || frame.Cols() != b.Frame.X || frame.Rows() != b.Frame.Y {
		return cands, nil
	}
	kept = cands[:0:0]
	for _, k := range cands {
		if b.static(frame, k) {
			spots = append(spots, k)
			continue
		}
		kept = append(kept, k)
	}
	return kept, spots
}

// hidFaces says whether a spot of the rig the background dropped may hide a misread: one at
// least th.Peak sure that decide would not have passed over without a word (the network calls
// it bare and reads no value of it at th.Doubt). Where the thresholds were set such a spot made
// its frame unreadable, so they never judged that frame's other faces (BENCHMARKS-dice.md, a
// background learnt in play); a spot the network calls bare changed nothing there.
func (m *model) hidFaces(frame gocv.Mat, spots []cand, th thresholds) (bool, error) {
	var strong []cand
	for _, k := range spots {
		if k.peak >= th.Peak {
			strong = append(strong, k)
		}
	}
	if len(strong) == 0 {
		return false, nil
	}
	f, err := m.faceProbs(frame, strong, nil)
	if err != nil {
		return false, fmt.Errorf("read the rig's spots: %w", err)
	}
	defer f.Close()
	for _, p := range f.net {
		if p[0] < 0.5 || maxFace(p) >= th.Doubt {
			return true, nil
		}
	}
	return false, nil
}

// static says whether the spot of a candidate looks as it does on the background.
func (b *Background) static(frame gocv.Mat, k cand) bool {
	corr, spread, ok := b.compare(frame, k)
	return ok && corr >= staticCorr && spread >= minSpread
}

// compare correlates a candidate's spot with the background (the patch grown spotGrow, mean
// colours taken off: OpenCV's TM_CCOEFF_NORMED), best over shifts of up to staticShift
// background pixels, and gives the spread of the background's patch there. ok is false where
// too little of the spot is known.
func (b *Background) compare(frame gocv.Mat, k cand) (corr, spread float64, ok bool) {
	s := float64(b.Size.X) / float64(b.Frame.X)
	r := scaleRect(grow(box(k), spotGrow), s).Intersect(image.Rectangle{Max: b.Size}.Inset(staticShift))
	if r.Dx() < 3 || r.Dy() < 3 {
		return 0, 0, false
	}
	search := r.Inset(-staticShift)
	known := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if b.Known[y*b.Size.X+x] {
				known++
			}
		}
	}
	if float64(known) < minKnown*float64(r.Dx()*r.Dy()) {
		return 0, 0, false
	}
	// The frame's patch at the background's scale: its region shrunk by the same factor.
	fr := scaleRect(r, 1/s).Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
	if fr.Empty() {
		return 0, 0, false
	}
	reg := frame.Region(fr)
	patch := gocv.NewMat()
	defer patch.Close()
	gocv.Resize(reg, &patch, r.Size(), 0, 0, gocv.InterpolationArea)
	reg.Close()
	pix := make([]byte, 0, 3*search.Dx()*search.Dy())
	for y := search.Min.Y; y < search.Max.Y; y++ {
		pix = append(pix, b.Pix[3*(y*b.Size.X+search.Min.X):3*(y*b.Size.X+search.Max.X)]...)
	}
	area, err := gocv.NewMatFromBytes(search.Dy(), search.Dx(), gocv.MatTypeCV8UC3, pix)
	if err != nil {
		return 0, 0, false
	}
	defer area.Close()
	res := gocv.NewMat()
	defer res.Close()
	none := gocv.NewMat()
	defer none.Close()
	gocv.MatchTemplate(area, patch, &res, gocv.TmCcoeffNormed, none)
	_, best, _, at := gocv.MinMaxLoc(res)
	// The spread of the background's patch where it matched best.
	var sum, sq [3]float64
	for y := 0; y < r.Dy(); y++ {
		row := 3 * ((search.Min.Y+at.Y+y)*b.Size.X + search.Min.X + at.X)
		for i, v := range b.Pix[row : row+3*r.Dx()] {
			sum[i%3] += float64(v)
			sq[i%3] += float64(v) * float64(v)
		}
	}
	n := float64(r.Dx() * r.Dy())
	var v float64
	for c := range sum {
		v += max(0, sq[c]/n-(sum[c]/n)*(sum[c]/n))
	}
	return float64(best), math.Sqrt(v / 3), true
}

// backgroundSize is the size a Background of frames of size fs is kept at.
func backgroundSize(fs image.Point) image.Point {
	s := float64(BackgroundSide) / float64(max(fs.X, fs.Y, 1))
	return image.Pt(max(1, int(math.Round(float64(fs.X)*s))), max(1, int(math.Round(float64(fs.Y)*s))))
}

// grow is r grown by factor f round its centre.
func grow(r image.Rectangle, f float64) image.Rectangle {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	hw, hh := float64(r.Dx())*f/2, float64(r.Dy())*f/2
	return image.Rect(int(math.Floor(cx-hw)), int(math.Floor(cy-hh)), int(math.Ceil(cx+hw)), int(math.Ceil(cy+hh)))
}

// scaleRect is r in pixels of an image scaled by s, rounded outward.
func scaleRect(r image.Rectangle, s float64) image.Rectangle {
	return image.Rect(int(math.Floor(float64(r.Min.X)*s)), int(math.Floor(float64(r.Min.Y)*s)),
		int(math.Ceil(float64(r.Max.X)*s)), int(math.Ceil(float64(r.Max.Y)*s)))
}

// backgroundJSON is how a Background is saved: a PNG whose alpha marks the known pixels.
type backgroundJSON struct {
	Frame [2]int `json:"frame"` // width, height of the frames it applies to
	PNG   []byte `json:"png"`   // base64 in JSON
}

// MarshalJSON saves the background as a PNG (about 100 kB for a 320-px tray).
func (b *Background) MarshalJSON() ([]byte, error) {
	img := image.NewNRGBA(image.Rectangle{Max: b.Size})
	for p, ok := range b.Known {
		o := 4 * p
		img.Pix[o], img.Pix[o+1], img.Pix[o+2] = b.Pix[3*p+2], b.Pix[3*p+1], b.Pix[3*p]
		if ok {
			img.Pix[o+3] = 255
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("background: %w", err)
	}
	return json.Marshal(backgroundJSON{Frame: [2]int{b.Frame.X, b.Frame.Y}, PNG: buf.Bytes()})
}

// BackgroundError is what is wrong with a saved Background.
type BackgroundError struct{ Err error }

func (e *BackgroundError) Error() string { return e.Err.Error() }
func (e *BackgroundError) Unwrap() error { return e.Err }

// UnmarshalJSON reads a saved background and checks it; what is wrong is a *BackgroundError.
func (b *Background) UnmarshalJSON(data []byte) error {
	nb, err := parseBackground(data)
	if err != nil {
		return &BackgroundError{err}
	}
	*b = nb
	return nil
}

func parseBackground(data []byte) (Background, error) {
	var j backgroundJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return Background{}, err
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(j.PNG))
	if err != nil {
		return Background{}, fmt.Errorf("background picture: %w", err)
	}
	if cfg.Width > BackgroundSide || cfg.Height > BackgroundSide {
		return Background{}, fmt.Errorf("background picture of %dx%d: want at most %d pixels a side", cfg.Width, cfg.Height, BackgroundSide)
	}
	img, err := png.Decode(bytes.NewReader(j.PNG))
	if err != nil {
		return Background{}, fmt.Errorf("background picture: %w", err)
	}
	sz := img.Bounds().Size()
	nb := Background{Frame: image.Pt(j.Frame[0], j.Frame[1]), Size: sz, Pix: make([]byte, 3*sz.X*sz.Y), Known: make([]bool, sz.X*sz.Y)}
	for y := 0; y < sz.Y; y++ {
		for x := 0; x < sz.X; x++ {
			c := color.NRGBAModel.Convert(img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y)).(color.NRGBA)
			p := y*sz.X + x
			nb.Pix[3*p], nb.Pix[3*p+1], nb.Pix[3*p+2] = c.B, c.G, c.R
			nb.Known[p] = c.A == 255
		}
	}
	return nb, nb.Check()
}
