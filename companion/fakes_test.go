package companion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

// step is one screen the loop must wait on, and what the players press there.
type step struct {
	kind  display.Kind
	press func(s display.Screen) []hw.Event // presses for this screen
	check func(s display.Screen) error      // optional extra expectation
}

func short(b hw.Button) hw.Event { return hw.Event{Button: b} }
func long(b hw.Button) hw.Event  { return hw.Event{Button: b, Long: true} }

func press(kind display.Kind, evs ...hw.Event) step {
	return step{kind: kind, press: func(display.Screen) []hw.Event { return evs }}
}

// choose highlights the choice using exactly these sums and confirms it.
func choose(sums ...int) step {
	return step{kind: display.KindChoices, press: func(s display.Screen) []hw.Event {
		for i, c := range s.Choices {
			if slices.Equal(c.Sums, sums) {
				evs := slices.Repeat([]hw.Event{short(hw.Next)}, (i-s.Selected+len(s.Choices))%len(s.Choices))
				return append(evs, short(hw.OK))
			}
		}
		return nil // no such choice: the driver reports it
	}}
}

// driver is the players: it watches the screens (Renderer) and presses the
// buttons (Buttons) a script says, failing on any screen the script did not expect.
type driver struct {
	t       *testing.T
	mu      sync.Mutex
	script  []step
	screens []display.Screen
	presses chan hw.Event
	done    chan struct{}
	closed  bool
	err     error
	pending int // presses pushed whose following screen is not the next step's
}

func newDriver(t *testing.T, script ...step) *driver {
	return &driver{t: t, script: script, presses: make(chan hw.Event, 64), done: make(chan struct{})}
}

// waits reports whether the loop waits for a press on this screen.
func waits(s display.Screen) bool {
	return !(s.Kind == display.KindStatus && (s.Status == display.StatusReading || s.Status == display.StatusResumed))
}

func (d *driver) Show(s display.Screen) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.screens = append(d.screens, s)
	if !waits(s) || d.closed {
		return nil
	}
	// Each press is followed by one waiting screen: a step's presses but the
	// last lead to intermediate screens, the last to the next step's.
	if d.pending > 1 {
		d.pending--
		return nil
	}
	d.pending = 0
	fail := func(format string, args ...any) {
		if d.err == nil {
			d.err = fmt.Errorf("screen %d (%s): %s", len(d.screens), s.Kind, fmt.Sprintf(format, args...))
		}
		d.closed = true
		close(d.done)
	}
	if len(d.script) == 0 {
		d.closed = true
		close(d.done)
		return nil
	}
	st := d.script[0]
	d.script = d.script[1:]
	if st.kind != s.Kind {
		fail("script expected %s", st.kind)
		return nil
	}
	if st.check != nil {
		if err := st.check(s); err != nil {
			fail("%v", err)
			return nil
		}
	}
	evs := st.press(s)
	if len(evs) == 0 {
		fail("script has no press for %+v", s)
		return nil
	}
	d.pending = len(evs)
	for _, e := range evs {
		d.presses <- e
	}
	return nil
}

func (d *driver) Next(ctx context.Context) (hw.Event, error) {
	select {
	case e := <-d.presses:
		return e, nil
	default:
	}
	select {
	case e := <-d.presses:
		return e, nil
	case <-d.done:
		return hw.Event{}, io.EOF
	case <-ctx.Done():
		return hw.Event{}, ctx.Err()
	}
}

// last returns the last screen of kind k.
func (d *driver) last(k display.Kind) (display.Screen, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := len(d.screens) - 1; i >= 0; i-- {
		if d.screens[i].Kind == k {
			return d.screens[i], true
		}
	}
	return display.Screen{}, false
}

// fakeDice returns queued readings; a reading with Err set fails. It records the rolls the
// players confirmed (Learner).
type fakeDice struct {
	mu        sync.Mutex
	queue     []fakeRead
	wants     []int
	confirmed [][]int
}

func (f *fakeDice) Confirm(values []int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.confirmed = append(f.confirmed, slices.Clone(values))
}

type fakeRead struct {
	res DiceResult
	err error
}

func reads(values ...[]int) *fakeDice {
	f := &fakeDice{}
	for _, v := range values {
		f.queue = append(f.queue, fakeRead{res: DiceResult{Values: v, Status: Read}})
	}
	return f
}

func (f *fakeDice) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.wants = append(f.wants, want)
	if len(f.queue) == 0 {
		return DiceResult{}, errors.New("fake camera: no more rolls queued")
	}
	r := f.queue[0]
	f.queue = f.queue[1:]
	return r.res, r.err
}

// play runs a companion until the script ends and returns it (closed).
func play(t *testing.T, dir string, dice DiceReader, opts Options, script ...step) (*Companion, *driver) {
	t.Helper()
	return playWith(t, dir, func(*driver) Deps { return Deps{Dice: dice} }, opts, script...)
}

// playWith is play with the devices deps gives, the driver being the buttons and the screen.
func playWith(t *testing.T, dir string, deps func(d *driver) Deps, opts Options, script ...step) (*Companion, *driver) {
	t.Helper()
	d := newDriver(t, script...)
	opts.StateDir = dir
	dp := deps(d)
	dp.Buttons, dp.Screen = d, d
	c, err := New(dp, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err = c.Run(ctx)
	c.Close()
	if d.err != nil {
		t.Fatalf("%v\nscreens: %s", d.err, kinds(d.screens))
	}
	if !errors.Is(err, io.EOF) {
		t.Fatalf("Run = %v, want the script's end (io.EOF); screens: %s", err, kinds(d.screens))
	}
	if len(d.script) > 0 {
		t.Fatalf("script not finished: %d steps left, next %s; screens: %s", len(d.script), d.script[0].kind, kinds(d.screens))
	}
	return c, d
}

func kinds(ss []display.Screen) string {
	out := ""
	for _, s := range ss {
		out += s.Kind.String()
		if s.Kind == display.KindStatus {
			out += fmt.Sprintf("(%d)", s.Status)
		}
		out += " "
	}
	return out
}

// Common script fragments.
var (
	startGame = []step{press(display.KindSetup, short(hw.Prev)), press(display.KindSetup, short(hw.OK))}
)

// nameFirst names player p (of n) as the first player without a roll-off.
func nameFirst(p, n int) step {
	return press(display.KindRollOff, append(slices.Repeat([]hw.Event{short(hw.Next)}, (p-1+n)%n+1), short(hw.OK))...)
}

func checkDice(want engine.Dice) func(display.Screen) error {
	return func(s display.Screen) error {
		if s.Dice != want {
			return fmt.Errorf("dice %v, want %v", s.Dice, want)
		}
		return nil
	}
}
