package dice

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// BackgroundScenes is how many still scenes a Reader that learns its background takes the
// median of (LearnBackground): about two rounds of play at the table.
const BackgroundScenes = 8

// learntKnown is the least share of its pixels a learnt background must know: dice that lay
// on one spot in half the scenes leave it unknown, and the scenes are then taken again.
const learntKnown = 0.95

// LearnBackground has a reader without a background make one itself from the still scenes
// Settle settles on: the median of n of them, each scene's surely read dice masked. The dice
// land elsewhere each roll and the rig's own spots (a screw head, a stain, a printed pip) stay,
// so those are then dropped as calibration's background drops them. It goes on learning: each
// n scenes more make the background anew, so a camera moved or a tray put elsewhere is learnt
// again within n rolls. It is for a camera that was not calibrated (n = 0: none learnt); a
// background set later (SetBackground) wins and is kept as it is. from, when not nil, is one
// learnt before (kept from the last start): it is used until the next n scenes make another.
func (r *Reader) LearnBackground(n int, from *Background) error {
	if from != nil {
		if err := from.Check(); err != nil {
			return fmt.Errorf("learnt background: %w", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.learnBg, r.bgm = n, nil
	if n > 0 && from != nil && (r.bg == nil || r.bgLearnt) {
		r.bg, r.bgLearnt = from, true
	}
	return nil
}

// LearntBackground is the background the reader learnt (LearnBackground), or nil: none yet, or
// one set by SetBackground. It must not be changed.
func (r *Reader) LearntBackground() *Background {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.bgLearnt {
		return nil
	}
	return r.bg
}

// stillScene takes a still scene Settle settled on (frame, read as rd) for the background the
// reader learns. A frame of another size starts the scenes again.
func (r *Reader) stillScene(frame gocv.Mat, rd Reading) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.learnBg <= 0 || r.bg != nil && !r.bgLearnt || rd.Status == StatusNotSettled {
		return
	}
	if r.bgm == nil {
		r.bgm = &BackgroundMaker{}
	}
	var dice []image.Rectangle
	for _, d := range rd.Dice {
		if d.Value > 0 { // a spot read as no value may be the rig's own: it is left in
			dice = append(dice, d.Box)
		}
	}
	if err := r.bgm.Add(frame, dice); err != nil {
		r.bgm = nil
		return
	}
	if r.bgm.Frames() < r.learnBg {
		return
	}
	bg, err := r.bgm.Make()
	r.bgm = nil
	if err != nil || bg.Check() != nil || bg.KnownShare() < learntKnown {
		return // the last one learnt, if any, stays
	}
	r.bg, r.bgLearnt = bg, true
}
