package dice

import (
	"reflect"
	"testing"
)

func TestLabel(t *testing.T) {
	sq := func(b byte) []byte { return []byte{b} }
	sure := func(v int, b byte) Die {
		p := face(v, 0.99)
		return Die{Value: v, Probs: p, Square: sq(b), netSure: true}
	}
	headOnly := func(v int, b byte) Die { p := face(v, 0.99); return Die{Value: v, Probs: p, Square: sq(b)} }
	unsure := func(lean int, p float64, b byte) Die { return Die{Value: 0, Probs: face(lean, p), Square: sq(b)} }
	type ex struct {
		v int
		w float64
		b byte
	}
	for _, tc := range []struct {
		name   string
		dice   []Die
		values []int
		want   []ex
	}{
		{"confirmed", []Die{sure(2, 1), sure(5, 2), sure(5, 3), sure(6, 4)}, []int{2, 5, 5, 6},
			[]ex{{2, 1, 1}, {5, 1, 2}, {5, 1, 3}, {6, 1, 4}}},
		{"one misread corrected", []Die{sure(2, 1), sure(5, 2), sure(5, 3), sure(6, 4)}, []int{6, 2, 6, 5},
			[]ex{{2, 1, 1}, {5, 1, 2}, {6, 1, 4}, {6, CorrectedWeight, 3}}},
		{"unread dice of one value", []Die{sure(1, 1), unsure(4, 0.6, 2), unsure(3, 0.5, 3), sure(2, 4)}, []int{1, 2, 4, 4},
			[]ex{{1, 1, 1}, {2, 1, 4}, {4, CorrectedWeight, 2}, {4, CorrectedWeight, 3}}},
		{"unread dice told apart", []Die{unsure(3, 0.9, 1), unsure(6, 0.9, 2)}, []int{3, 6},
			[]ex{{3, CorrectedWeight, 1}, {6, CorrectedWeight, 2}}},
		{"unread dice not told apart", []Die{sure(1, 1), unsure(3, 0.3, 2), unsure(3, 0.3, 3)}, []int{1, 3, 5},
			[]ex{{1, 1, 1}}},
		{"read surely by the rig's head alone", []Die{sure(1, 1), headOnly(2, 2), sure(3, 3)}, []int{1, 2, 3},
			[]ex{{1, 1, 1}, {3, 1, 3}}},
		{"a die missed", []Die{sure(1, 1), sure(2, 2), sure(3, 3)}, []int{1, 2, 3, 4}, nil},
		{"a spot taken for a die", []Die{sure(1, 1), sure(2, 2), sure(3, 3)}, []int{1, 2}, nil},
		{"no squares", []Die{{Value: 1, Probs: face(1, 0.99)}}, []int{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []ex
			for _, e := range Label(Reading{Dice: tc.dice}, tc.values) {
				got = append(got, ex{e.Value, e.Weight, e.Square[0]})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestConfirm(t *testing.T) {
	sure := Die{Value: 5, Probs: face(5, 0.99), Square: []byte{1}, netSure: true}
	head := func(v int) Die { return Die{Value: v, Probs: face(v, 0.99), Square: []byte{2}} }
	for _, tc := range []struct {
		name           string
		dice           []Die
		values         []int
		read, misread  int
		examplesAtMost int
	}{
		{"the head read right", []Die{sure, head(3), head(6)}, []int{3, 5, 6}, 2, 0, 1},
		{"the head misread, corrected", []Die{sure, head(3), head(6)}, []int{4, 5, 6}, 2, 1, 3},
		{"the network's own misread is not the head's", []Die{sure, head(3)}, []int{3, 4}, 1, 0, 2},
		{"no head", []Die{sure, sure}, []int{5, 5}, 0, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Confirm(Reading{Dice: tc.dice}, tc.values)
			if c.HeadRead != tc.read || c.HeadMisread != tc.misread || len(c.Examples) > tc.examplesAtMost {
				t.Errorf("got %d read, %d misread, %d examples; want %d, %d, at most %d", c.HeadRead, c.HeadMisread, len(c.Examples), tc.read, tc.misread, tc.examplesAtMost)
			}
		})
	}
}
