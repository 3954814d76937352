package companion

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

func concat(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func seq(s ...step) []step { return s }

// TestGameToWinner plays a whole game with the fake camera: setup, a
// roll-off, moves, a stop that claims two columns, a bust called by the
// device, and the winning stop; the finished game is archived.
func TestGameToWinner(t *testing.T) {
	dir := t.TempDir()
	dice := reads(
		[]int{6, 5}, []int{1, 2}, // roll-off: P1 11, P2 3
		[]int{1, 1, 1, 1}, []int{1, 1, 1, 1}, []int{6, 6, 6, 6}, []int{6, 6, 6, 6}, []int{1, 2, 1, 2},
		[]int{1, 1, 1, 1}, // P2: column 2 is claimed: bust
		[]int{1, 2, 1, 2}, []int{2, 1, 2, 1},
	)
	ok := short(hw.OK)
	script := concat(startGame, seq(
		press(display.KindRollOff, ok), press(display.KindRollOff, ok),
		step{kind: display.KindRollOff, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error { // the result: both throws and who starts
				if s.RollOff.Leader != 0 || len(s.RollOff.Tied) != 0 || s.RollOff.Rolls[0] != [2]int{6, 5} || s.RollOff.Rolls[1] != [2]int{1, 2} {
					return fmt.Errorf("roll-off result %+v", s.RollOff)
				}
				return nil
			}},
		step{kind: display.KindTurn, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Player != 0 || s.BustRolls != 0 && s.Rolls == 0 {
					return fmt.Errorf("player %d starts, odds %d/%d", s.Player, s.BustRolls, s.Rolls)
				}
				return nil
			}},
		choose(2, 2), press(display.KindMove, ok),
		choose(2, 2), press(display.KindMove, ok),
		choose(12, 12), press(display.KindMove, ok),
		choose(12, 12), press(display.KindMove, ok),
		choose(3, 3),
		step{kind: display.KindMove, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Stop)} },
			check: func(s display.Screen) error {
				if s.Rolls != engine.Rolls || s.BustRolls <= 0 {
					return fmt.Errorf("no bust odds on the move screen: %d/%d", s.BustRolls, s.Rolls)
				}
				return nil
			}},
		step{kind: display.KindStop, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if !reflect.DeepEqual(s.Stop.Claimed, []int{2, 12}) {
					return fmt.Errorf("claimed %v, want [2 12]", s.Stop.Claimed)
				}
				return nil
			}},
		press(display.KindTurn, ok),
		step{kind: display.KindBust, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Player != 1 || s.Next != 0 {
					return fmt.Errorf("bust of player %d, next %d", s.Player, s.Next)
				}
				return nil
			}},
		press(display.KindTurn, ok),
		choose(3, 3), press(display.KindMove, ok),
		choose(3, 3), press(display.KindMove, short(hw.Stop)),
		press(display.KindStop, ok),
		step{kind: display.KindWinner, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Player != 0 || len(s.Players[0].Claimed) != 3 {
					return fmt.Errorf("winner %d with %v", s.Player, s.Players[0].Claimed)
				}
				return nil
			}},
	))
	c, d := play(t, dir, dice, Options{}, script...)
	if s, _ := d.last(display.KindSetup); len(d.screens) == 0 || d.screens[len(d.screens)-1].Kind != display.KindSetup || s.Kind != display.KindSetup {
		t.Fatalf("after the winner, want a new setup; screens %s", kinds(d.screens))
	}
	if c.t.setup != nil {
		t.Fatalf("table not reset after the game")
	}
	if len(dice.queue) != 0 {
		t.Fatalf("%d rolls left unread", len(dice.queue))
	}
	if !reflect.DeepEqual(dice.wants, []int{2, 2, 4, 4, 4, 4, 4, 4, 4, 4}) {
		t.Fatalf("dice asked for %v", dice.wants)
	}
	games, _ := filepath.Glob(filepath.Join(dir, ArchiveDir, "*.jsonl"))
	if len(games) != 1 {
		t.Fatalf("archived games: %v", games)
	}
	// The archive replays to the winning position.
	tb := replayFile(t, games[0])
	if tb.pos.Winner() != 0 || len(tb.actions) != 1+2+9+1 {
		t.Fatalf("archive replays to winner %d after %d actions", tb.pos.Winner(), len(tb.actions))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, JournalFile)); len(b) != 0 {
		t.Fatalf("journal not emptied after the game: %q", b)
	}
}

func replayFile(t *testing.T, path string) table {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, JournalFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	j, payloads, rec, err := OpenJournal(dir, nil)
	if err != nil || rec.Damaged() {
		t.Fatalf("open %s: %v %+v", path, err, rec)
	}
	j.Close()
	tb, err := load(payloads)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
