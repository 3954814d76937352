package engine

import (
	"encoding/json"
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
	won := len(after.Claimed(mover)) >= before.Rules().WinColumns
	if won != (res.Winner == mover) || after.Winner() != res.Winner {
		t.Fatalf("stop %s: winner %d, claims %v", before, res.Winner, after.Claimed(mover))
	}
	if !won && after.Turn() != (mover+1)%before.Players() {
		t.Fatalf("stop %s: turn did not pass", before)
	}
}

// TestRandomGames plays random complete games for every player count and
// rule combination, checking invariants, undo and replay after every action.
func TestRandomGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 2
	}
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for _, rules := range allRules() {
			if err := rules.ValidateFor(players); err != nil {
				if _, err := NewGame(Setup{Players: players, Rules: rules}); err == nil {
					t.Errorf("%d players %v: NewGame accepted rules ValidateFor rejects", players, rules)
				}
				continue
			}
			t.Run(fmt.Sprintf("%dp_%s", players, rules), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(players), uint64(rules.WinColumns)))
				for i := 0; i < games; i++ {
					playRandomGame(t, rng, Setup{Players: players, Rules: rules, First: rng.IntN(players)})
				}
			})
		}
	}
}

func playRandomGame(t *testing.T, rng *rand.Rand, s Setup) {
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for n := 0; g.Position().Winner() < 0; n++ {
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
	if _, err := g.Roll(Dice{1, 2, 3, 4}); err == nil {
		t.Fatal("a won game accepted a roll")
	}
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
