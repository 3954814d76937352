package companion

import (
	"slices"
	"testing"
)

// TestRollOff: highest of each player's two dice starts; the tied roll again
// among themselves only.
func TestRollOff(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		rolls []struct{ p, a, b int }
		first int
		tied  []int // contenders left when not decided
	}{
		{"highest starts", 3, []struct{ p, a, b int }{{0, 2, 3}, {1, 6, 5}, {2, 4, 4}}, 1, nil},
		{"double six starts", 3, []struct{ p, a, b int }{{0, 6, 6}, {1, 1, 1}, {2, 5, 6}}, 0, nil},
		{"tied pair", 4, []struct{ p, a, b int }{{0, 3, 3}, {1, 6, 4}, {2, 5, 5}, {3, 1, 2}}, -1, []int{1, 2}},
		{"tie broken", 4, []struct{ p, a, b int }{{0, 3, 3}, {1, 6, 4}, {2, 5, 5}, {3, 1, 2}, {1, 1, 1}, {2, 1, 2}}, 2, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRollOff(c.n)
			for _, x := range c.rolls {
				if err := r.add(x.p, [2]int{x.a, x.b}); err != nil {
					t.Fatal(err)
				}
			}
			if r.first != c.first {
				t.Fatalf("first = %d, want %d", r.first, c.first)
			}
			if c.tied != nil && !slices.Equal(r.contenders, c.tied) {
				t.Fatalf("contenders = %v, want %v", r.contenders, c.tied)
			}
		})
	}
	r := newRollOff(2)
	if err := r.add(1, [2]int{3, 3}); err == nil {
		t.Fatal("player 2 rolled before player 1 and it was accepted")
	}
	if err := r.add(0, [2]int{0, 7}); err == nil {
		t.Fatal("dice 0 and 7 accepted")
	}
}

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
