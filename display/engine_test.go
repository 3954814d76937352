package display

import (
	"math/rand/v2"
	"testing"

	"github.com/cantstop/cantstop/engine"
)

// TestEngineGames plays random games with the real engine, under every rule
// option, and draws every screen the companion would show from the engine's
// own data — each choice highlighted, each refusal explained, each stop and
// bust — in every language. Any text that does not fit fails the test.
func TestEngineGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	variants := []engine.Rules{
		{WinColumns: 3},
		{WinColumns: 4, SkipOccupied: true},
		{WinColumns: 5, NoStopOnOccupied: true},
		{WinColumns: 3, ForcedPlacement: true},
	}
	if testing.Short() {
		variants = variants[:1]
	}
	screens := 0
	seen := map[engine.Refusal]bool{}
	for g := 0; g < len(variants); g++ {
		rules := variants[g%len(variants)]
		n := 2 + g%3
		p, err := engine.NewPosition(n, rules, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps := samplePlayers[:n]
		show := func(s Screen) {
			screens++
			s.Players = withClaims(ps, p)
			for _, l := range Languages() {
				if _, err := Render(s, l); err != nil {
					t.Errorf("game %d: %v", g, err)
				}
			}
		}
		for turn := 0; turn < 400 && p.Winner() < 0; turn++ {
			o := engine.BustOdds(p)
			show(Screen{Kind: KindTurn, Player: p.Turn(), RunnersLeft: p.RunnersLeft(), BustRolls: o.Bust, Rolls: engine.Rolls})
			d := engine.Dice{1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6)}
			an := engine.Explain(p, d)
			for i, r := range an.Refusals {
				if r.Pairing = 0; !seen[r] { // each distinct explanation once
					seen[r] = true
					show(Screen{Kind: KindRules, Refusals: an.Refusals, Selected: i})
				}
			}
			if len(an.Choices) == 0 {
				show(Screen{Kind: KindBust, Player: p.Turn(), Next: (p.Turn() + 1) % n})
				p = p.Bust()
				continue
			}
			// The first and last highlighted: the list at both ends of its scroll.
			show(Screen{Kind: KindChoices, Dice: d, Choices: an.Choices})
			show(Screen{Kind: KindChoices, Dice: d, Choices: an.Choices, Selected: len(an.Choices) - 1})
			ch := an.Choices[rng.IntN(len(an.Choices))]
			if p, err = p.Update(ch); err != nil {
				t.Fatal(err)
			}
			show(Screen{Kind: KindMove, Steps: ch.Steps})
			if ok, why := p.CanStop(); !ok {
				show(Screen{Kind: KindRules, Refusals: []engine.Refusal{why}})
				continue
			}
			if p.RunnersLeft() == 0 || rng.IntN(3) == 0 {
				mover := p.Turn()
				q, res, err := p.Stop()
				if err != nil {
					t.Fatal(err)
				}
				p = q
				st := Stop{Pieces: res.Moves, Claimed: res.Claimed, Removed: res.Removed}
				rows := len(res.Moves) + len(res.Claimed) + len(res.Removed)
				show(Screen{Kind: KindStop, Player: mover, Stop: st})
				show(Screen{Kind: KindStop, Player: mover, Stop: st, Selected: rows - 1})
			}
		}
		if p.Winner() < 0 {
			t.Fatalf("game %d did not end", g)
		}
		show(Screen{Kind: KindWinner, Player: p.Winner()})
		_, why := p.CanStop()
		show(Screen{Kind: KindRules, Refusals: []engine.Refusal{why}})
	}
	t.Logf("%d screens in %d languages", screens, len(Languages()))
}

func withClaims(ps []Player, p engine.Position) []Player {
	out := make([]Player, len(ps))
	for i, pl := range ps {
		pl.Claimed = p.Claimed(i)
		out[i] = pl
	}
	return out
}
