package camera

import "testing"

// TestNegativePips: the matteop65 photos as their negative show brown dice with white pips on
// grey wood, as pale as the dice: the tray model finds no die and pipDice proposes none from
// dark pips, so only negativePipDice reads them (before it, each read as no dice at all or
// refused).
func TestNegativePips(t *testing.T) {
	testVariedExact(t, []variedCase{
		{"invert", "matteop65/dice_12.jpg", "[1 1]"},
		{"invert", "matteop65/dice_8.jpg", "[1]"},
		{"invert", "matteop65/three_2.jpg", "[3]"},
		{"invert", "matteop65/three_3.jpg", "[3]"},
		{"invert", "matteop65/six_18.jpg", "[6 6]"},
		{"invert", "matteop65/four_40.jpg", "[4 4 4 4]"},
	})
}
