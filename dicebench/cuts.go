package dicebench

import (
	"context"
	"fmt"
	"image"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// minCutSide is the smallest picture side a cut may leave: less holds no die worth reading.
const minCutSide = 32

// CutSet scores one folder's photos cut through their dice (BenchCuts).
type CutSet struct {
	Name string `json:"name"`
	Cuts int    `json:"cuts"` // cut photos read
	// Refused: reported other than read, as a die partly outside the picture should be.
	// Read: reported read with every die found the value of its box. Misread: reported read
	// with a die whose value is not its box's, or that lies in no box: the failure that matters.
	Refused  int      `json:"refused"`
	Read     int      `json:"read"`
	Misread  int      `json:"misread"`
	Misreads []string `json:"misreads,omitempty"` // "file left 0.5 of the 4 at (x,y) keep (x0,y0)-(x1,y1): dice [..] read [..]"
	MedianMS float64  `json:"median_ms"`
	P95MS    float64  `json:"p95_ms"`
	ms       []float64
}

// CutReport is the result of BenchCuts.
type CutReport struct {
	Sets  []CutSet `json:"sets"`
	Total CutSet   `json:"total"`
}

// A cut is one way of cutting a photo through a die: the part of the photo kept.
type cut struct {
	side string // the side of the die cut off: left, right, top, bottom
	frac float64
	die  labelBox
	keep image.Rectangle
}

// cutsOf lists the cuts through every labelled die of a w×h photo: each die cut from each
// side at 0.3, 0.5 and 0.7 of its box, the picture ending there.
func cutsOf(boxes []labelBox, w, h int) []cut {
	var out []cut
	for _, b := range boxes {
		bw, bh := float64(b.r.Dx()), float64(b.r.Dy())
		// Cut off a third of the die, half of it, and all but a sliver.
		for _, f := range []float64{0.3, 0.5, 0.7} {
			x0 := b.r.Min.X + int(math.Round(f*bw)) // the left f of the die cut off
			x1 := b.r.Max.X - int(math.Round(f*bw))
			y0 := b.r.Min.Y + int(math.Round(f*bh))
			y1 := b.r.Max.Y - int(math.Round(f*bh))
			for _, c := range []cut{
				{"left", f, b, image.Rect(x0, 0, w, h)},
				{"right", f, b, image.Rect(0, 0, x1, h)},
				{"top", f, b, image.Rect(0, y0, w, h)},
				{"bottom", f, b, image.Rect(0, 0, w, y1)},
			} {
				c.keep = c.keep.Intersect(image.Rect(0, 0, w, h))
				if c.keep.Dx() >= minCutSide && c.keep.Dy() >= minCutSide {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// BenchCuts cuts every photo with labelled boxes (boxes.csv) through each of its dice, as a
// tray's rim or a camera's field of view cuts a die, and reads each cut photo. A cut die
// shows part of its face, and part of a face can look like a smaller one (the row of a 4
// cut in half is a 2); the reader must refuse it or read it right, and read the whole dice
// as it does uncut. Photos without boxes, and with more than o.MaxDice dice, are left out.
func BenchCuts(ctx context.Context, dirs []string, r *dice.Reader, o BenchOpts) (CutReport, error) {
	rep := CutReport{Total: CutSet{Name: "total"}}
	for _, dir := range dirs {
		photos, err := loadLabels(dir)
		if err != nil {
			return rep, err
		}
		set := CutSet{Name: filepath.Base(filepath.Clean(dir))}
		if o.MaxDice > 0 {
			set.Name = fmt.Sprintf("%s<=%d", set.Name, o.MaxDice)
		}
		for _, p := range photos {
			if len(p.boxes) == 0 || (o.MaxDice > 0 && len(p.values) > o.MaxDice) {
				continue
			}
			if err := benchCutPhoto(ctx, dir, p, r, o, &set); err != nil {
				return rep, err
			}
		}
		if set.Cuts == 0 {
			continue
		}
		set.finish()
		rep.Sets = append(rep.Sets, set)
		rep.Total.add(set)
	}
	rep.Total.finish()
	return rep, nil
}

func benchCutPhoto(ctx context.Context, dir string, p labelled, r *dice.Reader, o BenchOpts, s *CutSet) error {
	img := gocv.IMRead(filepath.Join(dir, p.file), gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("bench %s: cannot decode %s: check the file is a JPEG or PNG image", dir, p.file)
	}
	for _, c := range cutsOf(p.boxes, img.Cols(), img.Rows()) {
		if err := ctx.Err(); err != nil {
			return err
		}
		part := img.Region(c.keep)
		m := part.Clone() // a picture of its own, as a camera frame is, not a view into the photo
		part.Close()
		t0 := time.Now()
		rd := r.Read(m)
		s.ms = append(s.ms, float64(time.Since(t0).Microseconds())/1000)
		s.Cuts++
		there := keptBoxes(p.boxes, c.keep)
		switch {
		case rd.Status != dice.StatusRead:
			s.Refused++
		case wrongValue(there, rd):
			s.Misread++
			at := c.die.r.Min.Add(c.die.r.Max).Div(2)
			s.Misreads = append(s.Misreads, fmt.Sprintf("%s %s %.1f of the %d at %v keep %v: dice %v read %v",
				p.file, c.side, c.frac, c.die.value, at, c.keep, boxValues(there), rd.Values()))
			if o.Failures != "" {
				name := fmt.Sprintf("%s-%s%.1f-%dx%d.png", strings.TrimSuffix(p.file, filepath.Ext(p.file)), c.side, c.frac, at.X, at.Y)
				if err := writeFailure(filepath.Join(o.Failures, name), m, rd); err != nil {
					m.Close()
					return err
				}
			}
		default:
			s.Read++
		}
		m.Close()
	}
	return nil
}

// keptBoxes returns the boxes of the dice still in the picture after the cut, whole or in
// part, clipped to it and moved to its corner.
func keptBoxes(boxes []labelBox, keep image.Rectangle) []labelBox {
	var out []labelBox
	for _, b := range boxes {
		if k := b.r.Intersect(keep); !k.Empty() {
			out = append(out, labelBox{value: b.value, r: k.Sub(keep.Min)})
		}
	}
	return out
}

// wrongValue reports whether a die was read with a value other than its box's, or read where
// no die is, or whether the values read are not among those of the dice there. A die's box is
// the nearest that holds its centre or whose centre its box holds: matteop65 boxes part of a
// top face only, and a die read whole is centred outside such a box.
func wrongValue(there []labelBox, rd dice.Reading) bool {
	if got := rd.Values(); intersect(boxValues(there), got) < len(got) {
		return true
	}
	for _, d := range rd.Dice {
		if d.Value == 0 {
			continue
		}
		c := dieCentre(d)
		best, bd := -1, math.Inf(1)
		for i, b := range there {
			bc := b.r.Min.Add(b.r.Max).Div(2)
			if dd := math.Hypot(float64(c.X-bc.X), float64(c.Y-bc.Y)); (c.In(b.r) || bc.In(d.Box)) && dd < bd {
				best, bd = i, dd
			}
		}
		if best < 0 || there[best].value != d.Value {
			return true
		}
	}
	return false
}

// boxValues is the values of the dice in boxes.
func boxValues(boxes []labelBox) []int {
	var vals []int
	for _, b := range boxes {
		vals = append(vals, b.value)
	}
	return vals
}

func (s *CutSet) add(o CutSet) {
	s.Cuts += o.Cuts
	s.Refused += o.Refused
	s.Read += o.Read
	s.Misread += o.Misread
	s.ms = append(s.ms, o.ms...)
}

func (s *CutSet) finish() { s.MedianMS, s.P95MS = timing(s.ms) }
