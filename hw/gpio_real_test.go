package hw

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// These tests run on the real clock, through the public API.

// realPins makes pins with unbuffered edge channels: an edge is timed when
// the pin's goroutine takes it, so a slow machine cannot bunch edges up.
func realPins() [4]*gpiotest.Pin {
	var ps [4]*gpiotest.Pin
	for i := range ps {
		ps[i] = &gpiotest.Pin{N: DefaultPins().Names()[i], Num: i, EdgesChan: make(chan gpio.Level)}
	}
	return ps
}

func pinIns[P gpio.PinIn](ps [4]P) [4]gpio.PinIn {
	var out [4]gpio.PinIn
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// settleGoroutines waits for the goroutine count to fall to n.
func settleGoroutines(t *testing.T, n int) {
	t.Helper()
	for limit := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > n; {
		if time.Now().After(limit) {
			t.Fatalf("%d goroutines left running, want %d", runtime.NumGoroutine(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestNextCloseAndContext(t *testing.T) {
	base := runtime.NumGoroutine()
	ps := realPins()
	o := DefaultOpts()
	o.Poll = 10 * time.Millisecond
	o.LongPress = 10 * time.Second // a slow machine must not turn the press into a long one
	g, err := NewGPIO(pinIns(ps), o)
	if err != nil {
		t.Fatal(err)
	}
	if n := runtime.NumGoroutine(); n < base+4 {
		t.Fatalf("%d goroutines after NewGPIO, want one per pin over %d", n, base)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := g.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next with nothing pressed = %v, want the context's deadline", err)
	}

	ps[Prev].EdgesChan <- gpio.Low
	time.Sleep(200 * time.Millisecond)
	ps[Prev].EdgesChan <- gpio.High
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	ev, err := g.Next(ctx2)
	if err != nil || ev.Button != Prev || ev.Long || ev.At.IsZero() {
		t.Fatalf("Next = %v (at %v), %v; want a short Prev", ev, ev.At, err)
	}

	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if _, err := g.Next(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next on a cancelled context = %v", err)
	}

	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := g.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Next after Close = %v, want ErrClosed", err)
	}
	settleGoroutines(t, base)
}

// deafPin behaves like a gpioioctl line whose edge detection does not work
// (as WaitForEdge(-1) does on it): WaitForEdge returns false at once.
type deafPin struct {
	*gpiotest.Pin
	calls atomic.Int64
}

func (p *deafPin) WaitForEdge(time.Duration) bool {
	p.calls.Add(1)
	return false
}

func TestDeafPinDoesNotSpin(t *testing.T) {
	base := runtime.NumGoroutine()
	var ps [4]*deafPin
	for i, p := range realPins() {
		ps[i] = &deafPin{Pin: p}
	}
	o := DefaultOpts()
	o.Poll = 50 * time.Millisecond
	o.LongPress = 10 * time.Second
	var logged bytes.Buffer
	o.Log = slog.New(slog.NewTextHandler(&logged, nil))
	g, err := NewGPIO(pinIns(ps), o)
	if err != nil {
		t.Fatal(err)
	}
	// Still usable by polling: a press set straight on the level is found.
	ps[OK].Out(gpio.Low)
	time.Sleep(300 * time.Millisecond)
	ps[OK].Out(gpio.High)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ev, err := g.Next(ctx); err != nil || ev.Button != OK || ev.Long {
		t.Fatalf("Next = %v, %v; want a short OK found by polling", ev, err)
	}
	g.Close()
	// Over ~300 ms a pin loop waiting 50 ms makes about 8 calls; a spinning
	// one makes hundreds of thousands. The bound is generous on purpose.
	for i, p := range ps {
		if n := p.calls.Load(); n == 0 || n > 200 {
			t.Errorf("%v pin: %d WaitForEdge calls, want a few (a loop that waits)", Button(i), n)
		}
	}
	if n := strings.Count(logged.String(), "returned from WaitForEdge at once"); n != 4 {
		t.Errorf("logged the deaf pins %d times, want once per pin:\n%s", n, logged.String())
	}
	settleGoroutines(t, base)
}

// failPin refuses to be configured, as a line can on the device.
type failPin struct {
	*gpiotest.Pin
	err error
}

func (p failPin) In(gpio.Pull, gpio.Edge) error { return p.err }

func TestNewGPIOErrors(t *testing.T) {
	ps := realPins()
	ok := pinIns(ps)
	dup := ok
	dup[Stop] = ps[OK]
	noEdges := ok
	noEdges[Next] = &gpiotest.Pin{N: "GPIO6"}
	perm, busy := ok, ok
	perm[OK] = failPin{ps[OK], syscall.EACCES}
	busy[OK] = failPin{ps[OK], syscall.EBUSY}
	bad := DefaultOpts()
	bad.Debounce = 0
	for _, c := range []struct {
		name string
		pins [4]gpio.PinIn
		o    Opts
		want string
	}{
		{"nil pin", [4]gpio.PinIn{ps[0], ps[1], nil, ps[3]}, DefaultOpts(), "no pin for the OK button"},
		{"same pin twice", dup, DefaultOpts(), "OK and Stop buttons are both on GPIO13"},
		{"no edge detection", noEdges, DefaultOpts(), "GPIO6"},
		{"permission", perm, DefaultOpts(), "add the user to group gpio"},
		{"busy", busy, DefaultOpts(), "held by another program"},
		{"bad opts", ok, bad, "debounce must be positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := NewGPIO(c.pins, c.o)
			if err == nil {
				g.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
		})
	}
}
