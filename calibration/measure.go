package calibration

import (
	"errors"
	"image"
	"math"

	"github.com/cantstop/cantstop/dice"
)

// DieLook is what one die of the calibration roll looked like.
type DieLook struct {
	Value  int
	Box    image.Rectangle
	SidePx float64 // the side of the reader's box round the die
}

// Measure measures the dice the reader read in the calibration roll: each die's side is its
// box's (the detector's square round the die), the dice's the median of them. Only dice read
// with a value and whose box lies wholly in the frame are measured (a box cut by the frame's
// edge says less than the die's size).
func Measure(frame image.Point, rd dice.Reading) (Dice, []DieLook, error) {
	var looks []DieLook
	bounds := image.Rectangle{Max: frame}
	for _, d := range rd.Dice {
		if d.Value < 1 || d.Box.Empty() || !d.Box.In(bounds) {
			continue
		}
		looks = append(looks, DieLook{Value: d.Value, Box: d.Box, SidePx: float64(min(d.Box.Dx(), d.Box.Dy()))})
	}
	if len(looks) == 0 {
		return Dice{}, nil, errors.New("measure dice: no die was read whole in the picture, so there is nothing to measure")
	}
	var sides []float64
	out := Dice{Count: len(rd.Dice)}
	for _, l := range looks {
		sides = append(sides, l.SidePx)
		out.Values = append(out.Values, l.Value)
	}
	out.SidePx = round1(median(sides))
	return out, looks, nil
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
