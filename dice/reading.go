package dice

import (
	"image"
	"sort"
)

// Status says whether a Reading can be trusted.
type Status int

const (
	// StatusRead: every die was found and its face read surely.
	StatusRead Status = iota
	// StatusNotSettled: the dice are still moving (only Settle and WatchRolls return it).
	StatusNotSettled
	// StatusUnreadable: a die's face is not read surely, or something may be a die or not.
	StatusUnreadable
	// StatusWrongCount: the faces were read but there are not Opts.Expect dice.
	StatusWrongCount
)

func (s Status) String() string {
	switch s {
	case StatusRead:
		return "read"
	case StatusNotSettled:
		return "not settled"
	case StatusUnreadable:
		return "unreadable"
	case StatusWrongCount:
		return "wrong count"
	}
	return "unknown"
}

// MarshalText makes Status print as its name in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Die is one die found in a frame.
type Die struct {
	// Value is the top face, 1-6, or 0 when the face could not be read surely.
	Value int `json:"value"`
	// Box is the die's box in frame pixels (a square round its centre, the detector's size).
	Box image.Rectangle `json:"box"`
	// Confidence in [0,1]: the face network's probability of Value, averaged over four turns
	// (for an unread die, of the value it leaned to).
	Confidence float64 `json:"confidence"`
	// Why tells what was wrong when Value is 0.
	Why string `json:"why,omitempty"`
	// Square is the face square the value was read from (FaceSide² BGR pixels): confirmed by
	// the players, it becomes an Example of the rig (Label).
	Square []byte `json:"-"`
	// Probs are the face probabilities, 0 "no die" and 1-6, that Label weighs.
	Probs [7]float64 `json:"-"`
	cand  int        // index of the candidate the die was read from
	// netSure: the general network itself read Value surely (it differs from Value > 0 only
	// where the rig's head read).
	netSure bool
}

// Leaning is the die's value, or for a die not read surely the value the face network leaned
// to (0 without probabilities): where the players' correction of the die starts. It is never
// a reading: the die stays unread until the players say its value.
func (d Die) Leaning() int {
	switch {
	case d.Value > 0:
		return d.Value
	case d.Probs == [7]float64{}:
		return 0
	}
	return topValue(d.Probs)
}

// Reading is the result of reading one frame.
type Reading struct {
	Status Status `json:"status"`
	Dice   []Die  `json:"dice"`
	// Why says what made the reading anything but StatusRead.
	Why string `json:"why,omitempty"`
}

// Boxes are the boxes of the dice found, read or not, in frame pixels.
func (r Reading) Boxes() []image.Rectangle {
	b := make([]image.Rectangle, len(r.Dice))
	for i, d := range r.Dice {
		b[i] = d.Box
	}
	return b
}

// Values returns the values of the dice that were read, sorted; unreadable dice are left out.
func (r Reading) Values() []int {
	v := make([]int, 0, len(r.Dice))
	for _, d := range r.Dice {
		if d.Value > 0 {
			v = append(v, d.Value)
		}
	}
	sort.Ints(v)
	return v
}

// Guess is every die found: the values read, sorted, then for the dice not read surely the
// values the face network leaned to (Die.Leaning), sorted; unsure says how many of those there
// are. Where the players' correction starts: a guess is never a reading.
func (r Reading) Guess() (values []int, unsure int) {
	values = r.Values()
	var lean []int
	for _, d := range r.Dice {
		if v := d.Leaning(); d.Value == 0 && v > 0 {
			lean = append(lean, v)
		}
	}
	sort.Ints(lean)
	return append(values, lean...), len(lean)
}

// unsure tells whether a die was found whose face was not read.
func (r Reading) unsure() bool {
	for _, d := range r.Dice {
		if d.Value == 0 {
			return true
		}
	}
	return false
}
