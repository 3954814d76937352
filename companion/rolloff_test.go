package companion

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestRollOff: highest of each player's two dice starts; the tied roll again
// among themselves only, in seat order.
func TestRollOff(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		rolls  []struct{ p, a, b int }
		first  int
		tied   []int // contenders left when not decided
		leader int
	}{
		{"highest starts", 3, []struct{ p, a, b int }{{0, 2, 3}, {1, 6, 5}, {2, 4, 4}}, 1, nil, 1},
		{"double six starts", 3, []struct{ p, a, b int }{{0, 6, 6}, {1, 1, 1}, {2, 5, 6}}, 0, nil, 0},
		{"tied pair", 4, []struct{ p, a, b int }{{0, 3, 3}, {1, 6, 4}, {2, 5, 5}, {3, 1, 2}}, -1, []int{1, 2}, -1},
		{"tie round under way", 4, []struct{ p, a, b int }{{0, 3, 3}, {1, 6, 4}, {2, 5, 5}, {3, 1, 2}, {1, 1, 2}}, -1, []int{1, 2}, 1},
		{"tie broken", 4, []struct{ p, a, b int }{{0, 3, 3}, {1, 6, 4}, {2, 5, 5}, {3, 1, 2}, {1, 1, 1}, {2, 1, 2}}, 2, nil, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := newRollOff(c.n)
			if err != nil {
				t.Fatal(err)
			}
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
			if r.leader() != c.leader {
				t.Fatalf("leader = %d, want %d", r.leader(), c.leader)
			}
			last := c.rolls[len(c.rolls)-1]
			if r.shown[last.p] != [2]int{last.a, last.b} {
				t.Fatalf("shown[%d] = %v, want %d %d", last.p, r.shown[last.p], last.a, last.b)
			}
		})
	}
	r, err := newRollOff(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.add(1, [2]int{3, 3}); err == nil {
		t.Fatal("player 2 rolled before player 1 and it was accepted")
	}
	if err := r.add(0, [2]int{0, 7}); err == nil {
		t.Fatal("dice 0 and 7 accepted")
	}
	if len(r.eng.Throws()) != 0 || r.roller() != 0 {
		t.Fatalf("refused throws changed the roll-off: %v, roller %d", r.eng.Throws(), r.roller())
	}
	// A copy does not see later throws: the table keeps its state on a refused action.
	before := r
	if err := r.add(0, [2]int{6, 6}); err != nil {
		t.Fatal(err)
	}
	if before.roller() != 0 || before.shown[0] != [2]int{} || len(before.eng.Throws()) != 0 {
		t.Fatalf("copy changed by a later throw: roller %d, shown %v", before.roller(), before.shown)
	}
}

// rollOffState is what the roll-off screen and the game loop read from the
// table after one journal line.
type rollOffState struct {
	Err        bool     `json:"err"` // the line was refused
	Started    bool     `json:"started"`
	First      int      `json:"first"`
	Roller     int      `json:"roller"`
	Leader     int      `json:"leader"`
	Shown      [][2]int `json:"shown"`
	Contenders []int    `json:"contenders"`
	Actions    int      `json:"actions"`
}

// TestRollOffJournals replays journals written and observed with the
// companion's own roll-off (before it moved onto engine.RollOff): ties,
// tie-breaks, undos, out-of-turn and bad throws, first players named directly.
// Every line must be accepted or refused as then and leave the same state.
func TestRollOffJournals(t *testing.T) {
	b, err := os.ReadFile("testdata/rolloff-journals.json")
	if err != nil {
		t.Fatal(err)
	}
	var journals []struct {
		Lines []json.RawMessage `json:"lines"`
		After []rollOffState    `json:"after"`
	}
	if err := json.Unmarshal(b, &journals); err != nil {
		t.Fatal(err)
	}
	if len(journals) < 100 {
		t.Fatalf("%d journals in testdata, want the 120 recorded", len(journals))
	}
	ties := 0
	for i, j := range journals {
		var tb table
		for k, l := range j.Lines {
			var a Action
			if err := json.Unmarshal(l, &a); err != nil {
				t.Fatalf("journal %d line %d: %v", i, k+1, err)
			}
			err := tb.apply(a)
			got := rollOffState{Err: err != nil, Started: tb.started, First: tb.roll.first,
				Roller: tb.roll.roller(), Leader: tb.roll.leader(), Shown: tb.roll.shown,
				Contenders: tb.roll.contenders, Actions: len(tb.actions)}
			want := j.After[k]
			if got.Err != want.Err || got.Started != want.Started || got.First != want.First ||
				got.Roller != want.Roller || got.Leader != want.Leader || got.Actions != want.Actions ||
				!slices.Equal(got.Shown, want.Shown) || !slices.Equal(got.Contenders, want.Contenders) {
				t.Fatalf("journal %d line %d %s (err %v):\n got %+v\nwant %+v", i, k+1, l, err, got, want)
			}
			if !want.Started && len(want.Contenders) > 0 && len(want.Contenders) < len(want.Shown) {
				ties++
			}
		}
	}
	if ties == 0 {
		t.Fatal("no journal reaches a tie-break round")
	}
}
