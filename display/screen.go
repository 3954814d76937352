package display

import "github.com/cantstop/cantstop/engine"

// Kind says which screen to show; each kind reads its own fields of Screen.
type Kind int

const (
	KindSetup   Kind = iota // Setup, Selected (highlighted SetupItems entry)
	KindRollOff             // RollOff
	KindTurn                // Player, Players[Player].Claimed, RunnersLeft; BustRolls of Rolls if Rolls > 0
	KindDice                // Dice, DiceRead (unread: Dice holds the values that were read, 0 for none)
	KindChoices             // Dice, Choices, Selected
	KindMove                // Steps: what to do on the board after a choice; BustRolls of Rolls if Rolls > 0
	KindStop                // Player, Stop: pieces to place, claims, removals; Selected scrolls
	KindBust                // Player, Next
	KindWinner              // Player (the winner), Players[Player].Claimed, WinColumns; or Draw, Players[].Claimed
	KindOdds                // BustRolls, Rolls
	KindRules               // Refusals, Selected (the one explained)
	KindMenu                // Menu, Selected
	KindCorrect             // Dice, Selected (0-3 = the die edited, 4 = confirm)
	KindStatus              // Status, Detail
	KindTray                // Tray, Selected (EdgeLeft..EdgeBottom: the edge moved; EdgeNone: the whole box)
	numKinds
)

// Kinds lists every screen kind, in order.
func Kinds() []Kind {
	k := make([]Kind, numKinds)
	for i := range k {
		k[i] = Kind(i)
	}
	return k
}

var kindNames = [numKinds]string{"setup", "rolloff", "turn", "dice", "choices", "move", "stop", "bust",
	"winner", "odds", "rules", "menu", "correct", "status", "tray"}

// String is the kind's short name, also used for golden file names.
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "kind?"
	}
	return kindNames[k]
}

// Screen is everything one screen shows, as plain data: no drawing here.
// Only the fields documented for its Kind are read. Player indexes Players.
type Screen struct {
	Kind Kind
	Lang Lang // overrides the renderer's language when set (the setup screen changes it live)

	Players []Player // every player in seat order; names should be 8 runes at most
	Player  int      // the player the screen is about (mover, buster, stopper, winner)
	Next    int      // KindBust: the player who plays next

	// KindWinner: Draw is engine Position.Draw (Winner is then -1 and
	// Player is not read): the screen names the players owning the most
	// Players[].Claimed. WinColumns is the rules' win_columns: a winner
	// owning fewer won on the most columns, and the screen says so (0: not said).
	Draw       bool
	WinColumns int

	Selected int // highlighted item (setup, choices, menu, correct), or the item scrolled to (stop, rules)

	Setup       Setup
	RollOff     RollOff
	RunnersLeft int

	Dice     engine.Dice
	DiceRead bool    // KindDice: false = unreadable, re-roll or correct
	Unsure   [4]bool // KindCorrect: the dice whose values are the reader's guesses, marked "?"

	Choices  []engine.Choice
	Steps    []engine.Step // KindMove: the steps of the confirmed choice
	Stop     Stop
	Refusals []engine.Refusal

	// BustRolls of Rolls bust on the next roll (engine.BustOdds: Bust of
	// engine.Rolls). KindOdds takes Rolls 0 as 1296; turn and move screens
	// show the chance only when Rolls > 0.
	BustRolls, Rolls int

	Menu   []MenuItem
	Tray   TrayBox
	Status Status
	Detail string // KindStatus: untranslated detail (a device path, an error text)
}

// Player is one seat at the table.
type Player struct {
	Name    string
	Colour  Colour
	Claimed []int // columns this player owns
}

// Colour is a player's piece colour.
type Colour int

const (
	Red Colour = iota
	Blue
	Green
	Yellow
	Orange
	Purple
	White
	Black
	numColours
)

// Setup is the game being set up. The highlighted line is Screen.Selected,
// an index into SetupItems(len(Players)); Editing says its value is being changed.
type Setup struct {
	Players []Player
	Rules   engine.Rules
	Lang    Lang
	Editing bool
	// NameCursor, when above 0, says the highlighted player's name is being spelt and the
	// cursor is on its NameCursor-th letter (one past the last: the end mark).
	NameCursor int
}

// SetupField names one line of the setup screen.
type SetupField int

const (
	FieldPlayers SetupField = iota // number of players
	FieldPlayer                    // one player's name and colour (SetupItem.Player)
	FieldWinColumns
	FieldSkipOccupied
	FieldNoStopOnOccupied
	FieldForcedPlacement
	FieldLang
	FieldStart
)

// SetupItem is one line of the setup screen.
type SetupItem struct {
	Field  SetupField
	Player int // for FieldPlayer
}

// SetupItems lists the setup screen's lines for n players, in display order.
func SetupItems(n int) []SetupItem {
	items := []SetupItem{{Field: FieldPlayers}}
	for i := 0; i < n; i++ {
		items = append(items, SetupItem{Field: FieldPlayer, Player: i})
	}
	for _, f := range []SetupField{FieldWinColumns, FieldSkipOccupied, FieldNoStopOnOccupied, FieldForcedPlacement, FieldLang, FieldStart} {
		items = append(items, SetupItem{Field: f})
	}
	return items
}

// RollOff shows the roll for the first player: each player's two dice.
type RollOff struct {
	Rolls  [][2]int // per player (index = seat); {0,0} = not rolled (yet) in this round
	Leader int      // highest so far, -1 = none
	Tied   []int    // players who tied for the highest and roll again
}

// Stop is what the players do on the board after a stop.
type Stop struct {
	Pieces  []engine.Step // the mover's pieces: move (or place) each up to its runner
	Claimed []int         // columns claimed by this stop
	Removed []Removal     // opponents' pieces taken off claimed columns
}

// Removal is one opponent's piece to take off the board (the engine's own
// type: Player, Column, Space).
type Removal = engine.Removal

// MenuItem is one entry of the long-press menu.
type MenuItem int

const (
	MenuCorrect MenuItem = iota // correct the dice read
	MenuUndo
	MenuRules // why is a sum or pairing not allowed
	MenuOdds
	MenuNewGame
	MenuCalibrate // calibrate the camera again (the service's own calibration)
	MenuBack
	numMenuItems
)

// Status is a condition reported on the status screen.
type Status int

const (
	StatusError         Status = iota // any other problem: Detail says what
	StatusCameraMissing               // no camera: dice are entered with the buttons
	StatusReading                     // reading the dice
	StatusNotSettled                  // dice still moving
	StatusWrongCount                  // not four dice in the tray
	StatusSaveFailed                  // the game could not be saved
	StatusResumed                     // a saved game was resumed
	StatusReady                       // the device works (cantstop doctor)
	StatusNewGame                     // asks before ending the game in progress
	StatusCalEmpty                    // calibration: empty the tray, then OK
	StatusCalTray                     // calibration: the tray found, OK to take it
	StatusCalRoll                     // calibration: roll the dice, then OK
	StatusCalKeep                     // calibration: the roll was misread; keep it anyway?
	StatusCalLearn                    // calibration: roll again so the reader learns the dice
	StatusCalDone                     // calibration saved
	StatusCalibrate                   // asks before calibrating from the menu
	numStatuses
)
