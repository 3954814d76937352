package display

import (
	"math/rand/v2"
	"strings"
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
		for turn := 0; turn < 400 && !p.Over(); turn++ {
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
		if !p.Over() {
			t.Fatalf("game %d did not end", g)
		}
		show(Screen{Kind: KindWinner, Player: p.Winner(), Draw: p.Draw(), WinColumns: rules.WinColumns})
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

// TestEngineStalemate plays the stop that claims the last column in real
// engine positions where nobody owns win_columns, and shows the end screen
// the companion would: a draw names exactly the players tied for the most
// columns; a win on the most columns says so.
func TestEngineStalemate(t *testing.T) {
	for _, c := range []struct {
		pos   string // the mover's runner on the top of the last open column
		tied  []string
		most  int
		loser string // a player who must not be named
	}{
		{"3:1:2@3,3@5,4@7,5@9/6@11,7@13,8@11/9@9,10@7,11@5:12@3:w5", []string{"Anna", "Ben"}, 4, "Лёва"},
		{"4:3:2@3,3@5,4@7/5@9,6@11,7@13/8@11,9@9,10@7/11@5:12@3:w5", []string{"Anna", "Ben", "Лёва"}, 3, "Zoë"},
		{"4:3:2@3,3@5,4@7/5@9,6@11,7@13/8@11,9@9,10@7/11@5:12@3:w4", []string{"Anna", "Ben", "Лёва"}, 3, "Zoë"},
		{"4:0:2@3,3@5,4@7/5@9,6@11,7@13/8@11,9@9/10@7,11@5:12@3:w5", []string{"Anna"}, 4, "Ben"},
	} {
		p, err := engine.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		p, res, err := p.Stop()
		if err != nil {
			t.Fatalf("%s: stop: %v", c.pos, err)
		}
		draw := len(c.tied) > 1
		if !p.Over() || p.Draw() != draw || res.Draw != draw {
			t.Fatalf("%s: over %v draw %v (stop said %v), want draw %v", c.pos, p.Over(), p.Draw(), res.Draw, draw)
		}
		s := Screen{Kind: KindWinner, Players: withClaims(samplePlayers[:p.Players()], p),
			Player: res.Winner, Draw: res.Draw, WinColumns: p.Rules().WinColumns}
		for _, l := range Languages() {
			if _, err := Render(s, l); err != nil {
				t.Errorf("%s: %v", c.pos, err)
			}
			tl, _ := translator(l)
			text, err := Text(s, l)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{tl.f(mDraw), strings.Join(c.tied, ", "), tl.n(mEach, c.most)}
			if !draw {
				want = []string{c.tied[0], tl.f(mMostColumns)}
			}
			// On the OLED too: the optional lines must not have been dropped.
			ct, _ := compose(s, tl)
			f, _ := fit(ct)
			var oled []string
			for _, r := range f.rows {
				oled = append(oled, r.text)
			}
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("%s in %s: %q missing from\n%s", c.pos, l, w, text)
				}
				if !strings.Contains(strings.Join(oled, " "), w) {
					t.Errorf("%s in %s: %q does not fit the OLED: %q", c.pos, l, w, oled)
				}
			}
			if strings.Contains(text, c.loser) {
				t.Errorf("%s in %s: %s named on the end screen:\n%s", c.pos, l, c.loser, text)
			}
		}
	}
}
