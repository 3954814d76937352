package dice

import (
	"context"
	"fmt"
	"image"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/cantstop/cantstop/camera"
	"gocv.io/x/gocv"
)

// SettleOpts tunes Settle and WatchRolls.
type SettleOpts struct {
	// Still is the largest mean grey-level change (0-255) between consecutive frames that still
	// counts as "nothing moves".
	Still float64 `json:"still"`
	// Window is how many recent still frames vote; Agree of them must give the same reading.
	Window int `json:"window"`
	Agree  int `json:"agree"`
	// Average is how many still frames are averaged into the picture that is read (1 reads
	// each frame alone): the mean of the first ones, then each new frame weighted 1/Average.
	// The frames of a still tray differ only by the sensor's noise, which the mean of n of
	// them divides by √n: in a dim room or through a soft lens that noise alone makes
	// misreads that every frame repeats, so voting cannot remove them.
	Average int `json:"average"`
	// MaxWait bounds how long Settle waits for the dice to stop (0 = until ctx ends).
	MaxWait time.Duration `json:"max_wait"`
}

// DefaultSettleOpts suits a camera at 10-30 frames per second.
func DefaultSettleOpts() SettleOpts {
	return SettleOpts{Still: 2.5, Window: 5, Agree: 3, Average: 4, MaxWait: 8 * time.Second}
}

func (o SettleOpts) withDefaults() SettleOpts {
	d := DefaultSettleOpts()
	if o.Still <= 0 {
		o.Still = d.Still
	}
	if o.Window <= 0 {
		o.Window = d.Window
	}
	if o.Agree <= 0 || o.Agree > o.Window {
		o.Agree = min(d.Agree, o.Window)
	}
	if o.Average <= 0 {
		o.Average = d.Average
	}
	return o
}

// Settle reads frames from src until the picture has stopped changing and Agree of the last
// Window still frames give the same reading (same status, values and dice positions); that
// reading is returned, a refusal only later (see verdict). Each still frame is read averaged
// with the still frames before it (all since the last movement; see SettleOpts.Average). A
// die that another of the Window frames read in its place with another value (see dissent)
// makes the reading StatusUnreadable, that die refused. If
// MaxWait passes first, the last reading is returned with StatusNotSettled. Errors come
// only from the source or the context.
func Settle(ctx context.Context, src camera.Source, r *Reader, o SettleOpts) (Reading, error) {
	o = o.withDefaults()
	var deadline time.Time
	if o.MaxWait > 0 {
		deadline = time.Now().Add(o.MaxWait)
	}
	var prev []byte
	var votes []Reading
	var last Reading
	var still stillFrames
	defer still.reset()
	seen := 0 // still frames read since the last movement
	for {
		if err := ctx.Err(); err != nil {
			return Reading{}, err
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			last.Status = StatusNotSettled
			last.Why = fmt.Sprintf("dice still moving after %v", o.MaxWait)
			return last, nil
		}
		frame, err := src.Frame(ctx)
		if err != nil {
			return Reading{}, fmt.Errorf("settle: %w", err)
		}
		thumb := thumbnail(frame)
		moved := prev == nil || meanAbsDiff(prev, thumb) > o.Still
		prev = thumb
		if moved {
			frame.Close()
			still.reset()
			votes, seen = votes[:0], 0
			continue
		}
		scene := still.add(frame, thumb, o)
		last = r.Read(scene)
		seen++
		votes = append(votes, last)
		if len(votes) > o.Window {
			votes = votes[1:]
		}
		rd, ok := verdict(votes, o, seen)
		if !ok {
			continue
		}
		// Frames of one still scene that read a die two ways say its face is on the edge
		// of being misread: the majority is no proof then, and the die is refused.
		if rd.Status == StatusRead {
			if i := disputed(votes, rd); i >= 0 {
				if len(votes) < o.Window {
					continue
				}
				rd = refuseDisputed(rd, votes, i)
			}
		}
		r.stillScene(scene, rd) // once a scene: what it settled on
		return rd, nil
	}
}

// verdict returns the scene's reading once votes, the readings of the last still frames
// (seen of them since the dice stopped), settle it: Agree of the Window frames read it. A
// refusal must wait for more. Each frame is read averaged with those before it, so the later
// ones are the clearer, and a die refused in the first, noisiest frames is often read in the
// next ones: a refusal stands once the last Agree frames all give it. After twice the
// Window's frames it stands with Agree of the Window, and with fewer the latest reading is
// refused: a still scene whose readings keep changing is not clear enough to trust, and
// waiting on would leave the players with no answer at all.
func verdict(votes []Reading, o SettleOpts, seen int) (Reading, bool) {
	last := votes[len(votes)-1]
	n, run := 0, 0
	for i, v := range votes {
		if sameReading(v, last) {
			n++
			if i >= len(votes)-o.Agree {
				run++
			}
		}
	}
	patient := seen < 2*o.Window
	switch {
	case n >= o.Agree && last.Status == StatusRead:
		return last, true
	case n >= o.Agree && len(votes) == o.Window && (run == o.Agree || !patient):
		return last, true
	case !patient:
		out := last
		out.Status = StatusUnreadable
		out.Why = fmt.Sprintf("no reading held in %d of the last %d still frames: the faces are not clear enough to trust", o.Agree, len(votes))
		return out, true
	}
	return Reading{}, false
}

// disputed returns the index of a die of rd that another vote contradicts (see dissent); -1
// when there is none.
func disputed(votes []Reading, rd Reading) int {
	if rd.Status != StatusRead {
		return -1
	}
	for _, v := range votes {
		for i := range rd.Dice {
			if dissent(v, rd, i) != 0 {
				return i
			}
		}
	}
	return -1
}

// dissent returns the value vote v read, in a reading it trusted (StatusRead), for the die
// in the place of die i of rd (see inPlace) when that value is another; else 0. A die refused
// says nothing of its value: a frame read averaged with fewer frames may just not see it
// clearly yet. The vote's other dice do not matter: its frame is of the same still scene,
// and a die it found or missed elsewhere says nothing of this one.
func dissent(v, rd Reading, i int) int {
	if v.Status != StatusRead {
		return 0
	}
	j := inPlace(v.Dice, rd.Dice[i])
	if j < 0 {
		return 0
	}
	if d := v.Dice[j]; d.Value != 0 && d.Value != rd.Dice[i].Value {
		return d.Value
	}
	return 0
}

// refuseDisputed returns rd with every die the votes contradict made unreadable, first the
// one the reading's Why names.
func refuseDisputed(rd Reading, votes []Reading, first int) Reading {
	out := rd
	out.Dice = append([]Die(nil), rd.Dice...)
	for i, d := range out.Dice {
		seen := map[int]bool{d.Value: true}
		for _, v := range votes {
			if other := dissent(v, rd, i); other != 0 {
				seen[other] = true
			}
		}
		if len(seen) < 2 {
			continue
		}
		var vals []int
		for v := range seen {
			vals = append(vals, v)
		}
		sort.Ints(vals)
		out.Dice[i].Why = fmt.Sprintf("read %s in still frames of it: its face is not clear enough to trust", orList(vals))
		out.Dice[i].Value = 0
	}
	d := out.Dice[first]
	out.Status = StatusUnreadable
	out.Why = fmt.Sprintf("die at (%d,%d): %s", (d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2, d.Why)
	return out
}

// orList writes 2, 3 or 5.
func orList(vals []int) string {
	var b strings.Builder
	for i, v := range vals {
		switch {
		case i == 0:
		case i == len(vals)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprint(&b, v)
	}
	return b.String()
}

// WatchRolls is the hands-free mode: it waits for motion over the tray (a roll), then for the
// dice to settle, and calls fn with each settled reading, until ctx ends or fn returns an error.
// A reading that is StatusNotSettled (the dice never stopped within MaxWait) is not reported.
func WatchRolls(ctx context.Context, src camera.Source, r *Reader, o SettleOpts, fn func(Reading) error) error {
	o = o.withDefaults()
	var prev []byte
	for {
		frame, err := src.Frame(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("watch rolls: %w", err)
		}
		thumb := thumbnail(frame)
		frame.Close()
		// A roll is a clear change, well above the stillness threshold.
		if prev != nil && meanAbsDiff(prev, thumb) > 3*o.Still {
			rd, err := Settle(ctx, src, r, o)
			if err != nil {
				return err
			}
			if rd.Status != StatusNotSettled {
				if err := fn(rd); err != nil {
					return err
				}
			}
			prev = nil
			continue
		}
		prev = thumb
	}
}

// sameReading says whether two readings agree: status, values, and every die within a third of
// its size of where it was.
func sameReading(a, b Reading) bool {
	if a.Status != b.Status || len(a.Dice) != len(b.Dice) {
		return false
	}
	for i := range a.Dice {
		if a.Dice[i].Value != b.Dice[i].Value || !sameSpot(a.Dice[i], b.Dice[i]) {
			return false
		}
	}
	return true
}

// inPlace returns the index of the die of ds nearest to d whose centre lies within
// inPlaceShare of the larger of their boxes' sides from d's, or -1. Dice do not overlap, and
// touching ones lie at least 0.7 of that apart, so such a die is d, however differently its
// box was drawn in another frame.
func inPlace(ds []Die, d Die) int {
	best, bestDist := -1, math.Inf(1)
	c := d.Box.Min.Add(d.Box.Max)
	for j, o := range ds {
		oc := o.Box.Min.Add(o.Box.Max)
		dist := math.Hypot(float64(c.X-oc.X), float64(c.Y-oc.Y)) / 2
		side := float64(max(d.Box.Dx(), d.Box.Dy(), o.Box.Dx(), o.Box.Dy()))
		if dist <= inPlaceShare*side && dist < bestDist {
			best, bestDist = j, dist
		}
	}
	return best
}

// inPlaceShare: see inPlace; below the 0.7 of touching dice by a margin for boxes drawn a
// few pixels off.
const inPlaceShare = 0.6

// sameSpot says whether two dice lie within a third of a's size of each other.
func sameSpot(a, b Die) bool {
	ca, cb := a.Box.Min.Add(a.Box.Max), b.Box.Min.Add(b.Box.Max)
	tol := float64(max(a.Box.Dx(), a.Box.Dy())) / 3 * 2 // centres are doubled
	return math.Hypot(float64(ca.X-cb.X), float64(ca.Y-cb.Y)) <= tol
}

// thumbnail is a small grey copy of a frame for cheap motion detection.
func thumbnail(frame gocv.Mat) []byte {
	if frame.Empty() {
		return nil
	}
	grey := gocv.NewMat()
	defer grey.Close()
	if frame.Channels() == 3 {
		gocv.CvtColor(frame, &grey, gocv.ColorBGRToGray)
	} else {
		frame.CopyTo(&grey)
	}
	small := gocv.NewMat()
	defer small.Close()
	w := 96
	h := max(1, grey.Rows()*w/max(1, grey.Cols()))
	gocv.Resize(grey, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	return small.ToBytes()
}

func meanAbsDiff(a, b []byte) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return math.Inf(1)
	}
	var s float64
	for i := range a {
		s += math.Abs(float64(a[i]) - float64(b[i]))
	}
	return s / float64(len(a))
}
