package dicebench

import (
	"testing"

	"github.com/cantstop/cantstop/dice"
)

// TestCount: a photo is exact only when the reader reported it read with every value right; a
// reading refused for a doubt (every die read, a spot that may be another) is unreadable only.
// An unread photo's guess (the dice read, then the unread ones' leanings) counts when it is the
// roll or one die off it.
func TestCount(t *testing.T) {
	reading := func(st dice.Status, vals ...int) dice.Reading {
		rd := dice.Reading{Status: st}
		for _, v := range vals {
			rd.Dice = append(rd.Dice, dice.Die{Value: v})
		}
		return rd
	}
	// unread adds a die not read surely that leans to v.
	unread := func(rd dice.Reading, v int) dice.Reading {
		d := dice.Die{Why: "face not read surely"}
		d.Probs[v] = 0.6
		rd.Dice = append(rd.Dice, d)
		return rd
	}
	p := labelled{file: "a.jpg", values: []int{2, 5}}
	for _, tc := range []struct {
		name                                   string
		rd                                     dice.Reading
		exact, unreadable, misread, incomplete int
		guessRight, guessOneOff                int
	}{
		{"read right", reading(dice.StatusRead, 5, 2), 1, 0, 0, 0, 0, 0},
		{"every die read, refused for a spot", reading(dice.StatusUnreadable, 2, 5), 0, 1, 0, 0, 1, 0},
		{"wrong count", reading(dice.StatusWrongCount, 2, 5), 0, 1, 0, 0, 1, 0},
		{"a die read wrong", reading(dice.StatusRead, 2, 6), 0, 0, 1, 0, 0, 0},
		{"a die missed", reading(dice.StatusRead, 5), 0, 0, 0, 1, 0, 0},
		{"a die unread, its guess right", unread(reading(dice.StatusUnreadable, 2), 5), 0, 1, 0, 0, 1, 0},
		{"a die unread, its guess wrong", unread(reading(dice.StatusUnreadable, 2), 6), 0, 1, 0, 0, 0, 1},
		{"both unread, both guesses wrong", unread(unread(reading(dice.StatusUnreadable), 1), 6), 0, 1, 0, 0, 0, 0},
		{"a die unread, the other missed", unread(reading(dice.StatusUnreadable), 5), 0, 1, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s BenchSet
			exact := s.count(p, tc.rd)
			if exact != (tc.exact == 1) || s.Exact != tc.exact || s.Unreadable != tc.unreadable || s.Misread != tc.misread || s.Incomplete != tc.incomplete || s.Photos != 1 ||
				s.GuessRight != tc.guessRight || s.GuessOneOff != tc.guessOneOff {
				t.Errorf("exact %v, %+v", exact, s)
			}
		})
	}
}
