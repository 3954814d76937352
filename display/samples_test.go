package display

import (
	"image"
	"image/jpeg"
	"os"
	"testing"

	"github.com/cantstop/cantstop/engine"
)

// players sit at every sample table: accented and Cyrillic names on purpose.
var samplePlayers = []Player{
	{Name: "Anna", Colour: Red, Claimed: []int{6, 8}},
	{Name: "Ben", Colour: Blue, Claimed: []int{12}},
	{Name: "Лёва", Colour: Green},
	{Name: "Zoë", Colour: Yellow},
}

func sampleNamed(t testing.TB, name string) Screen {
	for _, s := range samples() {
		if s.name == name {
			return s.s
		}
	}
	t.Fatalf("no sample %q", name)
	return Screen{}
}

type sample struct {
	name string
	s    Screen
}

// samples are the screens the golden tests draw in every language: every
// Kind, every refusal reason, every status, and the lists scrolled. The
// positions are the seeds' printed examples (RULES.md "Examples").
func samples() []sample {
	ps := samplePlayers
	tray := trayPhoto()
	rules := engine.Rules{WinColumns: 3, NoStopOnOccupied: true}
	// Roll 1-5-4-6 on an empty board: 6+10, 5+11 or 7+9.
	first := []engine.Choice{
		{Sums: []int{6, 10}, Pairings: []engine.Pairing{0}, Steps: []engine.Step{{Column: 6, To: 1, New: true}, {Column: 10, To: 1, New: true}}},
		{Sums: []int{5, 11}, Pairings: []engine.Pairing{1}, Steps: []engine.Step{{Column: 5, To: 1, New: true}, {Column: 11, To: 1, New: true}}},
		{Sums: []int{7, 9}, Pairings: []engine.Pairing{2}, Steps: []engine.Step{{Column: 7, To: 1, New: true}, {Column: 9, To: 1, New: true}}},
	}
	// Runners in 6 and 10, roll 2-4-3-5: 6+8, 5 or 9 (one runner left), 7+7.
	second := []engine.Choice{
		{Sums: []int{6, 8}, Pairings: []engine.Pairing{0}, Steps: []engine.Step{{Column: 6, From: 1, To: 2}, {Column: 8, To: 1, New: true}}},
		{Sums: []int{5}, Pairings: []engine.Pairing{1}, Steps: []engine.Step{{Column: 5, To: 1, New: true}}},
		{Sums: []int{9}, Pairings: []engine.Pairing{1}, Steps: []engine.Step{{Column: 9, To: 1, New: true}}},
		{Sums: []int{7, 7}, Pairings: []engine.Pairing{2}, Steps: []engine.Step{{Column: 7, To: 2, New: true}}},
	}
	refusal := func(p engine.Pairing, a, b, sum int, r engine.Reason, col, player int) []engine.Refusal {
		return []engine.Refusal{{Pairing: p, Sums: [2]int{a, b}, Sum: sum, Reason: r, Column: col, Player: player}}
	}
	menu := []MenuItem{MenuCorrect, MenuUndo, MenuRules, MenuOdds, MenuNewGame, MenuCalibrate, MenuBack}
	setup := Setup{Players: ps[:3], Rules: rules, Lang: ""}
	editing := setup
	editing.Editing = true
	naming := editing
	naming.NameCursor = 8
	naming.Players = append([]Player{{Name: "ЖЖЖЖЖЖЖЖ", Colour: Orange}}, ps[1:3]...) // the widest 8 letters
	return []sample{
		{"setup", Screen{Kind: KindSetup, Players: ps, Setup: setup, Selected: 0}},
		{"setup-edit", Screen{Kind: KindSetup, Players: ps, Setup: editing, Selected: 5}},
		{"setup-name", Screen{Kind: KindSetup, Players: ps, Setup: naming, Selected: 1}},
		{"setup-end", Screen{Kind: KindSetup, Players: ps, Setup: setup, Selected: 9}},
		{"rolloff", Screen{Kind: KindRollOff, Players: ps, RollOff: RollOff{Rolls: [][2]int{{3, 5}, {6, 1}, {0, 0}, {0, 0}}, Leader: 0}}},
		{"rolloff-tie", Screen{Kind: KindRollOff, Players: ps, RollOff: RollOff{Rolls: [][2]int{{6, 5}, {2, 1}, {5, 6}, {4, 4}}, Leader: 0, Tied: []int{0, 2}}}},
		{"rolloff-done", Screen{Kind: KindRollOff, Players: ps, RollOff: RollOff{Rolls: [][2]int{{6, 6}, {2, 3}, {3, 5}, {1, 1}}, Leader: 0}}},
		{"turn", Screen{Kind: KindTurn, Players: ps, Player: 0, RunnersLeft: 3}},
		{"turn-one", Screen{Kind: KindTurn, Players: ps, Player: 2, RunnersLeft: 1}},
		{"turn-odds", Screen{Kind: KindTurn, Players: ps, Player: 1, RunnersLeft: 3, BustRolls: 0, Rolls: 1296}},
		{"dice", Screen{Kind: KindDice, Players: ps, Dice: engine.Dice{1, 5, 4, 6}, DiceRead: true}},
		{"dice-unreadable", Screen{Kind: KindDice, Players: ps, Dice: engine.Dice{5, 5, 2}}},
		{"choices", Screen{Kind: KindChoices, Players: ps, Dice: engine.Dice{1, 5, 4, 6}, Choices: first, Selected: 0}},
		{"choices-one", Screen{Kind: KindChoices, Players: ps, Dice: engine.Dice{2, 4, 3, 5}, Choices: second, Selected: 1}},
		{"move", Screen{Kind: KindMove, Players: ps, Steps: second[0].Steps}},
		{"move-double", Screen{Kind: KindMove, Players: ps, Steps: second[3].Steps}},
		{"move-odds", Screen{Kind: KindMove, Players: ps, Steps: second[3].Steps, BustRolls: 560, Rolls: 1296}},
		{"stop", Screen{Kind: KindStop, Players: ps, Player: 0, Stop: Stop{
			Pieces:  []engine.Step{{Column: 6, From: 3, To: 5}, {Column: 8, From: 0, To: 11}, {Column: 10, From: 0, To: 2}},
			Claimed: []int{8},
			Removed: []Removal{{Player: 1, Column: 8}},
		}}},
		{"stop-end", Screen{Kind: KindStop, Players: ps, Player: 0, Selected: 4, Stop: Stop{
			Pieces:  []engine.Step{{Column: 6, From: 3, To: 5}, {Column: 8, From: 0, To: 11}, {Column: 10, From: 0, To: 2}},
			Claimed: []int{8},
			Removed: []Removal{{Player: 1, Column: 8}},
		}}},
		{"bust", Screen{Kind: KindBust, Players: ps, Player: 1, Next: 2, Dice: engine.Dice{2, 2, 4, 6}}},
		{"winner", Screen{Kind: KindWinner, Players: []Player{{Name: "Anna", Colour: Red, Claimed: []int{6, 8, 10}}, ps[1]}, Player: 0}},
		// All 11 columns claimed, five needed: 3+3+3+2 is a draw, 4+3+2+2 a win on the most columns.
		{"winner-draw", Screen{Kind: KindWinner, Draw: true, WinColumns: 5, Players: []Player{
			{Name: "Anna", Claimed: []int{2, 3, 4}}, {Name: "Ben", Claimed: []int{5, 6, 7}},
			{Name: "Лёва", Claimed: []int{8, 9, 10}}, {Name: "Zoë", Claimed: []int{11, 12}}}}},
		{"winner-most", Screen{Kind: KindWinner, Player: 0, WinColumns: 5, Players: []Player{
			{Name: "Anna", Claimed: []int{2, 3, 4, 12}}, {Name: "Ben", Claimed: []int{5, 6, 7}},
			{Name: "Лёва", Claimed: []int{8, 9}}, {Name: "Zoë", Claimed: []int{10, 11}}}}},
		{"odds", Screen{Kind: KindOdds, Players: ps, BustRolls: 104, Rolls: 1296}},
		{"odds-low", Screen{Kind: KindOdds, Players: ps, BustRolls: 4}},
		// Columns 6, 8 and 10 claimed, roll 2-4-4-6.
		{"rules", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 6, 10, 10, engine.ReasonClaimed, 10, 0)}},
		// Runners in 3, 6 (on the top) and 8, roll 2-4-5-5.
		{"rules-top", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 6, 10, 6, engine.ReasonTop, 6, -1)}},
		{"rules-norunner", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 6, 10, 10, engine.ReasonNoRunner, 10, -1)}},
		{"rules-both", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 6, 10, 6, engine.ReasonMustUseBoth, 0, -1)}},
		{"rules-onerunner", Screen{Kind: KindRules, Players: ps, Refusals: refusal(1, 5, 9, 0, engine.ReasonOneRunnerLeft, 0, -1)}},
		{"rules-forced", Screen{Kind: KindRules, Players: ps, Refusals: refusal(2, 7, 7, 0, engine.ReasonForcedPlacement, 0, -1)}},
		{"rules-gameover", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 6, 10, 0, engine.ReasonGameOver, 0, -1)}},
		{"rules-stop", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 0, 0, 0, engine.ReasonStopOnOccupied, 9, 3)}},
		{"rules-nostop", Screen{Kind: KindRules, Players: ps, Refusals: refusal(0, 0, 0, 0, engine.ReasonNoRunnersToStop, 0, -1)}},
		{"rules-many", Screen{Kind: KindRules, Players: ps, Selected: 1, Refusals: append(
			refusal(0, 6, 10, 6, engine.ReasonTop, 6, -1), refusal(0, 6, 10, 10, engine.ReasonNoRunner, 10, -1)...)}},
		{"rules-none", Screen{Kind: KindRules, Players: ps}},
		{"menu", Screen{Kind: KindMenu, Players: ps, Menu: menu, Selected: 0}},
		{"menu-end", Screen{Kind: KindMenu, Players: ps, Menu: menu, Selected: 5}},
		{"correct", Screen{Kind: KindCorrect, Players: ps, Dice: engine.Dice{1, 5, 4, 6}, Selected: 2}},
		{"correct-done", Screen{Kind: KindCorrect, Players: ps, Dice: engine.Dice{1, 5, 4, 6}, Selected: 4}},
		// The reader read 1 and 5, and leaned to 4 and 6 for the other two: the first is edited.
		{"correct-unsure", Screen{Kind: KindCorrect, Players: ps, Dice: engine.Dice{1, 5, 4, 6}, Unsure: [4]bool{2: true, 3: true}, Selected: 2}},
		{"status", Screen{Kind: KindStatus, Status: StatusError, Detail: "open /dev/video0: no such file or directory"}},
		{"status-camera", Screen{Kind: KindStatus, Status: StatusCameraMissing}},
		{"status-reading", Screen{Kind: KindStatus, Status: StatusReading}},
		{"status-settle", Screen{Kind: KindStatus, Status: StatusNotSettled}},
		{"status-count", Screen{Kind: KindStatus, Status: StatusWrongCount}},
		{"status-save", Screen{Kind: KindStatus, Status: StatusSaveFailed}},
		{"status-resumed", Screen{Kind: KindStatus, Status: StatusResumed}},
		{"status-ready", Screen{Kind: KindStatus, Status: StatusReady, Detail: "cantstop doctor"}},
		{"status-newgame", Screen{Kind: KindStatus, Status: StatusNewGame}},
		{"status-calempty", Screen{Kind: KindStatus, Status: StatusCalEmpty}},
		{"status-calempty-again", Screen{Kind: KindStatus, Status: StatusCalEmpty, Detail: "the tray is not empty: 2 dice seen in it; take them out"}},
		{"status-caltray", Screen{Kind: KindStatus, Status: StatusCalTray}},
		{"status-calroll", Screen{Kind: KindStatus, Status: StatusCalRoll}},
		{"status-calkeep", Screen{Kind: KindStatus, Status: StatusCalKeep}},
		{"status-callearn", Screen{Kind: KindStatus, Status: StatusCalLearn, Detail: "3/6"}},
		{"status-caldone", Screen{Kind: KindStatus, Status: StatusCalDone}},
		{"status-calibrate", Screen{Kind: KindStatus, Status: StatusCalibrate}},
		// A 4:3 frame of the tray, as found; the same photo whole (square), its top edge being moved.
		{"tray", Screen{Kind: KindTray, Selected: EdgeNone, Tray: TrayBox{Picture: crop(tray, image.Rect(0, 80, 640, 560)),
			Frame: image.Pt(640, 480), Box: image.Rect(50, 25, 595, 455), Found: true}}},
		{"tray-edge", Screen{Kind: KindTray, Selected: EdgeTop, Tray: TrayBox{Picture: tray,
			Frame: image.Pt(640, 640), Box: image.Rect(50, 120, 595, 535)}}},
	}
}

// trayPhoto is testdata/tray.jpg, a nell-byler photo of a tray; nil (and every tray sample
// fails its golden file) when it cannot be read.
func trayPhoto() image.Image {
	f, err := os.Open("testdata/tray.jpg")
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

func crop(img image.Image, r image.Rectangle) image.Image {
	if img == nil {
		return nil
	}
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}
