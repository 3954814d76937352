package dice

import (
	"image"
	"reflect"
	"strings"
	"testing"
)

// face gives probabilities leaning to value v (0: no die's top face) at p, the rest shared.
func face(v int, p float64) [7]float64 {
	var r [7]float64
	for i := range r {
		r[i] = (1 - p) / 6
	}
	r[v] = p
	return r
}

func TestDecide(t *testing.T) {
	th := thresholds{Peak: 0.3, Face: 0.9, Doubt: 0.9, MinPeak: 0.1}
	die := func(peak, x, y float64) cand { return cand{peak: peak, x: x, y: y, side: 40} }
	for _, tc := range []struct {
		name   string
		cands  []cand
		probs  [][7]float64
		expect int
		status Status
		values []int // Reading.Values()
		dice   int
		why    string // in Reading.Why
	}{
		{"nothing", nil, nil, 0, StatusUnreadable, []int{}, 0, "no dice found"},
		{"one die", []cand{die(0.9, 100, 100)}, [][7]float64{face(5, 0.97)}, 0, StatusRead, []int{5}, 1, ""},
		{"four dice as expected",
			[]cand{die(0.9, 300, 100), die(0.8, 100, 100), die(0.7, 200, 100), die(0.6, 400, 100)},
			[][7]float64{face(6, 0.99), face(1, 0.95), face(3, 0.92), face(3, 0.999)}, 4, StatusRead, []int{1, 3, 3, 6}, 4, ""},
		{"wrong count", []cand{die(0.9, 100, 100), die(0.8, 200, 100)},
			[][7]float64{face(2, 0.99), face(4, 0.99)}, 4, StatusWrongCount, []int{2, 4}, 2, "found 2 dice, expected 4"},
		{"unsure face", []cand{die(0.9, 100, 100), die(0.8, 200, 100)},
			[][7]float64{face(2, 0.99), face(4, 0.62)}, 2, StatusUnreadable, []int{2}, 2, "1 of 2 dice not read surely"},
		{"overlap is the same die", []cand{die(0.9, 100, 100), die(0.5, 115, 100), die(0.4, 200, 100)},
			[][7]float64{face(2, 0.99), face(4, 0.5), face(6, 0.99)}, 2, StatusRead, []int{2, 6}, 2, ""},
		{"bare peak ignored", []cand{die(0.9, 100, 100), die(0.8, 200, 100)},
			[][7]float64{face(2, 0.99), face(0, 0.95)}, 0, StatusRead, []int{2}, 1, ""},
		{"weak peak read as a die doubts", []cand{die(0.9, 100, 100), die(0.2, 250, 120)},
			[][7]float64{face(2, 0.99), face(3, 0.95)}, 0, StatusUnreadable, []int{2}, 1, "something at (250,120) may be a die"},
		{"weak peak read unsurely is no doubt", []cand{die(0.9, 100, 100), die(0.2, 250, 120)},
			[][7]float64{face(2, 0.99), face(0, 0.2)}, 0, StatusRead, []int{2}, 1, ""},
		{"weak die-like peak with no sure face is no doubt", []cand{die(0.9, 100, 100), die(0.2, 250, 120)},
			[][7]float64{face(2, 0.99), face(4, 0.5)}, 0, StatusRead, []int{2}, 1, ""},
		{"a face between two values is unsure", []cand{die(0.9, 100, 100), die(0.8, 250, 120)},
			[][7]float64{face(2, 0.99), {0.05, 0.475, 0.475}}, 0, StatusUnreadable, []int{2}, 2, "1 of 2 dice not read surely"},
		{"peak under min_peak is no doubt", []cand{die(0.9, 100, 100), die(0.05, 250, 120)},
			[][7]float64{face(2, 0.99), face(3, 0.99)}, 0, StatusRead, []int{2}, 1, ""},
		{"only bare peaks", []cand{die(0.9, 100, 100)}, [][7]float64{face(0, 0.8)}, 0, StatusUnreadable, []int{}, 0, "no dice found"},
		{"doubt without dice is no dice", []cand{die(0.2, 100, 100)}, [][7]float64{face(1, 0.99)}, 0, StatusUnreadable, []int{}, 0, "no dice found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := decide(tc.cands, tc.probs, th, tc.expect)
			if r.Status != tc.status || !reflect.DeepEqual(r.Values(), tc.values) || len(r.Dice) != tc.dice {
				t.Errorf("%v %v with %d dice (%s), want %v %v with %d", r.Status, r.Values(), len(r.Dice), r.Why, tc.status, tc.values, tc.dice)
			}
			if !strings.Contains(r.Why, tc.why) || (tc.why == "") != (r.Why == "") {
				t.Errorf("why %q, want %q", r.Why, tc.why)
			}
		})
	}
}

// TestDecideDice: the dice left to right, each with its box, confidence and, unread, why.
func TestDecideDice(t *testing.T) {
	th := thresholds{Peak: 0.3, Face: 0.9, Doubt: 0.9, MinPeak: 0.1}
	c := []cand{{0.9, 300.4, 100, 40.4}, {0.8, 100, 50.5, 31}, {0.7, 200, 100, 40}}
	// A tie between 3 and 5 leans to the smaller value, as np.argmax.
	tie := [7]float64{0, 0, 0, 0.45, 0, 0.45, 0.1}
	probs := [][7]float64{face(6, 0.95), face(1, 0.99), tie}
	r := decide(c, probs, th, 0)
	want := []Die{
		{Value: 1, Box: image.Rect(85, 35, 116, 66), Confidence: 0.99, Probs: probs[1], cand: 1},
		{Value: 0, Box: image.Rect(180, 80, 220, 120), Confidence: 0.45, Why: "face not read surely: leans to 3 at 0.45", Probs: tie, cand: 2},
		{Value: 6, Box: image.Rect(280, 80, 320, 120), Confidence: 0.95, Probs: probs[0]},
	}
	if !reflect.DeepEqual(r.Dice, want) {
		t.Errorf("dice\n%+v\nwant\n%+v", r.Dice, want)
	}
}
