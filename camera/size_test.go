package camera

import "testing"

// TestReadSpecks: sensor noise on a pale desk makes specks a few pixels wide whose dark grains
// fit a 1 and a 2 among dice fifty pixels wide (four_40 with noise of σ 8): no die of the game
// is a third that size, so they are left out.
func TestReadSpecks(t *testing.T) {
	testVaried(t, []variedCase{
		{"noise8", "matteop65/four_40.jpg", "[4 4 4 4]"},
	})
}
