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
	// Untaught is the general reader, neither adapted nor given a background, on the photos
	// measured (those with at most MaxDice dice): what learning the rig changed. The first
	// photos by name are often of another session than the rest, so the set's score beside the
	// whole folder's untaught one would mix the two.
	Untaught BenchSet `json:"untaught"`
}

// splitAdapt splits a folder's photos into the first o.Adapt by name with at most o.MaxDice
// dice (if o.MaxDice > 0), which teach the reader, and the rest, in name order.
func splitAdapt(photos []labelled, o BenchOpts) (teach, rest []labelled) {
	for _, p := range byName(photos) {
		if len(teach) == o.Adapt || o.MaxDice > 0 && len(p.values) > o.MaxDice {
			rest = append(rest, p)
			continue
		}
		teach = append(teach, p)
	}
	return teach, rest
}

// untaught scores the general reader (r adapted to nothing, without a background) on the
// photos with at most o.MaxDice dice, as set name: AdaptInfo.Untaught.
func untaught(ctx context.Context, dir, name string, photos []labelled, r *dice.Reader, o BenchOpts, vary Variation) (BenchSet, error) {
	s := BenchSet{Name: name}
	if _, err := r.Adapt(nil); err != nil {
		return s, err
	}
	if err := r.SetBackground(nil); err != nil {
		return s, err
	}
	o.Failures = "" // the adapted reader's failures are the ones pictured
	for _, p := range photos {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		if o.MaxDice > 0 && len(p.values) > o.MaxDice {
			continue
		}
		if err := benchPhoto(ctx, dir, p, r, o, vary, &s); err != nil {
			return s, err
		}
	}
	s.finish()
	s.Failed, s.WrongDice, s.MisreadPhotos = nil, nil, nil
	return s, nil
}

// adaptTo reads the photos of teach (splitAdapt's) with the general reader, labels their dice
// with the photos' labels as the players' confirmations (dice.Label) and adapts r to them. The
// same photos, their dice masked (by the labels' boxes, or the reading's), make the reader's
// background unless o.NoBackground.
func adaptTo(ctx context.Context, dir string, teach []labelled, r *dice.Reader, o BenchOpts, vary Variation) (AdaptInfo, error) {
	var info AdaptInfo
	if _, err := r.Adapt(nil); err != nil {
		return info, err
	}
	if err := r.SetBackground(nil); err != nil {
		return info, err
	}
	var bg dice.BackgroundMaker
	var ex []dice.Example
	for _, p := range teach {
		if err := ctx.Err(); err != nil {
			return info, err
		}
		img, err := loadPhoto(dir, p.file, vary)
		if err != nil {
			return info, err
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
		return info, fmt.Errorf("bench %s: %w", dir, err)
	}
	info.Adaptation = a
	if bg.Frames() > 0 && !o.NoBackground {
		b, err := bg.Make()
		if err == nil {
			err = r.SetBackground(b)
		}
		if err != nil {
			return info, fmt.Errorf("bench %s: %w", dir, err)
		}
	}
	return info, nil
}

// byName is a copy of photos in name order: the order they were taken in, as rolls of a game.
func byName(photos []labelled) []labelled {
	photos = slices.Clone(photos)
	slices.SortStableFunc(photos, func(a, b labelled) int { return strings.Compare(a.file, b.file) })
	return photos
}
