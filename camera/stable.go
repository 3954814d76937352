package camera

import (
	"fmt"

	"gocv.io/x/gocv"
)

// The sizes, relative to a die's own, of the squares it is read again in: each side moves
// out or in by a little less than a pip's radius (a pip is about a fifth of the side).
const (
	stableGrow   = 1.15
	stableShrink = 0.87
)

// stable reads every die read again from its candidate in a square grown and in one shrunk
// by about a seventh, and makes it unreadable when both read another value or are ambiguous.
// A whole top face reads the same when the square it is looked for in changes a little: its
// pips stay where they are on it. Part of a face (the square shrunk onto the pips of one
// corner when the die's body does not stand out), or a side face read as a die, is read from
// a square whose reach ends where it happens to: looked at wider or narrower, pips come in or
// drop out and the layout changes. Either change alone also catches real faces (a grown
// square takes in a neighbour's pip, a shrunk one cuts a pip off); both together rarely do.
//
// The face networks, which look at the whole face, overturn that refusal when both read the
// pip reader's value in its square, a wider and a narrower one, surely and in every turn
// (netVote at netBlankSure): a small dark green 2 whose pips JPEG's blocks smear reads
// ambiguous in both other squares (TestReadUnstableNet). Over the shared photos, their twelve
// variations and the bench's cuts through each die, that makes no photo misread.
//
// It costs a face read per die, so it is spent only on a reading that would be trusted: one
// unread die, or the wrong number of dice, already keeps the reading from being used. Once
// one die is refused the others are still checked, so that no value shown is one it refuses.
func (r *Reader) stable(img gocv.Mat, dice []Die) {
	if !r.trusted(dice) {
		return
	}
	side := dieSide(dice)
	for i, d := range dice {
		if d.src.side <= 0 {
			continue
		}
		scales := [2]float64{stableGrow, stableShrink}
		var got [2]face
		same := false
		for j, s := range scales {
			c := d.src
			c.side *= s
			got[j] = r.readFaceSized(img, c, true)
			if g := got[j]; g.value == d.Value || g.value == 0 && !g.amb.is() {
				same = true
				break // one square that agrees (or reads nothing) settles it
			}
		}
		if same {
			continue
		}
		if r.nets[0] != nil {
			cx, cy, s := netSquare(d, side)
			if v, _ := r.netStrict(img, cx, cy, s); v == d.Value {
				continue
			}
		}
		dice[i].Why = fmt.Sprintf("unstable: reads %d, but %s in a square %.0f%% as wide and %s in one %.0f%%",
			d.Value, reads(got[0]), 100*scales[0], reads(got[1]), 100*scales[1])
		dice[i].Value, dice[i].doubted = 0, d.Value
	}
}

// reads says what a face read: its value, or that it was ambiguous.
func reads(f face) string {
	if f.amb.is() {
		return "ambiguous"
	}
	return f.valueOr()
}

// trusted says whether a reading of dice would be used: every die read, and as many as
// expected. Checks that cost a face read per die (stable, netConfirm) are spent only then.
func (r *Reader) trusted(dice []Die) bool {
	if r.o.Expect > 0 && len(dice) != r.o.Expect {
		return false
	}
	for _, d := range dice {
		if d.Value == 0 {
			return false
		}
	}
	return true
}
