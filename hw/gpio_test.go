package hw

import (
	"context"
	"errors"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

const ms = time.Millisecond

// The defaults: 20 ms debounce, 700 ms long press, 100 ms poll.

func TestCleanPress(t *testing.T) {
	r := newRig(t, DefaultOpts())
	r.play([]pinEdge{{10 * ms, OK, gpio.Low}, {130 * ms, OK, gpio.High}})
	r.until(149 * ms)
	r.expect() // release not settled yet: 19 ms of quiet
	r.until(150 * ms)
	r.expect(want{OK, false, 10 * ms})
	r.until(2 * time.Second)
	r.expect()
}

func TestBouncyPress(t *testing.T) {
	r := newRig(t, DefaultOpts())
	press := bouncy(Next, 5*ms, gpio.Low, 5)
	release := bouncy(Next, 200*ms, gpio.High, 5)
	if len(press) != 11 || press[10].at-press[0].at > 12*ms {
		t.Fatalf("press train has %d edges over %v, want 11 over at most 12 ms", len(press), press[10].at-press[0].at)
	}
	r.play(press, release)
	r.until(release[len(release)-1].at + 19*ms)
	r.expect()
	r.advance(ms)
	r.expect(want{Next, false, 5 * ms})
	r.until(3 * time.Second)
	r.expect()
}

func TestNoiseSpikes(t *testing.T) {
	r := newRig(t, DefaultOpts())
	var edges [][]pinEdge
	// Idle line: single spikes of 50 µs to 15 ms, and a burst of four.
	for i, w := range []time.Duration{50 * time.Microsecond, ms, 5 * ms, 15 * ms} {
		edges = append(edges, spike(Stop, time.Duration(i)*100*ms, gpio.High, w))
	}
	for k := range 4 {
		edges = append(edges, spike(Prev, 50*ms+time.Duration(k)*3*ms, gpio.High, 400*time.Microsecond))
	}
	// A held button: spikes up while it is down must not release it.
	edges = append(edges, bouncy(OK, 500*ms, gpio.Low, 3))
	edges = append(edges, spike(OK, 560*ms, gpio.Low, 200*time.Microsecond), spike(OK, 580*ms, gpio.Low, 8*ms))
	edges = append(edges, bouncy(OK, 650*ms, gpio.High, 3))
	r.play(edges...)
	r.until(time.Second)
	r.expect(want{OK, false, 500 * ms})
}

func TestLongPress(t *testing.T) {
	r := newRig(t, DefaultOpts())
	r.play(bouncy(OK, 100*ms, gpio.Low, 5))
	r.until(799 * ms)
	r.expect()
	r.until(800 * ms) // reported while still held
	r.expect(want{OK, true, 100 * ms})
	r.play(bouncy(OK, 2*time.Second, gpio.High, 5))
	r.until(3 * time.Second)
	r.expect() // its release reports nothing
	// The next press is judged on its own.
	r.play(bouncy(OK, 3*time.Second, gpio.Low, 2), bouncy(OK, 3100*ms, gpio.High, 2))
	r.until(3200 * ms)
	r.expect(want{OK, false, 3 * time.Second})
}

// A release that begins just before the threshold but bounces past it is a
// short press: length runs from first edge to first edge.
func TestReleaseBouncingOverThreshold(t *testing.T) {
	r := newRig(t, DefaultOpts())
	r.play(bouncy(Stop, 0, gpio.Low, 5), bouncy(Stop, 695*ms, gpio.High, 5))
	r.until(800 * ms)
	r.expect(want{Stop, false, 0})
}

func TestTwoQuickPresses(t *testing.T) {
	r := newRig(t, DefaultOpts())
	first := append(bouncy(Next, 0, gpio.Low, 5), bouncy(Next, 60*ms, gpio.High, 5)...)
	// The second press starts 21 ms after the last bounce of the first release.
	start := first[len(first)-1].at + 21*ms
	second := append(bouncy(Next, start, gpio.Low, 5), bouncy(Next, start+60*ms, gpio.High, 5)...)
	r.play(first, second)
	r.until(start + 200*ms)
	r.expect(want{Next, false, 0}, want{Next, false, start})
}

func TestAllButtonsInterleaved(t *testing.T) {
	r := newRig(t, DefaultOpts())
	r.play(
		bouncy(OK, 0, gpio.Low, 5), bouncy(OK, 900*ms, gpio.High, 5), // long at 700
		bouncy(Prev, 3*ms, gpio.Low, 5), bouncy(Prev, 120*ms, gpio.High, 5), // short, done ~151
		bouncy(Next, 5*ms, gpio.Low, 4), bouncy(Next, 300*ms, gpio.High, 4), // short, done ~330
		bouncy(Stop, 7*ms, gpio.Low, 5), bouncy(Stop, 400*ms, gpio.High, 5), // short, done ~431
		bouncy(Prev, 500*ms, gpio.Low, 5), bouncy(Prev, 1300*ms, gpio.High, 5), // long at 1200
		spike(Next, 600*ms, gpio.High, ms),
	)
	r.until(2 * time.Second)
	r.expect(want{Prev, false, 3 * ms}, want{Next, false, 5 * ms}, want{Stop, false, 7 * ms},
		want{OK, true, 0}, want{Prev, true, 500 * ms})
}

// An edge the driver never reported (the level changed between two reads)
// is still caught by re-reading the level on each poll.
func TestMissedEdges(t *testing.T) {
	r := newRig(t, DefaultOpts())
	r.pins[OK].Out(gpio.Low)
	r.until(300 * ms)
	r.pins[OK].Out(gpio.High)
	r.until(600 * ms)
	got := r.got()
	if len(got) != 1 || got[0].b != OK || got[0].long {
		t.Fatalf("got %v, want one short OK", got)
	}
	// Found at a poll (every 100 ms) rather than at the edge.
	if got[0].at < 0 || got[0].at > 100*ms {
		t.Fatalf("press began at %v, want within the first poll", got[0].at)
	}
}

// heldPin is a pin whose button is held down when the program starts.
type heldPin struct{ *gpiotest.Pin }

func (p heldPin) In(pull gpio.Pull, edge gpio.Edge) error {
	if err := p.Pin.In(pull, edge); err != nil {
		return err
	}
	return p.Pin.Out(gpio.Low)
}

func TestHeldAtStart(t *testing.T) {
	r := pinsRig(t, DefaultOpts())
	ps := r.pinIns()
	ps[Stop] = heldPin{r.pins[Stop]}
	r.start(ps)
	r.until(time.Second)
	r.expect() // held, not a long press
	r.play(bouncy(Stop, time.Second, gpio.High, 5))
	r.until(1100 * ms)
	r.expect() // nor a short one on release
	r.play(bouncy(Stop, 1200*ms, gpio.Low, 5), bouncy(Stop, 1300*ms, gpio.High, 5))
	r.until(1400 * ms)
	r.expect(want{Stop, false, 1200 * ms})
}

// Interference for a whole second (a spike every 10 ms, as from a motor or
// relay nearby) never lets the line settle, so it makes no press, and the
// button works as soon as it stops.
func TestInterferenceBurst(t *testing.T) {
	r := newRig(t, DefaultOpts())
	var edges [][]pinEdge
	for k := range 100 {
		edges = append(edges, spike(Prev, time.Duration(k)*10*ms, gpio.High, ms))
	}
	r.play(edges...)
	r.until(1100 * ms)
	r.expect()
	r.play(bouncy(Prev, 1100*ms, gpio.Low, 5), bouncy(Prev, 1200*ms, gpio.High, 5))
	r.until(1300 * ms)
	r.expect(want{Prev, false, 1100 * ms})
}

// Close returns even when a pin goroutine is blocked handing over a press
// nobody reads.
func TestCloseWithUnreadPresses(t *testing.T) {
	r := newRig(t, DefaultOpts())
	at := 10 * ms
	for range cap(r.g.events) {
		r.play(bouncy(Stop, at, gpio.Low, 2), bouncy(Stop, at+50*ms, gpio.High, 2))
		at += 100 * ms
	}
	r.until(at)
	if n := len(r.g.events); n != cap(r.g.events) {
		t.Fatalf("%d presses queued, want %d", n, cap(r.g.events))
	}
	r.play(bouncy(Stop, at, gpio.Low, 2), bouncy(Stop, at+50*ms, gpio.High, 2))
	r.fc.Advance(50 * ms) // the press completes; its goroutine blocks on the full queue
	r.close()
	if _, err := r.g.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Next after Close = %v, want ErrClosed", err)
	}
}
