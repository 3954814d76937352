package companion

import "testing"

// TestTableRejects: actions that do not fit the game are refused and leave
// the table unchanged (a journal that does not replay is put aside, not guessed at).
func TestTableRejects(t *testing.T) {
	var tb table
	if err := tb.apply(Action{Op: OpStop}); err == nil {
		t.Fatal("stop before setup accepted")
	}
	setup := Action{Op: OpSetup, Setup: &GameSetup{Players: DefaultPlayers(2), Rules: DefaultOptions("").Rules}}
	if err := tb.apply(setup); err != nil {
		t.Fatal(err)
	}
	if err := tb.apply(Action{Op: OpFirst, Player: 0}); err != nil {
		t.Fatal(err)
	}
	before := tb
	for _, a := range []Action{
		{Op: OpStop},                           // nothing to bank
		{Op: OpBust, Dice: [4]int{1, 2, 3, 4}}, // not a bust
		{Op: OpMove, Dice: [4]int{1, 2, 3, 4}}, // no outcome
		{Op: OpMove, Dice: [4]int{1, 2, 3, 9}}, // bad die
		{Op: "teleport"},                       // unknown
		{Op: OpSetup, Setup: setup.Setup},      // twice
	} {
		if err := tb.apply(a); err == nil {
			t.Errorf("%+v accepted", a)
		}
		if tb.pos != before.pos || len(tb.actions) != len(before.actions) {
			t.Fatalf("refused %s changed the table", a.Op)
		}
	}
}
