package dicebench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cantstop/cantstop/dice"
)

// AdaptInfo is how the reader was adapted to a folder (BenchOpts.Adapt).
type AdaptInfo struct {
	// Photos are the first photos by name that stood in for the players' confirmed rolls.
	Photos []string `json:"photos"`
	// Learnt is how many of their dice dice.Label made examples of.
	Learnt     int             `json:"learnt"`
	Adaptation dice.Adaptation `json:"adaptation"`
	MS         float64         `json:"ms"` // the time dice.Reader.Adapt took
	// Background is how many of those photos, the dice in them masked, the rig's background
	// (dice.Background) was made from: those of the first photo's size (0 with NoBackground).
	Background int `json:"background"`
}

// adaptTo reads the first o.Adapt photos of a folder by name (of those with at most o.MaxDice
// dice, if o.MaxDice > 0) with the general reader, labels their dice with the photos' labels as
// the players' confirmations (dice.Label) and adapts r to them. The same photos, their dice
// masked (by the labels' boxes, or the reading's), make the reader's background unless
// o.NoBackground. It returns the photos left to measure.
func adaptTo(ctx context.Context, dir string, photos []labelled, r *dice.Reader, o BenchOpts, vary Variation) ([]labelled, AdaptInfo, error) {
	k, maxDice := o.Adapt, o.MaxDice
	var info AdaptInfo
	if _, err := r.Adapt(nil); err != nil {
		return nil, info, err
	}
	if err := r.SetBackground(nil); err != nil {
		return nil, info, err
	}
	var bg dice.BackgroundMaker
	photos = byName(photos)
	var ex []dice.Example
	var rest []labelled
	for _, p := range photos {
		if len(info.Photos) == k || maxDice > 0 && len(p.values) > maxDice {
			rest = append(rest, p)
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, info, err
		}
		img, err := loadPhoto(dir, p.file, vary)
		if err != nil {
			return nil, info, err
		}
		rd := r.Read(img)
		boxes := rd.Boxes()
		if len(p.boxes) > 0 {
			boxes = boxes[:0]
			for _, b := range p.boxes {
				boxes = append(boxes, b.r)
			}
		}
		if !o.NoBackground && bg.Add(img, boxes) == nil {
			info.Background++
		} // a photo of another size is of another camera: it is not the background
		img.Close()
		got := dice.Label(rd, p.values)
		ex = append(ex, got...)
		info.Photos = append(info.Photos, p.file)
	}
	info.Learnt = len(ex)
	t0 := time.Now()
	a, err := r.Adapt(ex)
	info.MS = float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return nil, info, fmt.Errorf("bench %s: %w", dir, err)
	}
	info.Adaptation = a
	if bg.Frames() > 0 && !o.NoBackground {
		b, err := bg.Make()
		if err == nil {
			err = r.SetBackground(b)
		}
		if err != nil {
			return nil, info, fmt.Errorf("bench %s: %w", dir, err)
		}
	}
	return rest, info, nil
}

// byName is a copy of photos in name order: the order they were taken in, as rolls of a game.
func byName(photos []labelled) []labelled {
	photos = slices.Clone(photos)
	slices.SortStableFunc(photos, func(a, b labelled) int { return strings.Compare(a.file, b.file) })
	return photos
}
