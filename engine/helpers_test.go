package engine

import (
	"math/rand/v2"
	"testing"
)

// allRules lists every valid combination of rule options.
func allRules() []Rules {
	var out []Rules
	for _, w := range []int{3, 4, 5} {
		for _, occ := range []int{0, 1, 2} { // none, skip_occupied, no_stop_on_occupied
			for _, f := range []bool{false, true} {
				out = append(out, Rules{WinColumns: w, SkipOccupied: occ == 1, NoStopOnOccupied: occ == 2, ForcedPlacement: f})
			}
		}
	}
	return out
}

func randomDice(rng *rand.Rand) Dice {
	return Dice{rng.IntN(6) + 1, rng.IntN(6) + 1, rng.IntN(6) + 1, rng.IntN(6) + 1}
}

// randomPosition builds an arbitrary valid position, often crowded: pieces
// of several players in a column, claims, runners on the top, few runners left.
func randomPosition(t testing.TB, rng *rand.Rand) Position {
	rules := allRules()
	for try := 0; try < 1000; try++ {
		players := MinPlayers + rng.IntN(MaxPlayers-MinPlayers+1)
		turn := rng.IntN(players)
		pieces := make([]map[int]int, players)
		for pl := range pieces {
			pieces[pl] = map[int]int{}
		}
		runners := map[int]int{}
		for c := MinColumn; c <= MaxColumn; c++ {
			h := Height(c)
			if rng.IntN(8) == 0 {
				pieces[rng.IntN(players)][c] = h
				continue
			}
			for pl := range pieces {
				if rng.IntN(3) == 0 && h > 1 {
					pieces[pl][c] = 1 + rng.IntN(h-1)
				}
			}
		}
		for k := rng.IntN(MaxRunners + 1); len(runners) < k; {
			c := MinColumn + rng.IntN(MaxColumn-MinColumn+1)
			own, h := pieces[turn][c], Height(c)
			if own == h {
				continue
			}
			runners[c] = own + 1 + rng.IntN(h-own)
		}
		r := rules[rng.IntN(len(rules))]
		p, err := assemble(players, turn, r, pieces, runners)
		if err == nil && !p.Over() {
			return p
		}
	}
	t.Fatal("could not build a random position")
	return Position{}
}
