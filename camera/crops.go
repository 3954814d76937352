package camera

import (
	"encoding/json"
	"fmt"
	"io"
)

// NetCrop is one candidate die as the face network would look at it: the square it crops
// (centre and side, frame pixels) and what the reader made of the die. Bench writes one JSON
// line per candidate with BenchOpts.Crops; scripts/facenet builds its training crops from them,
// so that training sees exactly the squares netRead cuts.
type NetCrop struct {
	Set   string  `json:"set"`
	File  string  `json:"file"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Side  float64 `json:"side"`
	Value int     `json:"value"`
	Why   string  `json:"why,omitempty"`
	ByNet bool    `json:"by_net,omitempty"`
}

// writeCrops writes the squares of every die of a reading of a frame read with no tray.
func writeCrops(w io.Writer, set, file string, rd Reading) error {
	enc := json.NewEncoder(w)
	side := dieSide(rd.Dice)
	for _, d := range rd.Dice {
		x, y, s := netSquare(d, side)
		if err := enc.Encode(NetCrop{Set: set, File: file, X: x, Y: y, Side: s, Value: d.Value, Why: d.Why, ByNet: d.Net}); err != nil {
			return fmt.Errorf("bench: write crops: %w", err)
		}
	}
	return nil
}
