package camera

import (
	"image"
	"sort"
)

// Status says whether a Reading can be trusted.
type Status int

const (
	// StatusRead: every die was found and its face read with a canonical pip layout.
	StatusRead Status = iota
	// StatusNotSettled: the dice are still moving (only Settle and WatchRolls return it).
	StatusNotSettled
	// StatusUnreadable: a die is cocked, partly outside the picture, or its face is ambiguous.
	StatusUnreadable
	// StatusWrongCount: the faces were read but there are not ReaderOpts.Expect dice.
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
	// Value is the top face, 1-6, or 0 when the face could not be read.
	Value int `json:"value"`
	// Box is the die's axis-aligned box in frame pixels.
	Box image.Rectangle `json:"box"`
	// Pips are the centres of the top-face pips in frame pixels.
	Pips []image.Point `json:"pips,omitempty"`
	// Confidence in [0,1]: how well the pips fit the canonical layout and contrast with the face.
	Confidence float64 `json:"confidence"`
	// Why tells what was wrong when Value is 0.
	Why string `json:"why,omitempty"`
	// Net: the value was read by the face network, its pips fitting no canonical layout
	// (Pips is then empty and Confidence is the network's probability).
	Net bool `json:"net,omitempty"`
	// Glare: the pips were read with the thin light lines crossing them (a glossy or
	// translucent die mirroring a lamp's or a window's edge) taken out, and a face network
	// reads the same value (see unglare).
	Glare bool `json:"glare,omitempty"`
	// clutter: not read, and not like a die either; Read leaves such candidates out.
	clutter bool
	// col is the face's median colour in 8-bit Lab (see faceColour).
	col [3]float64
	// amb: not read because its pips fitted two faces (values or places), and what they read
	// (see resolves).
	amb ambiguity
	// outlined: read from a face whose outline was seen on all four sides (see oneDice).
	outlined bool
	// light: its pips are lighter than its face (a dark die's white pips).
	light bool
	// src is the candidate the face was read from, in the picture searched (see stable.go).
	src cand
	// fc is the fitted top face in the picture searched (zero when no layout fitted).
	fc rotRect
	// unlaid is the pip fitter's reason when it found pips in no layout, or a lone pip that
	// reads as a 1 at some thresholds only (see netRead); the face network may read the die
	// only while Why is still that reason.
	unlaid string
	// hued: read from the directed hue map, a fallback (see netConfirm).
	hued bool
	// row: a row of touching dice refused whole (see rowOfDice); a face read from its pips
	// inside it replaces it (see holdsFace).
	row bool
	// doubted is the value it was read before a check of that value refused it (stable,
	// netConfirm, netDoubt, and netRead's look at the dice's size): a frame saying that value
	// is not to be trusted (see dissent).
	doubted int
}

// Reading is the result of reading one frame.
type Reading struct {
	Status Status `json:"status"`
	Dice   []Die  `json:"dice"`
	// Why says what was wrong for a status other than StatusRead; for a reading of no dice
	// at all, why none may have been seen (an overexposed picture).
	Why string `json:"why,omitempty"`
	// SidePx is the dice's size the reading was made at, in frame pixels, as the reader
	// measures it (ReaderOpts.DieSidePx takes the same measure): a die's blob, most of its
	// shadow left out, about 1.45 times the narrower side of a box drawn round the die
	// (the testdata photos' median), far more where touching dice make one blob. 0 when no
	// blob looked enough like a die to say.
	SidePx float64 `json:"side_px,omitempty"`
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
