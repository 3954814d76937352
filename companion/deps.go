package companion

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// Buttons yields presses of the four buttons (hw.GPIO, hw.Keyboard, scripts).
type Buttons interface {
	Next(ctx context.Context) (hw.Event, error)
}

// Renderer shows a screen (display.OLED, display.Terminal, display.PNG, fakes).
type Renderer interface {
	Show(s display.Screen) error
}

// DiceReader reads the dice on the table once they have settled. want is how
// many dice the players rolled: 4 in a turn, 2 for each player in the roll-off.
type DiceReader interface {
	ReadDice(ctx context.Context, want int) (DiceResult, error)
}

// Learner is implemented by a DiceReader that learns the rig's dice from what the players play:
// Confirm gives the values of the last roll ReadDice returned as the players confirmed it by
// choosing a move (or calling the bust), after any correction.
type Learner interface {
	Confirm(values []int)
}

// Calibrator calibrates the camera again from the menu: calibration's questions on the
// display, answered with b (the companion's buttons, which go on answering the service's
// watchdog), then the dice reader set up from the new calibration, which replaces the one in
// use (nil: none, the players enter the dice). An error leaves the reader in use as it was.
type Calibrator func(ctx context.Context, b Buttons) (DiceReader, error)

// ReadStatus says whether a DiceResult can be used.
type ReadStatus int

const (
	Read       ReadStatus = iota // every die read
	Unreadable                   // a die cocked, hidden or ambiguous
	WrongCount                   // not the number of dice expected
	NotSettled                   // the dice did not come to rest in time
)

func (s ReadStatus) String() string {
	switch s {
	case Read:
		return "read"
	case Unreadable:
		return "unreadable"
	case WrongCount:
		return "wrong count"
	case NotSettled:
		return "not settled"
	}
	return "status?"
}

// DiceResult is one settled reading of the table.
type DiceResult struct {
	Values []int // the values read, in any order
	Status ReadStatus
	Why    string // for a status other than Read: what was wrong
	// Guess is every die found: the values read, then the last Unsure of them the values the
	// reader leaned to for dice it could not read surely. The players' correction starts from
	// it, those dice marked; it is never played unless they confirm it.
	Guess  []int
	Unsure int
}

// Deps are the companion's devices. Dice may be nil: the players then enter
// the dice with the buttons.
type Deps struct {
	Buttons Buttons
	Dice    DiceReader
	Screen  Renderer
	Log     *slog.Logger
	// Calibrate, when set, puts "Calibrate camera" in the menu.
	Calibrate Calibrator
}

// Options configure a companion; DefaultOptions fills in what is left zero.
type Options struct {
	StateDir    string           // where the game in progress and finished games are kept (required)
	Lang        display.Lang     // display language offered at setup
	Players     []display.Player // seats offered at setup (2–4); default Red and Blue
	Rules       engine.Rules     // rule options offered at setup
	ReadTimeout time.Duration    // longest wait for the dice to settle; default 15 s
	Log         *slog.Logger     // overrides Deps.Log
	Now         func() time.Time // clock for journal entries; default time.Now
}

// DefaultOptions returns options for a two-player game with the printed rules.
func DefaultOptions(stateDir string) Options {
	return Options{
		StateDir:    stateDir,
		Lang:        display.English,
		Players:     DefaultPlayers(2),
		Rules:       engine.DefaultRules(),
		ReadTimeout: 15 * time.Second,
	}
}

// DefaultPlayers returns n seats named after their colours' order.
func DefaultPlayers(n int) []display.Player {
	colours := []display.Colour{display.Red, display.Blue, display.Green, display.Yellow}
	ps := make([]display.Player, n)
	for i := range ps {
		ps[i] = display.Player{Name: playerName(i), Colour: colours[i%len(colours)]}
	}
	return ps
}

func playerName(i int) string { return "P" + strconv.Itoa(i+1) }
