package camera

import "math"

// maxSizes: perspective makes near dice up to about twice as big as far ones (see oneDice),
// so a face fitted less than a third the side of the biggest face read is no die of this game.
const maxSizes = 3

// biggestFace is the side of the biggest face fitted to two or more pips among the dice read:
// their spacing gives the face's size, while a 1 has the side of the blob it was found in,
// which may hold its shadow or other dice.
func biggestFace(dice []Die) float64 {
	b := 0.0
	for _, d := range dice {
		if d.Value > 0 && len(d.Pips) >= 2 {
			b = math.Max(b, d.fc.w)
		}
	}
	return b
}

// specks leaves out of dice those read with a face less than a third of the biggest: specks
// of sensor noise or texture whose dark grains fit a layout, a few pixels across among dice
// fifty wide. Being that small, they hide no die, so they are left out, not refused.
func specks(dice []Die) []Die {
	big := biggestFace(dice)
	kept := dice[:0]
	for _, d := range dice {
		if d.Value == 0 || maxSizes*d.fc.w >= big {
			kept = append(kept, d)
		}
	}
	return kept
}
