package service

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLoop is a companion loop whose goroutine answers pings unless stuck.
type fakeLoop struct {
	pings   chan chan struct{}
	stuck   chan bool // send true to stop answering, false to answer again
	fail    error     // returned by Run after a first answered ping
	started chan struct{}
}

func newFakeLoop() *fakeLoop {
	return &fakeLoop{pings: make(chan chan struct{}), stuck: make(chan bool), started: make(chan struct{})}
}

func (l *fakeLoop) Run(ctx context.Context) error {
	close(l.started)
	stuck := false
	for {
		var pings chan chan struct{}
		if !stuck {
			pings = l.pings
		}
		select {
		case <-ctx.Done():
			return nil
		case s := <-l.stuck:
			stuck = s
		case r := <-pings:
			close(r)
			if l.fail != nil {
				return l.fail
			}
		}
	}
}

func (l *fakeLoop) Ping(ctx context.Context) error {
	r := make(chan struct{})
	select {
	case l.pings <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-r:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// recorder is a Notifier that keeps every state sent.
type recorder struct {
	mu     sync.Mutex
	states []string
}

func (r *recorder) notify(s string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states = append(r.states, s)
	return nil
}

func (r *recorder) count(s string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, x := range r.states {
		if x == s {
			n++
		}
	}
	return n
}

func (r *recorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.states...)
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestReadyWatchdogStopping(t *testing.T) {
	loop, rec := newFakeLoop(), &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, loop, rec.notify, Options{Watchdog: 30 * time.Millisecond, Log: quiet(), Status: "playing"})
	}()
	waitFor(t, "three watchdog notifications", func() bool { return rec.count("WATCHDOG=1") >= 3 })

	// A stuck loop gets no WATCHDOG=1 (systemd would restart it) ...
	loop.stuck <- true
	n := rec.count("WATCHDOG=1")
	time.Sleep(150 * time.Millisecond)
	if got := rec.count("WATCHDOG=1"); got > n+1 { // one ping may have been answered just before
		t.Fatalf("watchdog fed %d times while the loop was stuck", got-n)
	}
	// ... and is fed again once it answers.
	loop.stuck <- false
	n = rec.count("WATCHDOG=1")
	waitFor(t, "watchdog after recovery", func() bool { return rec.count("WATCHDOG=1") > n })

	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run after SIGTERM-like cancel: %v", err)
	}
	st := rec.all()
	if st[0] != "READY=1" || st[1] != "STATUS=playing" || st[len(st)-1] != "STOPPING=1" {
		t.Fatalf("states %q: want READY=1, STATUS=playing first and STOPPING=1 last", st)
	}
}

func TestLoopErrorStops(t *testing.T) {
	loop, rec := newFakeLoop(), &recorder{}
	loop.fail = errors.New("buttons: gpio closed")
	err := Run(context.Background(), loop, rec.notify, Options{Watchdog: 15 * time.Millisecond, Log: quiet()})
	if err == nil || !strings.Contains(err.Error(), "buttons: gpio closed") {
		t.Fatalf("Run = %v, want the loop's error", err)
	}
	st := rec.all()
	if st[0] != "READY=1" || rec.count("STOPPING=1") != 1 || !strings.HasPrefix(st[len(st)-1], "STATUS=stopped: ") {
		t.Fatalf("states %q", st)
	}
}

func TestNoWatchdog(t *testing.T) {
	loop, rec := newFakeLoop(), &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Run(ctx, loop, rec.notify, Options{Log: quiet()}) }()
	<-loop.started
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got := rec.all(); strings.Join(got, ",") != "READY=1,STOPPING=1" {
		t.Fatalf("states %q", got)
	}
}

// TestSystemdSocket sends real datagrams to a fake $NOTIFY_SOCKET.
func TestSystemdSocket(t *testing.T) {
	sock := t.TempDir() + "/notify"
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "30000000")
	t.Setenv("WATCHDOG_PID", "")
	if d := WatchdogInterval(); d != 30*time.Second {
		t.Errorf("WatchdogInterval = %v, want 30s", d)
	}
	for _, s := range []string{"READY=1", "WATCHDOG=1", "STOPPING=1"} {
		if err := Systemd(s); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		n, err := conn.Read(buf)
		if err != nil || string(buf[:n]) != s {
			t.Fatalf("socket got %q, %v; want %q", buf[:n], err, s)
		}
	}
}
