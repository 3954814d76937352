package engine

import (
	"errors"
	"fmt"
)

// DefaultRules are the printed rules: three columns win, no variant.
func DefaultRules() Rules { return Rules{WinColumns: 3} }

// Validate rejects options outside RULES.md and combinations the editions forbid.
func (r Rules) Validate() error {
	switch r.WinColumns {
	case 3, 4, 5:
	default:
		return fmt.Errorf("win_columns %d is not a rule: it must be 3, 4 or 5", r.WinColumns)
	}
	if r.SkipOccupied && r.NoStopOnOccupied {
		return errors.New("skip_occupied and no_stop_on_occupied cannot be combined (es variants): choose one")
	}
	return nil
}

// ValidateFor checks the player count and the rules for a game of players
// players. Every win_columns goes with every player count: where the 11
// columns can be shared out with nobody reaching win_columns (3 players
// and 5, 4 players and 4 or 5), the game ends when the last column is
// claimed (see Position.Over).
func (r Rules) ValidateFor(players int) error {
	if err := validPlayers(players); err != nil {
		return err
	}
	return r.Validate()
}

// validPlayers checks a player count.
func validPlayers(n int) error {
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%d players: Can't Stop is for %d to %d players", n, MinPlayers, MaxPlayers)
	}
	return nil
}

// Sums returns the two sums of pairing pr: 0 = (d0+d1, d2+d3),
// 1 = (d0+d2, d1+d3), 2 = (d0+d3, d1+d2).
func (d Dice) Sums(pr Pairing) (int, int) {
	switch pr {
	case 0:
		return d[0] + d[1], d[2] + d[3]
	case 1:
		return d[0] + d[2], d[1] + d[3]
	default:
		return d[0] + d[3], d[1] + d[2]
	}
}

// Validate checks that every die shows 1 to 6.
func (d Dice) Validate() error {
	for _, v := range d {
		if v < 1 || v > 6 {
			return fmt.Errorf("dice must be four values 1-6, got %d %d %d %d", d[0], d[1], d[2], d[3])
		}
	}
	return nil
}
