package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// maxActions bounds a game: a game that has not ended by then is a defect.
const maxActions = 20000

// checkInvariants checks what must hold in every reachable position.
func checkInvariants(t *testing.T, p Position) {
	t.Helper()
	if n := p.Runners().Count(); n > MaxRunners || p.RunnersLeft() != MaxRunners-n {
		t.Fatalf("%s: %d runners", p, n)
	}
	for c := MinColumn; c <= MaxColumn; c++ {
		h, owner := Height(c), p.ClaimedBy(c)
		if r := p.Runner(c); r > h || r < 0 || (r > 0 && owner >= 0) || (r > 0 && r <= p.Piece(p.Turn(), c)) {
			t.Fatalf("%s: runner %d in column %d (claimed by %d)", p, r, c, owner)
		}
		for pl := 0; pl < p.Players(); pl++ {
			s := p.Piece(pl, c)
			if s < 0 || s > h || (owner >= 0 && pl != owner && s != 0) {
				t.Fatalf("%s: player %d piece %d in column %d claimed by %d", p, pl, s, c, owner)
			}
		}
	}
	if q, err := ParsePosition(p.String()); err != nil || q != p {
		t.Fatalf("%s does not round-trip: %v", p, err)
	}
	b, err := json.Marshal(p)
	var q Position
	if err != nil || json.Unmarshal(b, &q) != nil || q != p {
		t.Fatalf("%s does not round-trip through JSON %s: %v", p, b, err)
	}
}

// act does one random action: roll (and choose at random), or stop.
// It reports which action and whether it busted.
func act(t *testing.T, g *Game, rng *rand.Rand, rolls *int) string {
	p := g.Position()
	if ok, _ := p.CanStop(); ok && *rolls > 0 && rng.IntN(3) == 0 {
		before := p
		res, err := g.Stop()
		if err != nil {
			t.Fatal(err)
		}
		checkStop(t, before, g.Position(), res)
		*rolls = 0
		return "stop"
	}
	d := randomDice(rng)
	a, err := g.Roll(d)
	if err != nil {
		t.Fatal(err)
	}
	if a.Bust() {
		if g.Position().Turn() == p.Turn() || g.Position().Runners().Count() != 0 {
			t.Fatalf("%s: bust did not pass the turn", g.Position())
		}
		*rolls = 0
		return "bust"
	}
	*rolls++
	return "roll"
}

// checkStop checks a stop against the position before it.
func checkStop(t *testing.T, before, after Position, res StopResult) {
	t.Helper()
	mover := before.Turn()
	for c := MinColumn; c <= MaxColumn; c++ {
		r := before.Runner(c)
		if r > 0 && after.Piece(mover, c) != r {
			t.Fatalf("stop %s: piece in %d is %d, runner was %d", before, c, after.Piece(mover, c), r)
		}
		if r == Height(c) {
			if !slices.Contains(res.Claimed, c) || after.ClaimedBy(c) != mover {
				t.Fatalf("stop %s: column %d not claimed", before, c)
			}
			for pl := 0; pl < before.Players(); pl++ {
				had := before.Piece(pl, c)
				removed := slices.Contains(res.Removed, Removal{Player: pl, Column: c, Space: had})
				if pl != mover && (after.Piece(pl, c) != 0 || (had != 0) != removed) {
					t.Fatalf("stop %s: player %d's piece in claimed column %d not removed", before, pl, c)
				}
			}
		}
	}
	winner, draw := wantResult(after)
	if res.Winner != winner || res.Draw != draw || after.Winner() != winner || after.Draw() != draw || after.Over() != (winner >= 0 || draw) {
		t.Fatalf("stop %s -> %s: winner %d draw %v, want %d %v", before, after, res.Winner, res.Draw, winner, draw)
	}
	want := (mover + 1) % before.Players()
	if after.Over() {
		want = mover // the turn stays with the player whose stop ended the game
	}
	if after.Turn() != want {
		t.Fatalf("stop %s: turn is %d, want %d", before, after.Turn(), want)
	}
}

// wantResult reads the result off the board as doc.go states it: the
// player owning win_columns; else, with all 11 columns claimed, the one
// owning the most, or a draw when several tie for the most.
func wantResult(p Position) (winner int, draw bool) {
	counts := make([]int, p.Players())
	open := false
	for c := MinColumn; c <= MaxColumn; c++ {
		owned := false
		for pl := range counts {
			if p.Piece(pl, c) == Height(c) {
				counts[pl]++
				owned = true
			}
		}
		open = open || !owned
	}
	for pl, n := range counts {
		if n >= p.Rules().WinColumns {
			return pl, false
		}
	}
	if open {
		return -1, false
	}
	most, tied := 0, false
	for pl, n := range counts {
		switch {
		case n > most:
			most, tied, winner = n, false, pl
		case n == most:
			tied = true
		}
	}
	if tied {
		return -1, true
	}
	return winner, false
}

// TestRandomGames plays random complete games for every player count and
// rule combination, checking invariants, undo and replay after every action.
// Every game must end: with 3 players and win_columns 5, or 4 players and
// 4 or 5, many end with all 11 columns claimed (doc.go), and those endings,
// wins by the most columns and draws, must occur.
func TestRandomGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 2
	}
	ends := map[string]int{}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for _, rules := range allRules() {
			t.Run(fmt.Sprintf("%dp_%s", players, rules), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(players), uint64(rules.WinColumns)))
				for i := 0; i < games; i++ {
					ends[playRandomGame(t, rng, Setup{Players: players, Rules: rules, First: rng.IntN(players)})]++
				}
			})
		}
	}
	t.Logf("game endings: %v", ends)
	if !testing.Short() && (ends["most"] == 0 || ends["draw"] == 0) {
		t.Errorf("no game ended with all columns claimed by a win on the most columns and by a draw: %v", ends)
	}
}

// playRandomGame plays one game to its end and says how it ended: "win"
// (win_columns reached), "most" (all columns claimed, most columns) or "draw".
func playRandomGame(t *testing.T, rng *rand.Rand, s Setup) string {
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for n := 0; !g.Position().Over(); n++ {
		if n > maxActions {
			t.Fatalf("game did not end after %d actions: %s", maxActions, g.Position())
		}
		beforePos, beforeRec := g.Position(), recTail(t, g)
		state := rng.Uint64()
		r1 := rand.New(rand.NewPCG(state, 1))
		rollsBefore := rolls
		kind := act(t, g, r1, &rolls)
		if kind == "roll" {
			_, legal, _ := g.Pending()
			if err := g.Choose(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, g.Position())
			// Undo the choice, then the roll: both restore exactly.
			afterPos, afterRec := g.Position(), recTail(t, g)
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if _, _, pending := g.Pending(); !pending || g.Position().Runners() != beforePos.Runners() {
				t.Fatal("undo of a choice did not return to the pending roll")
			}
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
			if g.Position() != beforePos || recTail(t, g) != beforeRec {
				t.Fatalf("undo of a roll: %s, want %s", g.Position(), beforePos)
			}
			// Play the same again.
			r1, rolls = rand.New(rand.NewPCG(state, 1)), rollsBefore
			act(t, g, r1, &rolls)
			_, legal, _ = g.Pending()
			for _, c := range legal {
				if c.Runners == afterPos.Runners() {
					if err := g.Choose(c); err != nil {
						t.Fatal(err)
					}
				}
			}
			if g.Position() != afterPos || recTail(t, g) != afterRec {
				t.Fatalf("redo after undo differs: %s, want %s", g.Position(), afterPos)
			}
			continue
		}
		checkInvariants(t, g.Position())
		afterPos, afterRec := g.Position(), recTail(t, g)
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		if g.Position() != beforePos || recTail(t, g) != beforeRec {
			t.Fatalf("undo of %s: %s, want %s", kind, g.Position(), beforePos)
		}
		r1, rolls = rand.New(rand.NewPCG(state, 1)), rollsBefore
		act(t, g, r1, &rolls)
		if g.Position() != afterPos || recTail(t, g) != afterRec {
			t.Fatalf("redo of %s differs", kind)
		}
	}
	checkOver(t, g)
	// Replay, directly and through JSON, reaches the same game.
	rec := g.Record()
	var back Record
	if err := json.Unmarshal([]byte(mustJSON(t, rec)), &back); err != nil {
		t.Fatal(err)
	}
	h, err := Replay(back)
	if err != nil {
		t.Fatal(err)
	}
	if h.Position() != g.Position() || mustJSON(t, h.Record()) != mustJSON(t, rec) {
		t.Fatalf("replay reached %s, want %s", h.Position(), g.Position())
	}
	p := g.Position()
	switch {
	case p.Draw():
		return "draw"
	case len(p.Claimed(p.Winner())) < s.Rules.WinColumns:
		return "most"
	}
	return "win"
}

// checkOver checks that a game over refuses every action with
// ReasonGameOver and the winner (-1 for a draw), and that its position
// offers nothing.
func checkOver(t *testing.T, g *Game) {
	t.Helper()
	p := g.Position()
	refused := func(what string, err error) {
		t.Helper()
		var r *RefusedError
		if !errors.As(err, &r) || r.Refusal.Reason != ReasonGameOver || r.Refusal.Player != p.Winner() {
			t.Fatalf("%s: %s after the game is over: %v", p, what, err)
		}
	}
	_, err := g.Roll(Dice{1, 2, 3, 4})
	refused("roll", err)
	refused("choose", g.Choose(Choice{Runners: Runners{7: 1}}))
	_, err = g.Stop()
	refused("stop", err)
	if ok, why := p.CanStop(); ok || why.Reason != ReasonGameOver {
		t.Fatalf("%s: CanStop %v %v", p, ok, why)
	}
	a := Explain(p, Dice{1, 1, 6, 6})
	if !a.Bust() || len(a.Refusals) != 3 || a.Refusals[0].Reason != ReasonGameOver || BustOdds(p).Bust != Rolls || p.Bust() != p {
		t.Fatalf("%s: a game over still offers something: %+v", p, a)
	}
}

// recTail identifies a record cheaply: its length and its last actions
// (whole records are compared once, after replay).
func recTail(t *testing.T, g *Game) string {
	acts := g.actions
	if len(acts) == 0 {
		return "0"
	}
	return fmt.Sprint(len(acts), mustJSON(t, acts[max(0, len(acts)-3):]))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
