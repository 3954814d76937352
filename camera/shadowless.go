package camera

import (
	"image"

	"gocv.io/x/gocv"
)

// shadowless is Read's last resort for a photo it refused. On a pale tray a small dark
// die's blob holds its shadow, so the size the blobs vote for is often half as big again
// as the dice and every look at them is cut to that size. The foreground is taken again
// with the tray in shade out of it (the shadows gone, as peel does for a box's walls),
// its blobs vote for their own size, and the photo is finished again from them. Where
// that size is the same as the one used (sameSize), nothing new is seen.
//
// As the only size it loses far more photos than it reads (everything after is tuned to
// the shadowed size), so its reading is taken only where it completes the first: see
// completes. It returns nil when there is none to take.
func (r *Reader) shadowless(img gocv.Mat, off image.Point, sg segmentation, dice []Die, read map[cand]face) []Die {
	dim := float64(max(sg.fg.w, sg.fg.h))
	var fg []int
	for i, b := range sg.fg.b {
		if b {
			fg = append(fg, i)
		}
	}
	minPx := minBlob(dim)
	blobs := peel(sg.fg, sg.shade, blob{px: fg}, minPx)
	var votes []float64
	for _, b := range blobs {
		if b.votes(dim) {
			votes = b.vote(votes)
		}
	}
	side := median(votes)
	if t := dieSide(dice) * sg.scale; side < minDieShare*dim || t > 0 && sameSize(side, t) {
		return nil
	}
	won := cutBlobs(sg.fg, blobs, side, sg.scale, nil)
	alt := r.finish(img, off, r.readBlobs(img, off, won, read), won, read, false)
	if !completes(dice, alt) {
		return nil
	}
	return alt
}

// completes says whether alt, the dice read at the shadowless size, may stand for dice, the
// photo's reading refused: the same dice one to one (each holding the other's centre, so
// none is added or lost), each die read keeping its value, and each die refused read surely
// (confidence at least netBlankSure, the networks' strict threshold). A die refused for its
// value by a check (stable, netConfirm) may be read with that value: the check, run again
// in the square of the dice's own size, has then passed it. No die of either touches the
// picture's edge: there a die cut by it, refused, is read from the part of its face left
// (cut photos' 3s read as 2s).
func completes(dice, alt []Die) bool {
	if len(alt) != len(dice) || !settled(alt) {
		return false
	}
	used := make([]bool, len(alt))
	for _, d := range dice {
		if d.src.edge {
			return false
		}
		n := 0
		for j, a := range alt {
			if !centred(a.Box, d.Box) && !centred(d.Box, a.Box) {
				continue
			}
			if used[j] || a.src.edge || d.Value > 0 && a.Value != d.Value || d.Value == 0 && a.Confidence < netBlankSure {
				return false
			}
			used[j] = true
			n++
		}
		if n != 1 {
			return false
		}
	}
	return true
}
