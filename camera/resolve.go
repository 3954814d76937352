package camera

import (
	"image"
	"strings"
)

// resolves says whether alt, the dice read from their pips alone, may stand for dice, the
// reading from the blobs. Each die the blobs refused must have been refused as ambiguous, its
// pips fitting two faces (one die seen two ways), away from the picture's edge, and hold the
// centre of one die of alt that reads one of those two faces; each die read must hold the
// centre of one die of alt of the same value, or lie centred in it; and every die of alt must
// be read and so matched. So alt only settles which of its two faces an ambiguous die shows:
// it neither adds a die nor changes a value read.
func resolves(dice, alt []Die) bool {
	if !settled(alt) || !onlyAmbiguous(dice) {
		return false
	}
	used := make([]bool, len(alt))
	for _, d := range dice {
		if d.Value == 0 && d.src.edge {
			return false // the die may be cut by the picture's edge: its pips left fit other faces
		}
		n := 0
		for j, a := range alt {
			if d.Value == 0 && centred(a.Box, d.Box) && d.amb.allows(a.Value) || d.Value > 0 && a.Value == d.Value && (centred(a.Box, d.Box) || centred(d.Box, a.Box)) {
				if used[j] {
					return false // one die of alt for two of the blobs'
				}
				used[j] = true
				n++
			}
		}
		if n != 1 {
			return false
		}
	}
	for _, u := range used {
		if !u {
			return false
		}
	}
	return true
}

// ambiguity is what an ambiguous face read: two values (b 0 for a reading of no value, as
// when a side face's pip made the other turn's reading fail; b = a for one value read from
// other pips), or a value or any face of more pips. The zero ambiguity is none: a is always
// a value.
type ambiguity struct {
	a, b int
	more bool
}

// is says whether the face was ambiguous.
func (m ambiguity) is() bool { return m.a > 0 }

// placed says whether the face read one value from other pips in each turn (a == b; see
// readFace), as when a side face's pips join its top face's.
func (m ambiguity) placed() bool { return m.a > 0 && m.a == m.b }

// allows says whether v is one of the readings.
func (m ambiguity) allows(v int) bool {
	return v > 0 && (v == m.a || v == m.b || m.more && v > m.a)
}

// centred says whether the centre of a lies in b.
func centred(a, b image.Rectangle) bool {
	return image.Pt((a.Min.X+a.Max.X)/2, (a.Min.Y+a.Max.Y)/2).In(b)
}

// onlyAmbiguous says whether some of dice were refused and all of those as ambiguous, each
// still for that reason (a later check may refuse an ambiguous die for another).
func onlyAmbiguous(dice []Die) bool {
	n := 0
	for _, d := range dice {
		if d.Value == 0 {
			if !d.amb.is() || !strings.HasPrefix(d.Why, "ambiguous") {
				return false
			}
			n++
		}
	}
	return n > 0
}
