package engine

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestRulesValidate(t *testing.T) {
	for _, tc := range []struct {
		players int
		rules   Rules
		want    string
	}{
		{5, DefaultRules(), "5 players"},
		{1, DefaultRules(), "1 players"},
		{2, Rules{WinColumns: 7}, "win_columns 7 is not a rule"},
		{2, Rules{}, "win_columns 0 is not a rule"},
		{2, Rules{WinColumns: 3, SkipOccupied: true, NoStopOnOccupied: true}, "cannot be combined"},
		{5, Rules{WinColumns: 7}, "5 players"},
		// Every win_columns with every player count: a game in which the
		// 11 columns are shared out short of it ends with the last claim.
		{3, Rules{WinColumns: 5}, ""},
		{4, Rules{WinColumns: 4}, ""},
		{4, Rules{WinColumns: 5, ForcedPlacement: true}, ""},
		{2, Rules{WinColumns: 5, SkipOccupied: true, ForcedPlacement: true}, ""},
		{3, Rules{WinColumns: 4, NoStopOnOccupied: true}, ""},
	} {
		err := tc.rules.ValidateFor(tc.players)
		_, gerr := NewGame(Setup{Players: tc.players, Rules: tc.rules})
		if tc.want == "" {
			if err != nil || gerr != nil {
				t.Errorf("%d players %+v: %v, %v", tc.players, tc.rules, err, gerr)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || gerr == nil {
			t.Errorf("%d players %+v: error %v, want %q", tc.players, tc.rules, err, tc.want)
		}
	}
}

func TestRollOff(t *testing.T) {
	r, err := NewRollOff(3)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		player int
		dice   [2]int
		next   []int
		first  int
	}{
		{0, [2]int{6, 5}, []int{1, 2}, -1},
		{2, [2]int{5, 6}, []int{1}, -1},
		{1, [2]int{1, 1}, []int{0, 2}, -1}, // 0 and 2 tied on 11: they roll again
		{2, [2]int{3, 3}, []int{0}, -1},
		{0, [2]int{2, 4}, []int{0, 2}, -1}, // tied again on 6
		{0, [2]int{1, 2}, []int{2}, -1},
		{2, [2]int{2, 2}, nil, 2},
	}
	for i, s := range steps {
		if err := r.Throw(s.player, s.dice); err != nil {
			t.Fatalf("throw %d: %v", i, err)
		}
		if got := r.Next(); !equalInts(got, s.next) || r.First() != s.first {
			t.Fatalf("after throw %d: next %v first %d, want %v %d", i, got, r.First(), s.next, s.first)
		}
	}
	if err := r.Throw(1, [2]int{6, 6}); err == nil {
		t.Error("throw after the roll-off was decided")
	}
	r2, _ := NewRollOff(2)
	if err := r2.Throw(1, [2]int{7, 1}); err == nil || !strings.Contains(err.Error(), "two values 1-6") {
		t.Errorf("bad dice: %v", err)
	}
	if err := r2.Throw(3, [2]int{1, 1}); err == nil {
		t.Error("throw by a player not in the game")
	}
	// The roll-off in a setup must decide the named first player.
	throws := r.Throws()
	if _, err := NewGame(Setup{Players: 3, Rules: DefaultRules(), First: 2, RollOff: throws}); err != nil {
		t.Error(err)
	}
	if _, err := NewGame(Setup{Players: 3, Rules: DefaultRules(), First: 0, RollOff: throws}); err == nil {
		t.Error("setup accepted a first player the roll-off did not choose")
	}
	if _, err := NewGame(Setup{Players: 3, Rules: DefaultRules(), First: 2, RollOff: throws[:3]}); err == nil || !strings.Contains(err.Error(), "undecided") {
		t.Errorf("undecided roll-off: %v", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGameFlow plays a short scripted game through its record.
func TestGameFlow(t *testing.T) {
	g, err := NewGame(Setup{Players: 2, Names: []string{"Ada", "Bo"}, Rules: Rules{WinColumns: 3, NoStopOnOccupied: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Undo(); !errors.Is(err, ErrNothingToUndo) {
		t.Errorf("undo at start: %v", err)
	}
	if _, err := g.Stop(); err == nil {
		t.Error("stop before any roll")
	}
	if err := g.Choose(Choice{}); err == nil {
		t.Error("choose before a roll")
	}
	a, err := g.Roll(Dice{1, 5, 4, 6})
	if err != nil || len(a.Choices) != 3 {
		t.Fatalf("roll: %v %v", a, err)
	}
	if _, err := g.Roll(Dice{1, 1, 1, 1}); err == nil {
		t.Error("second roll before choosing")
	}
	if _, err := g.Stop(); err == nil {
		t.Error("stop before choosing")
	}
	if err := g.Choose(Choice{Runners: Runners{6: 1}}); err == nil {
		t.Error("an outcome the roll does not allow was accepted")
	}
	if err := g.Choose(a.Choices[2]); err != nil { // 7+9
		t.Fatal(err)
	}
	if _, err := g.Stop(); err != nil {
		t.Fatal(err)
	}
	// Player 1 lands on player 0's piece in 7 and may not stop there.
	if _, err := g.Roll(Dice{3, 4, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if err := g.Choose(Choice{Runners: Runners{2: 1, 7: 1}}); err != nil {
		t.Fatal(err)
	}
	var refused *RefusedError
	if _, err := g.Stop(); !errors.As(err, &refused) || refused.Refusal.Reason != ReasonStopOnOccupied || refused.Refusal.Column != 7 || refused.Refusal.Player != 0 {
		t.Fatalf("stop on an occupied space: %v", err)
	}
	// A bust is recorded with its roll and undone with it.
	if _, err := g.Roll(Dice{6, 6, 6, 6}); err != nil { // 12+12: new runner in 12
		t.Fatal(err)
	}
	if err := g.Choose(Choice{Runners: Runners{2: 1, 7: 1, 12: 2}}); err != nil {
		t.Fatal(err)
	}
	before := g.Position()
	a, err = g.Roll(Dice{2, 2, 4, 4}) // 4, 6, 8: no runner left
	if err != nil || !a.Bust() {
		t.Fatalf("expected a bust: %+v %v", a, err)
	}
	rec := g.Record()
	if n := len(rec.Actions); rec.Actions[n-2].Kind != ActRoll || rec.Actions[n-1].Kind != ActBust || g.Position().Turn() != 0 {
		t.Fatalf("record ends %v", rec.Actions[n-2:])
	}
	b, _ := json.Marshal(rec)
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	h, err := Replay(back)
	if err != nil || h.Position() != g.Position() {
		t.Fatalf("replay: %v", err)
	}
	if err := g.Undo(); err != nil || g.Position() != before {
		t.Fatalf("undo of a bust: %s, want %s (%v)", g.Position(), before, err)
	}
	// A tampered record is refused with the action that is wrong.
	back.Actions[1].Choice.Runners = Runners{5: 1}
	if _, err := Replay(back); err == nil || !strings.Contains(err.Error(), "action 2") {
		t.Errorf("tampered record: %v", err)
	}
	back.Version = 9
	if _, err := Replay(back); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("future record: %v", err)
	}
}

// TestRecordFile replays a saved three-player game (roll-off, w4, skip,
// forced) written by an earlier build: the saved-game format must stay
// readable and replay to the recorded position, and undoing every action
// must lead back to the start.
func TestRecordFile(t *testing.T) {
	b, err := os.ReadFile("testdata/record-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	g, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if g.Position().Winner() != 1 || g.Position().String() != rec.Position.String() {
		t.Fatalf("replay reached %s", g.Position())
	}
	again, _ := json.MarshalIndent(g.Record(), "", " ")
	if string(again) != string(b) {
		t.Error("the record does not marshal back to the same bytes")
	}
	n := 0
	for g.Undo() == nil {
		n++
	}
	start, _ := NewPosition(3, rec.Setup.Rules, rec.Setup.First)
	if g.Position() != start || len(g.Record().Actions) != 0 || n == 0 {
		t.Fatalf("after %d undos: %s, %d actions", n, g.Position(), len(g.Record().Actions))
	}
}
