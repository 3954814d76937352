package engine

// This file is the engine's public vocabulary. Other packages (display,
// companion, cmd) code against these names; change them only with care.

// Columns run from MinColumn to MaxColumn; MinPlayers and MaxPlayers bound
// the player count; MaxRunners is the number of neutral runners.
const (
	MinColumn  = 2
	MaxColumn  = 12
	MinPlayers = 2
	MaxPlayers = 4
	MaxRunners = 3
)

// heights holds each column's number of spaces; the top one is the numbered space.
var heights = [MaxColumn + 1]int{2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}

// Height is the number of spaces in column c (0 for a number that is not a column).
func Height(c int) int {
	if c < MinColumn || c > MaxColumn {
		return 0
	}
	return heights[c]
}

// Rules are the edition options of RULES.md. The zero value is not valid:
// use DefaultRules and change what differs.
type Rules struct {
	WinColumns       int  `json:"win_columns"`                   // 3, 4 or 5
	SkipOccupied     bool `json:"skip_occupied,omitempty"`       // Sackson's "jump"
	NoStopOnOccupied bool `json:"no_stop_on_occupied,omitempty"` // may not stop on an opponent's piece
	ForcedPlacement  bool `json:"forced_placement,omitempty"`    // place as many new runners as possible
}

// Dice is one roll of the four dice, in the order rolled, each 1..6.
type Dice [4]int

// Pairing is one of the three ways to split four dice into two pairs:
// 0 = (d0+d1, d2+d3), 1 = (d0+d2, d1+d3), 2 = (d0+d3, d1+d2).
type Pairing int

// Step says what one sum does on the board: a runner placed in Column (New)
// or moved, from space From (0 when newly placed from off the board; for a
// new runner From is the mover's own piece, or 0) to space To.
type Step struct {
	Column int  `json:"column"`
	From   int  `json:"from"`
	To     int  `json:"to"`
	New    bool `json:"new"`
}

// Choice is one legal outcome of a roll: the sums it uses (one or two, in
// the order applied), the runners afterwards, and the steps that get there.
// Pairings lists every pairing that leads to this same outcome.
type Choice struct {
	Sums     []int     `json:"sums"`
	Pairings []Pairing `json:"pairings"`
	Steps    []Step    `json:"steps"`
	Runners  Runners   `json:"runners"`
}

// Runners maps column -> space of the mover's runner this turn (0 = none).
type Runners [MaxColumn + 1]int

// Reason says why a sum or a pairing cannot be used. Displays translate it;
// the engine never builds sentences.
type Reason int

const (
	ReasonNone            Reason = iota
	ReasonClaimed                // column claimed (Player says by whom)
	ReasonTop                    // the mover's runner already stands on the top space
	ReasonNoRunner               // needs a new runner and all three are in use
	ReasonMustUseBoth            // only one sum chosen though both can be used together
	ReasonOneRunnerLeft          // both sums need a new runner and one is left: one or the other, not both
	ReasonForcedPlacement        // forced_placement: another choice places more new runners
	ReasonGameOver               // the game is over (Player: the winner, -1 for a draw)
	ReasonStopOnOccupied         // no_stop_on_occupied: a runner stands on an opponent's piece
	ReasonNoRunnersToStop        // nothing to bank: no runner placed this turn
)

// Refusal explains one unusable sum of one pairing (Sum 0 = the pairing as a whole).
type Refusal struct {
	Pairing Pairing `json:"pairing"`
	Sums    [2]int  `json:"sums"`
	Sum     int     `json:"sum,omitempty"`
	Reason  Reason  `json:"reason"`
	Column  int     `json:"column,omitempty"`
	Player  int     `json:"player"` // owner of a claimed column, or of the piece stood on; -1 when none
}

// Analysis is everything a roll allows and everything it refuses, with why.
type Analysis struct {
	Choices  []Choice  `json:"choices"`
	Refusals []Refusal `json:"refusals"`
}

// Bust reports whether the roll allows no choice at all.
func (a Analysis) Bust() bool { return len(a.Choices) == 0 }
