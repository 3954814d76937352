package companion

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

var ok = short(hw.OK)

func lastOp(c *Companion) *Action { return c.lastAction() }

// TestMisreadCorrected: the camera reads 1-1-1-2 where the dice show
// 1-1-1-1; the players fix the last die in the menu before the roll counts.
func TestMisreadCorrected(t *testing.T) {
	dice := reads([]int{1, 1, 1, 2})
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok),
		step{kind: display.KindChoices, press: func(display.Screen) []hw.Event { return []hw.Event{long(hw.OK)} },
			check: checkDice(engine.Dice{1, 1, 1, 2})},
		press(display.KindMenu, ok),
		press(display.KindCorrect, ok), press(display.KindCorrect, ok), press(display.KindCorrect, ok),
		press(display.KindCorrect, short(hw.Prev)), // 2 -> 1
		press(display.KindCorrect, ok),             // to "confirm"
		step{kind: display.KindCorrect, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Selected != 4 || s.Dice != (engine.Dice{1, 1, 1, 1}) {
					return fmt.Errorf("confirming %v at %d", s.Dice, s.Selected)
				}
				return nil
			}},
		step{kind: display.KindChoices, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: checkDice(engine.Dice{1, 1, 1, 1})},
		press(display.KindMove, ok),
	))
	c, _ := play(t, t.TempDir(), dice, Options{}, script...)
	a := lastOp(c)
	if a.Op != OpMove || a.Dice != (engine.Dice{1, 1, 1, 1}) || c.t.pos.Runner(2) != 2 {
		t.Fatalf("last action %+v, runner in 2 at %d", a, c.t.pos.Runner(2))
	}
	// The reader learns the roll as corrected.
	if want := [][]int{{1, 1, 1, 1}}; !slices.EqualFunc(dice.confirmed, want, slices.Equal) {
		t.Errorf("confirmed %v, want %v", dice.confirmed, want)
	}
}

// TestUndo takes back a confirmed move: the position is exactly the one
// before it, and the journal says so after a restart too.
func TestUndo(t *testing.T) {
	dir := t.TempDir()
	// Screens: Move -> long press -> Menu(0) -> Next -> Menu(1) -> OK -> Turn.
	script := concat(startGame, seq(
		nameFirst(1, 2),
		press(display.KindTurn, ok),
		choose(7, 7),
		press(display.KindMove, long(hw.Stop)),
		press(display.KindMenu, short(hw.Next)),
		press(display.KindMenu, ok),
		step{kind: display.KindTurn, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Player != 1 || s.RunnersLeft != 3 {
					return fmt.Errorf("after undo: player %d, %d runners left", s.Player, s.RunnersLeft)
				}
				return nil
			}},
		choose(6, 8),
		press(display.KindMove, ok),
	))
	c, _ := play(t, dir, reads([]int{3, 4, 4, 3}, []int{2, 4, 4, 4}), Options{}, script...)
	want, _ := engine.NewPosition(2, engine.DefaultRules(), 1)
	for _, ch := range engine.Legal(want, engine.Dice{2, 4, 4, 4}) {
		if slices.Equal(ch.Sums, []int{6, 8}) {
			want, _ = want.Update(ch)
		}
	}
	if c.t.pos != want {
		t.Fatalf("position after undo and a new move differs from a clean replay")
	}
	// A restart replays the undo the same way.
	c2, _ := play(t, dir, nil, Options{}, press(display.KindMove, short(hw.Next)))
	if c2.t.pos != want || len(c2.t.actions) != 3 {
		t.Fatalf("restart: position differs or %d actions", len(c2.t.actions))
	}
}

// TestCameraFailureFallsBackToButtons: the reader fails, the device says so
// once and the players enter the dice; with no reader at all they just do.
func TestCameraFailureFallsBackToButtons(t *testing.T) {
	broken := &fakeDice{queue: []fakeRead{{err: errors.New("open camera /dev/video0: no such device")},
		{err: errors.New("still broken")}}}
	enter1111 := seq(press(display.KindCorrect, ok), press(display.KindCorrect, ok), press(display.KindCorrect, ok),
		press(display.KindCorrect, ok), press(display.KindCorrect, ok))
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok),
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Status != display.StatusCameraMissing || s.Detail == "" {
					return fmt.Errorf("status %d %q", s.Status, s.Detail)
				}
				return nil
			}},
	), enter1111, seq(
		choose(2, 2), press(display.KindMove, ok),
	), enter1111, seq( // second failure: no status screen again
		choose(2, 2), press(display.KindMove, short(hw.Next)),
	))
	c, _ := play(t, t.TempDir(), broken, Options{}, script...)
	if c.t.pos.Runner(2) != 3 {
		t.Fatalf("runner in 2 at %d, want 3", c.t.pos.Runner(2))
	}
	if len(broken.confirmed) > 0 {
		t.Errorf("dice entered by hand were confirmed to the reader: %v", broken.confirmed)
	}
	// No camera at all.
	script = concat(startGame, seq(nameFirst(0, 2), press(display.KindTurn, ok)), enter1111,
		seq(choose(2, 2), press(display.KindMove, short(hw.Next))))
	c, _ = play(t, t.TempDir(), nil, Options{}, script...)
	if c.t.pos.Runner(2) != 2 {
		t.Fatalf("runner in 2 at %d, want 2", c.t.pos.Runner(2))
	}
}

// TestBadReadingRetried: a reading that is not four dice, or unreadable, is
// shown and read again on OK.
func TestBadReadingRetried(t *testing.T) {
	dice := &fakeDice{queue: []fakeRead{
		{res: DiceResult{Values: []int{1, 2, 3}, Status: WrongCount, Why: "3 dice, expected 4"}},
		{res: DiceResult{Values: []int{1, 2, 3}, Status: Unreadable, Why: "die at (10,10) cocked"}},
		{res: DiceResult{Values: []int{3, 4, 3, 4}, Status: Read}},
	}}
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok),
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Status != display.StatusWrongCount || s.Detail != "3 dice, expected 4" {
					return fmt.Errorf("status %d %q", s.Status, s.Detail)
				}
				return nil
			}},
		step{kind: display.KindDice, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.DiceRead {
					return fmt.Errorf("unreadable dice shown as read")
				}
				return nil
			}},
		choose(7, 7), press(display.KindMove, short(hw.Next)),
	))
	play(t, t.TempDir(), dice, Options{}, script...)
}

// TestUnreadCorrectedFromGuess: an unread roll, corrected with a long press,
// starts from the reader's guesses for the dice it could not read, marked, on
// the first of them; the players change one guess and keep the other.
func TestUnreadCorrectedFromGuess(t *testing.T) {
	dice := &fakeDice{queue: []fakeRead{{res: DiceResult{Values: []int{2, 5}, Status: Unreadable,
		Why: "2 of 4 dice not read surely", Guess: []int{2, 5, 3, 6}, Unsure: 2}}}}
	screen := func(d engine.Dice, unsure [4]bool, sel int) func(display.Screen) error {
		return func(s display.Screen) error {
			if s.Dice != d || s.Unsure != unsure || s.Selected != sel {
				return fmt.Errorf("correcting %v (unsure %v) at %d, want %v (%v) at %d", s.Dice, s.Unsure, s.Selected, d, unsure, sel)
			}
			return nil
		}
	}
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok),
		step{kind: display.KindDice, press: func(display.Screen) []hw.Event { return []hw.Event{long(hw.OK)} }},
		step{kind: display.KindCorrect, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Next)} },
			check: screen(engine.Dice{2, 5, 3, 6}, [4]bool{2: true, 3: true}, 2)},
		step{kind: display.KindCorrect, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: screen(engine.Dice{2, 5, 4, 6}, [4]bool{3: true}, 2)}, // changed: no longer a guess
		press(display.KindCorrect, ok), // keeps the 6
		step{kind: display.KindCorrect, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: screen(engine.Dice{2, 5, 4, 6}, [4]bool{3: true}, 4)},
		step{kind: display.KindChoices, press: choose(7, 10).press, check: checkDice(engine.Dice{2, 5, 4, 6})},
		press(display.KindMove, short(hw.Next)),
	))
	c, _ := play(t, t.TempDir(), dice, Options{}, script...)
	if a := lastOp(c); a.Op != OpMove || a.Dice != (engine.Dice{2, 5, 4, 6}) {
		t.Fatalf("last action %+v, want the corrected roll played", a)
	}
	if want := [][]int{{2, 5, 4, 6}}; !slices.EqualFunc(dice.confirmed, want, slices.Equal) {
		t.Errorf("confirmed %v, want %v", dice.confirmed, want)
	}
}

// TestNoStopOnOccupied: under no_stop_on_occupied, STOP on an opponent's
// piece is refused and the refusal is shown with its column and player.
func TestNoStopOnOccupied(t *testing.T) {
	rules := engine.DefaultRules()
	rules.NoStopOnOccupied = true
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok), choose(7, 7), press(display.KindMove, short(hw.Stop)),
		press(display.KindStop, ok),
		press(display.KindTurn, ok), choose(7, 7), press(display.KindMove, short(hw.Stop)),
		step{kind: display.KindRules, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				want := []engine.Refusal{{Reason: engine.ReasonStopOnOccupied, Column: 7, Player: 0}}
				if len(s.Refusals) != 1 || s.Refusals[0].Reason != want[0].Reason ||
					s.Refusals[0].Column != 7 || s.Refusals[0].Player != 0 {
					return fmt.Errorf("refusals %+v, want %+v", s.Refusals, want)
				}
				return nil
			}},
		press(display.KindMove, short(hw.Next)), // back on the move screen: must roll
	))
	c, _ := play(t, t.TempDir(), reads([]int{3, 4, 3, 4}, []int{3, 4, 3, 4}), Options{Rules: rules}, script...)
	if c.t.pos.Turn() != 1 || c.t.pos.Runner(7) != 2 || lastOp(c).Op != OpMove {
		t.Fatalf("the refused stop changed the game")
	}
}

// TestResume: the loop ends mid-turn (power cut); a new companion on the same
// state directory shows the game exactly where it was and plays on.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	threePlayers := press(display.KindSetup, ok, short(hw.Next), ok) // edit the player count: 3
	script := concat(seq(threePlayers), startGame, seq(nameFirst(1, 3), press(display.KindTurn, ok), choose(6, 8)))
	c1, _ := play(t, dir, reads([]int{2, 4, 4, 4}), Options{}, script...)
	c2, d := play(t, dir, reads([]int{1, 1, 1, 1}), Options{},
		step{kind: display.KindMove, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Player != 1 || len(s.Steps) != 2 || s.Steps[0].Column != 6 || s.Steps[1].Column != 8 {
					return fmt.Errorf("resumed move screen: player %d steps %+v", s.Player, s.Steps)
				}
				return nil
			}},
		choose(2, 2), press(display.KindMove, short(hw.Next)))
	if d.screens[0].Kind != display.KindStatus || d.screens[0].Status != display.StatusResumed {
		t.Fatalf("first screen after restart: %s", kinds(d.screens[:1]))
	}
	if c1.t.pos.Players() != 3 || c2.t.pos.Runners().Count() != 3 {
		t.Fatalf("resume: %d players, %d runners", c2.t.pos.Players(), c2.t.pos.Runners().Count())
	}
}

// TestRulesExplainLastRoll: after a called bust, the menu's rules entry says
// why each sum of that roll was refused.
func TestRulesExplainLastRoll(t *testing.T) {
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok), choose(6, 8), press(display.KindMove, ok),
		choose(2, 2), press(display.KindMove, ok),
		press(display.KindBust, ok),
		press(display.KindTurn, long(hw.OK), short(hw.Next), short(hw.Next), ok),
		step{kind: display.KindRules, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if len(s.Refusals) == 0 {
					return fmt.Errorf("no refusals for the bust")
				}
				for _, r := range s.Refusals {
					if r.Reason != engine.ReasonNoRunner {
						return fmt.Errorf("refusal %+v, want no runner left", r)
					}
				}
				return nil
			}},
		press(display.KindTurn, short(hw.Next)), // OK on "Why not?" goes back to the game
	))
	c, _ := play(t, t.TempDir(), reads([]int{2, 4, 4, 4}, []int{1, 1, 1, 1}, []int{5, 5, 6, 6}), Options{}, script...)
	if c.t.pos.Turn() != 1 || lastOp(c).Op != OpBust {
		t.Fatalf("turn %d, last %s", c.t.pos.Turn(), lastOp(c).Op)
	}
}

// TestFalseBustCorrected: with three runners out (6, 7, 8), the camera misreads
// 5-2-1-1 as 1-1-1-1, a bust; the bust screen shows the dice read, STOP there
// corrects them, and the corrected roll is played.
func TestFalseBustCorrected(t *testing.T) {
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok), choose(6, 8),
		press(display.KindMove, ok), choose(7, 7),
		press(display.KindMove, ok),
		step{kind: display.KindBust, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Stop)} },
			check: checkDice(engine.Dice{1, 1, 1, 1})},
		press(display.KindCorrect, short(hw.Next), short(hw.Next), short(hw.Next), short(hw.Next), ok), // 1 -> 5
		press(display.KindCorrect, short(hw.Next), ok),                                                 // 1 -> 2
		press(display.KindCorrect, ok), press(display.KindCorrect, ok),
		press(display.KindCorrect, ok), // confirm 5 2 1 1
		step{kind: display.KindChoices, press: choose(7).press, check: checkDice(engine.Dice{5, 2, 1, 1})},
		press(display.KindMove, short(hw.Next)),
	))
	dice := reads([]int{2, 4, 4, 4}, []int{3, 4, 4, 3}, []int{1, 1, 1, 1})
	c, _ := play(t, t.TempDir(), dice, Options{}, script...)
	if a := lastOp(c); a.Op != OpMove || a.Dice != (engine.Dice{5, 2, 1, 1}) || c.t.pos.Runner(7) != 3 {
		t.Fatalf("last action %+v, runner in 7 at %d: the corrected roll was not played", a, c.t.pos.Runner(7))
	}
	// Each roll played is confirmed to the reader once, the bust as corrected.
	if want := [][]int{{2, 4, 4, 4}, {3, 4, 4, 3}, {5, 2, 1, 1}}; !slices.EqualFunc(dice.confirmed, want, slices.Equal) {
		t.Errorf("confirmed %v, want %v", dice.confirmed, want)
	}
}

// TestWhyNotFromChoices: STOP on the choices screen explains what the roll
// cannot do, and any press goes back to the same choices.
func TestWhyNotFromChoices(t *testing.T) {
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok), choose(6, 8), press(display.KindMove, ok),
		press(display.KindChoices, short(hw.Stop)),
		step{kind: display.KindRules, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				for _, r := range s.Refusals {
					if r.Reason == engine.ReasonOneRunnerLeft {
						return nil
					}
				}
				return fmt.Errorf("refusals %+v lack \"one runner left\" for 5 and 9", s.Refusals)
			}},
		step{kind: display.KindChoices, press: choose(5).press, check: checkDice(engine.Dice{2, 3, 4, 5})},
		press(display.KindMove, short(hw.Next)),
	))
	c, _ := play(t, t.TempDir(), reads([]int{2, 4, 4, 4}, []int{2, 3, 4, 5}), Options{}, script...)
	if c.t.pos.Runner(5) != 1 {
		t.Fatalf("runner in 5 at %d after the choice", c.t.pos.Runner(5))
	}
}

// TestNewGameAsksFirst: "New game" with a game in progress asks; STOP keeps
// the game, OK archives it and goes to the setup.
func TestNewGameAsksFirst(t *testing.T) {
	menuNewGame := press(display.KindMenu, short(hw.Prev), short(hw.Prev), ok) // New game is second from the end
	script := concat(startGame, seq(
		nameFirst(0, 2),
		press(display.KindTurn, ok), choose(6, 8),
		press(display.KindMove, long(hw.OK)), menuNewGame,
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{short(hw.Stop)} },
			check: func(s display.Screen) error {
				if s.Status != display.StatusNewGame {
					return fmt.Errorf("status %d, want the new-game question", s.Status)
				}
				return nil
			}},
		press(display.KindMenu, short(hw.Stop)),
		press(display.KindMove, long(hw.OK)), menuNewGame,
		press(display.KindStatus, ok),
		press(display.KindSetup, short(hw.Next)),
	))
	dir := t.TempDir()
	c, _ := play(t, dir, reads([]int{2, 4, 4, 4}), Options{}, script...)
	if c.t.setup != nil || len(c.t.actions) != 0 {
		t.Fatalf("after OK: setup %v, %d actions, want a fresh table", c.t.setup, len(c.t.actions))
	}
	if archived, _ := filepath.Glob(filepath.Join(dir, ArchiveDir, "*")); len(archived) != 1 {
		t.Fatalf("the game was not archived: %v", archived)
	}
}
