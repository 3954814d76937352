package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// doubleStep rolls a+b twice for column c and chooses the runner in c
// moved (or placed and moved) two spaces, up to the top.
func doubleStep(t *testing.T, g *Game, c int) {
	t.Helper()
	a := min(6, c-1)
	d := Dice{a, c - a, a, c - a}
	an, err := g.Roll(d)
	if err != nil {
		t.Fatalf("roll %v: %v", d, err)
	}
	p := g.Position()
	want := p.Runners()
	want[c] = min(Height(c), max(want[c], p.Piece(p.Turn(), c))+2)
	for _, ch := range an.Choices {
		if ch.Runners == want {
			if err := g.Choose(ch); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s: roll %v has no choice leading to %v: %+v", p, d, want, an.Choices)
}

// claimColumn plays a turn in which the mover takes column c to its top
// and stops.
func claimColumn(t *testing.T, g *Game, c int) StopResult {
	t.Helper()
	for g.Position().Runner(c) < Height(c) {
		doubleStep(t, g, c)
	}
	res, err := g.Stop()
	if err != nil || len(res.Claimed) != 1 || res.Claimed[0] != c {
		t.Fatalf("claim %d: %+v %v", c, res, err)
	}
	return res
}

// passTurn plays a turn that claims nothing: two spaces up an open column
// with room, then stop.
func passTurn(t *testing.T, g *Game) {
	t.Helper()
	p := g.Position()
	for c := MinColumn; c <= MaxColumn; c++ {
		if p.ClaimedBy(c) < 0 && Height(c)-p.Piece(p.Turn(), c) > 2 {
			doubleStep(t, g, c)
			if res, err := g.Stop(); err != nil || len(res.Claimed) != 0 || res.Winner >= 0 || res.Draw {
				t.Fatalf("pass in %d: %+v %v", c, res, err)
			}
			return
		}
	}
	t.Fatalf("%s: no column to pass in", p)
}

// TestAllColumnsClaimed plays games in which the players claim all 11
// columns, in a given order of claimers (a player who is not next passes),
// without anyone owning win_columns: the stop that claims the last column
// ends the game at once, won by the most columns or drawn (doc.go).
func TestAllColumnsClaimed(t *testing.T) {
	for _, tc := range []struct {
		players, win int
		claimers     string // who claims each of the 11 columns
		share        []int  // the columns each then owns
		winner       int    // -1: a draw
	}{
		{4, 4, "01230123012", []int{3, 3, 3, 2}, -1},
		{3, 5, "01201201201", []int{4, 4, 3}, -1},
		{4, 5, "01230123012", []int{3, 3, 3, 2}, -1},
		{4, 5, "01230123122", []int{2, 3, 4, 2}, 2},
		{4, 5, "01230123001", []int{4, 3, 2, 2}, 0}, // the last claim is player 1's
		{4, 5, "00001112223", []int{4, 3, 3, 1}, 0},
	} {
		t.Run(fmt.Sprintf("%dp_w%d_%s", tc.players, tc.win, tc.claimers), func(t *testing.T) {
			g, err := NewGame(Setup{Players: tc.players, Rules: Rules{WinColumns: tc.win}})
			if err != nil {
				t.Fatal(err)
			}
			var res StopResult
			for i, c := range []int{7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12} {
				for g.Position().Turn() != int(tc.claimers[i]-'0') {
					passTurn(t, g)
				}
				if p := g.Position(); p.Over() {
					t.Fatalf("over with column %d open: %s", c, p)
				}
				res = claimColumn(t, g, c)
			}
			p := g.Position()
			draw := tc.winner < 0
			if !p.Over() || p.Winner() != tc.winner || p.Draw() != draw || res.Winner != tc.winner || res.Draw != draw {
				t.Fatalf("%s: over %v winner %d draw %v; the stop said winner %d draw %v; want winner %d",
					p, p.Over(), p.Winner(), p.Draw(), res.Winner, res.Draw, tc.winner)
			}
			for pl, n := range tc.share {
				if len(p.Claimed(pl)) != n {
					t.Fatalf("%s: player %d owns %v, want %d columns", p, pl, p.Claimed(pl), n)
				}
			}
			checkOver(t, g)
			if _, err := p.Update(Choice{Sums: []int{7}, Runners: Runners{7: 1}}); err == nil {
				t.Error("a game over accepted an update")
			}
			// The result follows from the pieces: notation and JSON keep it.
			q, err := ParsePosition(p.String())
			if err != nil || q != p {
				t.Fatalf("%s does not round-trip: %v", p, err)
			}
			b, _ := json.Marshal(p)
			if strings.Contains(string(b), `"draw":true`) != draw {
				t.Errorf("JSON %s does not say draw %v", b, draw)
			}
			var back Position
			if err := json.Unmarshal(b, &back); err != nil || back != p {
				t.Fatalf("JSON %s does not round-trip: %v", b, err)
			}
			// Replay reaches the same end; undoing the last stop reopens the game.
			h, err := Replay(g.Record())
			if err != nil || h.Position() != p {
				t.Fatalf("replay: %v", err)
			}
			if err := g.Undo(); err != nil || g.Position().Over() {
				t.Fatalf("undo of the last stop: %s, %v", g.Position(), err)
			}
			if _, err := g.Stop(); err != nil {
				t.Fatalf("stop again after undo: %v", err)
			}
			if g.Position() != p {
				t.Fatalf("stop again reached %s, want %s", g.Position(), p)
			}
		})
	}
}
