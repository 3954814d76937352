package hw

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// syncClock is the fake clock one gpiotest.Pin waits on. It records each
// wait so the test knows when the pin's goroutine is blocked again: the
// lock-step that makes edge trains on a fake clock deterministic.
type syncClock struct {
	*clockwork.FakeClock
	mu       sync.Mutex
	waits    int
	deadline time.Time
}

func (c *syncClock) After(d time.Duration) <-chan time.Time {
	ch := c.FakeClock.After(d) // registered before it is recorded: the rig advances only after the record
	c.mu.Lock()
	c.waits++
	c.deadline = c.FakeClock.Now().Add(d)
	c.mu.Unlock()
	return ch
}

func (c *syncClock) state() (int, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waits, c.deadline
}

// rig is four gpiotest pins on one fake clock, watched by a GPIO.
type rig struct {
	t    *testing.T
	o    Opts
	fc   *clockwork.FakeClock
	pins [4]*gpiotest.Pin
	clks [4]*syncClock
	g    *GPIO
	t0   time.Time
}

func newRig(t *testing.T, o Opts) *rig {
	t.Helper()
	r := pinsRig(t, o)
	return r.start(r.pinIns())
}

// pinsRig makes the pins and the clock without starting a GPIO.
func pinsRig(t *testing.T, o Opts) *rig {
	r := &rig{t: t, o: o, t0: time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)}
	r.fc = clockwork.NewFakeClockAt(r.t0)
	for i := range r.pins {
		r.clks[i] = &syncClock{FakeClock: r.fc}
		r.pins[i] = &gpiotest.Pin{N: DefaultPins().Names()[i], Num: i, EdgesChan: make(chan gpio.Level), Clock: r.clks[i]}
	}
	return r
}

func (r *rig) pinIns() [4]gpio.PinIn {
	var ps [4]gpio.PinIn
	for i, p := range r.pins {
		ps[i] = p
	}
	return ps
}

func (r *rig) start(ps [4]gpio.PinIn) *rig {
	r.t.Helper()
	g, err := newGPIO(ps, r.o, r.fc)
	if err != nil {
		r.t.Fatal(err)
	}
	r.g = g
	r.t.Cleanup(r.close)
	r.idle()
	return r
}

// close closes the GPIO, moving the fake clock so blocked waits return.
func (r *rig) close() {
	done := make(chan struct{})
	go func() {
		r.g.Close()
		close(done)
	}()
	for limit := time.Now().Add(10 * time.Second); ; {
		select {
		case <-done:
			return
		default:
		}
		if time.Now().After(limit) {
			r.t.Fatal("Close did not return")
		}
		r.fc.Advance(r.o.Poll)
		time.Sleep(100 * time.Microsecond)
	}
}

func (r *rig) waitFor(what string, cond func() bool) {
	r.t.Helper()
	for limit := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(limit) {
			r.t.Fatalf("pin goroutine never %s", what)
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// idle waits until every pin goroutine is blocked in WaitForEdge for a time
// still ahead of the fake clock.
func (r *rig) idle() {
	r.t.Helper()
	for i, c := range r.clks {
		r.waitFor("went back to waiting on "+r.pins[i].N, func() bool {
			n, dl := c.state()
			return n > 0 && dl.After(r.fc.Now())
		})
	}
}

// now is the fake time since the rig started.
func (r *rig) now() time.Duration { return r.fc.Now().Sub(r.t0) }

// advance moves the fake clock in 1 ms steps, letting the goroutines act on
// each, so presses completing at different times arrive in that order.
func (r *rig) advance(d time.Duration) {
	r.t.Helper()
	for d > 0 {
		s := min(d, time.Millisecond)
		r.fc.Advance(s)
		r.idle()
		d -= s
	}
}

// until advances the fake clock to t after the start.
func (r *rig) until(t time.Duration) {
	r.t.Helper()
	if t < r.now() {
		r.t.Fatalf("schedule goes back in time: %v < %v", t, r.now())
	}
	r.advance(t - r.now())
}

// edge makes one edge to level l on button b's pin.
func (r *rig) edge(b Button, l gpio.Level) {
	r.t.Helper()
	c := r.clks[b]
	n0, _ := c.state()
	select {
	case r.pins[b].EdgesChan <- l:
	case <-time.After(10 * time.Second):
		r.t.Fatalf("%v pin goroutine did not take the edge", b)
	}
	r.waitFor("came back from an edge", func() bool { n, _ := c.state(); return n > n0 })
}

// pinEdge is one edge at a time after the rig started.
type pinEdge struct {
	at time.Duration
	b  Button
	l  gpio.Level
}

// play runs edges from several pins in time order.
func (r *rig) play(edges ...[]pinEdge) {
	r.t.Helper()
	var all []pinEdge
	for _, e := range edges {
		all = append(all, e...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	for _, e := range all {
		r.until(e.at)
		r.edge(e.b, e.l)
	}
}

// bounceGaps are the times between contact bounces, 0.2–2.5 ms, as a scope
// shows on cheap tactile switches.
var bounceGaps = [...]time.Duration{
	300 * time.Microsecond, 1200 * time.Microsecond, 500 * time.Microsecond, 2 * time.Millisecond,
	800 * time.Microsecond, 1500 * time.Microsecond, 400 * time.Microsecond, 2500 * time.Microsecond,
	600 * time.Microsecond, 200 * time.Microsecond,
}

// bouncy is a contact closing (to Low) or opening (to High) at t with n
// bounces: 2n+1 edges ending at level to, over at most 12 ms.
func bouncy(b Button, t time.Duration, to gpio.Level, n int) []pinEdge {
	es := []pinEdge{{t, b, to}}
	for k := range n {
		t += bounceGaps[(2*k)%len(bounceGaps)]
		es = append(es, pinEdge{t, b, !to})
		t += bounceGaps[(2*k+1)%len(bounceGaps)]
		es = append(es, pinEdge{t, b, to})
	}
	return es
}

// spike is a noise pulse away from level from, lasting w.
func spike(b Button, t time.Duration, from gpio.Level, w time.Duration) []pinEdge {
	return []pinEdge{{t, b, !from}, {t + w, b, from}}
}

// want is an expected press; at is when it began, after the rig started.
type want struct {
	b    Button
	long bool
	at   time.Duration
}

func (w want) String() string {
	kind := "short"
	if w.long {
		kind = "long"
	}
	return fmt.Sprintf("%s %v from %v", kind, w.b, w.at)
}

// got returns the presses reported so far, without waiting: at an idle
// point every completed press is already in the channel.
func (r *rig) got() []want {
	var ws []want
	for {
		select {
		case ev := <-r.g.events:
			ws = append(ws, want{ev.Button, ev.Long, ev.At.Sub(r.t0)})
		default:
			return ws
		}
	}
}

func (r *rig) expect(ws ...want) {
	r.t.Helper()
	got := r.got()
	if len(got) != len(ws) {
		r.t.Fatalf("at %v: got presses %v, want %v", r.now(), got, ws)
	}
	for i := range ws {
		if got[i] != ws[i] {
			r.t.Fatalf("at %v: got presses %v, want %v", r.now(), got, ws)
		}
	}
}
