package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// Auto is an automatic table of players: it watches the screens the loop
// shows (a companion.Renderer) and presses the buttons a simple player
// would (companion.Buttons). Its stopping rule: bank when the next roll
// busts more often than MaxBust, when a runner reached a top, or after
// MaxMoves moves in the turn.
type Auto struct {
	Players  int                // seats to set up (2–4)
	Games    int                // games to finish; then Done is closed
	MaxBust  float64            // default 0.3
	MaxMoves int                // default 4
	Mirror   companion.Renderer // optional: also show every screen here
	Stuck    time.Duration      // longest wait for a screen needing a press; default 10 s

	once    sync.Once
	mu      sync.Mutex
	rng     *rand.Rand
	presses chan hw.Event
	done    chan struct{}
	last    display.Screen
	moves   int  // moves this turn
	refused bool // the last STOP was refused: roll on
	bad     int  // readings refused in a row
	pending int  // presses sent whose answering screen is still to come
	stats   GameStats
	err     error
}

// MaxRefusedReads is how many refused readings in a row make the automatic
// players give up: the reader is then failing, not unlucky.
const MaxRefusedReads = 20

// ErrFinished is what Auto's Next returns once every game is played.
var ErrFinished = errors.New("sim: automatic games finished")

// GameStats counts what the automatic players did.
type GameStats struct {
	Games, Turns, Moves, Busts, Stops, Refused int
	Wins                                       []int // per seat
	Draws                                      int   // games ended with all columns claimed and a tie
}

// NewAuto returns automatic players for games games of players seats whose
// choices follow seed.
func NewAuto(players, games int, seed uint64) *Auto {
	return &Auto{Players: players, Games: games, MaxBust: 0.3, MaxMoves: 4, Stuck: 10 * time.Second,
		rng: rand.New(rand.NewPCG(seed, 0xA070)), presses: make(chan hw.Event, 16), done: make(chan struct{}),
		stats: GameStats{Wins: make([]int, players)}}
}

// Done is closed when the games are played (or the players got stuck: see Err).
func (a *Auto) Done() <-chan struct{} { return a.done }

// Err says why the players stopped early, if they did.
func (a *Auto) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// Stats returns the counts so far.
func (a *Auto) Stats() GameStats {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.stats
	s.Wins = append([]int(nil), s.Wins...)
	return s
}

// Show decides the presses for s.
func (a *Auto) Show(s display.Screen) error {
	if a.Mirror != nil {
		if err := a.Mirror.Show(s); err != nil {
			return err
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.last = s
	if s.Kind == display.KindStatus && (s.Status == display.StatusReading || s.Status == display.StatusResumed) {
		return nil // the loop goes on by itself
	}
	// Every press is answered by one screen: those after all but the last
	// press of a decision are steps on the way (a highlight moving).
	if a.pending > 1 {
		a.pending--
		return nil
	}
	bs := a.decide(s)
	a.pending = len(bs)
	for _, b := range bs {
		a.presses <- hw.Event{Button: b, At: time.Now()}
	}
	return nil
}

func (a *Auto) finish(err error) {
	a.once.Do(func() {
		a.err = err
		close(a.done)
	})
}

// decide is the players' policy: the buttons to press on screen s.
func (a *Auto) decide(s display.Screen) []hw.Button {
	switch {
	case s.Kind == display.KindDice, s.Kind == display.KindStatus &&
		(s.Status == display.StatusNotSettled || s.Status == display.StatusWrongCount):
		if a.bad++; a.bad >= MaxRefusedReads {
			a.finish(fmt.Errorf("the reader refused %d readings in a row (last: %s)", a.bad, s.Detail))
			return nil
		}
	case s.Kind == display.KindChoices, s.Kind == display.KindBust, s.Kind == display.KindRollOff:
		a.bad = 0
	}
	switch s.Kind {
	case display.KindSetup:
		return a.setup(s)
	case display.KindRollOff, display.KindBust, display.KindDice:
		if s.Kind == display.KindBust {
			a.stats.Busts++
			a.stats.Turns++
			a.moves = 0
		}
		return []hw.Button{hw.OK}
	case display.KindTurn:
		a.moves, a.refused = 0, false
		return []hw.Button{hw.OK}
	case display.KindChoices:
		a.refused = false
		return a.choose(s)
	case display.KindMove:
		a.moves++
		a.stats.Moves++
		if a.wantStop(s) {
			return []hw.Button{hw.Stop}
		}
		return []hw.Button{hw.OK}
	case display.KindRules: // a refused stop: roll on
		a.stats.Refused++
		a.refused = true
		return []hw.Button{hw.OK}
	case display.KindStop:
		a.stats.Stops++
		a.stats.Turns++
		return []hw.Button{hw.OK}
	case display.KindWinner:
		a.stats.Games++
		switch {
		case s.Draw:
			a.stats.Draws++
		case s.Player >= 0 && s.Player < len(a.stats.Wins):
			a.stats.Wins[s.Player]++
		}
		if a.stats.Games >= a.Games {
			a.finish(nil)
			return nil
		}
		return []hw.Button{hw.OK}
	case display.KindCorrect:
		return []hw.Button{hw.OK}
	case display.KindStatus:
		switch s.Status {
		case display.StatusReading, display.StatusResumed:
			return nil
		case display.StatusNotSettled, display.StatusWrongCount:
			return []hw.Button{hw.OK}
		}
		a.finish(fmt.Errorf("automatic players stopped on status %d: %s", s.Status, s.Detail))
		return nil
	}
	a.finish(fmt.Errorf("automatic players do not know screen %s", s.Kind))
	return nil
}

// setup sets the player count, then starts.
func (a *Auto) setup(s display.Screen) []hw.Button {
	items := display.SetupItems(len(s.Setup.Players))
	it := items[s.Selected]
	n := len(s.Setup.Players)
	switch {
	case s.Setup.Editing && it.Field == display.FieldPlayers && n != a.Players:
		return []hw.Button{hw.Next}
	case s.Setup.Editing:
		return []hw.Button{hw.OK}
	case it.Field == display.FieldPlayers && n != a.Players:
		return []hw.Button{hw.OK}
	case it.Field == display.FieldStart:
		return []hw.Button{hw.OK}
	}
	return []hw.Button{hw.Next}
}

// choose picks the choice that climbs furthest (relative to column height),
// ties broken at random, and presses Next until it is highlighted.
func (a *Auto) choose(s display.Screen) []hw.Button {
	best, score := 0, -1.0
	for i, c := range s.Choices {
		v := a.rng.Float64() * 1e-6
		for _, st := range c.Steps {
			v += float64(st.To-st.From) / float64(engine.Height(st.Column))
			if st.To == engine.Height(st.Column) {
				v += 0.5
			}
		}
		if v > score {
			best, score = i, v
		}
	}
	var out []hw.Button
	for i := s.Selected; i != best; i = (i + 1) % len(s.Choices) {
		out = append(out, hw.Next)
	}
	return append(out, hw.OK)
}

func (a *Auto) wantStop(s display.Screen) bool {
	if a.refused {
		return false
	}
	for _, st := range s.Steps {
		if st.To == engine.Height(st.Column) {
			return true
		}
	}
	rolls := s.Rolls
	if rolls == 0 {
		rolls = engine.Rolls
	}
	return float64(s.BustRolls)/float64(rolls) > a.MaxBust || a.moves >= a.MaxMoves
}

// Next returns the next press the players decided on.
func (a *Auto) Next(ctx context.Context) (hw.Event, error) {
	t := time.NewTimer(a.Stuck)
	defer t.Stop()
	select {
	case e := <-a.presses:
		return e, nil
	case <-ctx.Done():
		return hw.Event{}, ctx.Err()
	case <-a.done:
		if err := a.Err(); err != nil {
			return hw.Event{}, err
		}
		return hw.Event{}, ErrFinished
	case <-t.C:
		a.mu.Lock()
		last := a.last.Kind
		a.mu.Unlock()
		err := fmt.Errorf("automatic players got no screen to act on for %s (last: %s)", a.Stuck, last)
		a.finish(err)
		return hw.Event{}, err
	}
}
