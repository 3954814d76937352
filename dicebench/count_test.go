package dicebench

import (
	"testing"

	"github.com/cantstop/cantstop/dice"
)

// TestCount: a photo is exact only when the reader reported it read with every value right; a
// reading refused for a doubt (every die read, a spot that may be another) is unreadable only.
func TestCount(t *testing.T) {
	reading := func(st dice.Status, vals ...int) dice.Reading {
		rd := dice.Reading{Status: st}
		for _, v := range vals {
			rd.Dice = append(rd.Dice, dice.Die{Value: v})
		}
		return rd
	}
	p := labelled{file: "a.jpg", values: []int{2, 5}}
	for _, tc := range []struct {
		name                                   string
		rd                                     dice.Reading
		exact, unreadable, misread, incomplete int
	}{
		{"read right", reading(dice.StatusRead, 5, 2), 1, 0, 0, 0},
		{"every die read, refused for a spot", reading(dice.StatusUnreadable, 2, 5), 0, 1, 0, 0},
		{"wrong count", reading(dice.StatusWrongCount, 2, 5), 0, 1, 0, 0},
		{"a die read wrong", reading(dice.StatusRead, 2, 6), 0, 0, 1, 0},
		{"a die missed", reading(dice.StatusRead, 5), 0, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s BenchSet
			exact := s.count(p, tc.rd)
			if exact != (tc.exact == 1) || s.Exact != tc.exact || s.Unreadable != tc.unreadable || s.Misread != tc.misread || s.Incomplete != tc.incomplete || s.Photos != 1 {
				t.Errorf("exact %v, %+v", exact, s)
			}
		})
	}
}
