package companion

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// blockingScreen stalls Show while gate is closed, like a hung display bus.
type blockingScreen struct {
	gate  chan struct{}
	shown chan display.Screen
}

func (b blockingScreen) Show(s display.Screen) error {
	b.shown <- s
	<-b.gate
	return nil
}

// TestPing: the loop answers pings while it waits for a press, and stops
// answering while it is stuck, so the systemd watchdog notices.
func TestPing(t *testing.T) {
	presses := make(chanButtons)
	scr := blockingScreen{gate: make(chan struct{}), shown: make(chan display.Screen, 8)}
	c, err := New(Deps{Buttons: presses, Screen: scr}, Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	<-scr.shown // stuck in Show of the setup screen
	pctx, pcancel := context.WithTimeout(ctx, 100*time.Millisecond)
	err = c.Ping(pctx)
	pcancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ping of a stuck loop = %v, want a deadline error", err)
	}
	close(scr.gate) // the display recovers; the loop waits for a press
	pctx, pcancel = context.WithTimeout(ctx, 5*time.Second)
	defer pcancel()
	if err := c.Ping(pctx); err != nil {
		t.Fatalf("Ping of a waiting loop: %v", err)
	}
	presses <- hw.Event{Button: hw.Next}
	<-scr.shown
	if err := c.Ping(pctx); err != nil {
		t.Fatalf("Ping after a press: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run after cancel = %v, want nil", err)
	}
}

// TestResumeTornJournal: a journal whose last line was torn by a power cut
// resumes at the last good action, says so on the display, and keeps a copy.
func TestResumeTornJournal(t *testing.T) {
	dir := t.TempDir()
	script := concat(startGame, seq(nameFirst(0, 2), press(display.KindTurn, ok), choose(7, 7),
		press(display.KindMove, ok), choose(6, 8), press(display.KindMove, short(hw.Next))))
	play(t, dir, reads([]int{3, 4, 3, 4}, []int{2, 4, 4, 4}), Options{}, script...)
	path := filepath.Join(dir, JournalFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-20], 0o640); err != nil { // tear the last move
		t.Fatal(err)
	}
	c, _ := play(t, dir, nil, Options{},
		step{kind: display.KindStatus, press: func(display.Screen) []hw.Event { return []hw.Event{ok} },
			check: func(s display.Screen) error {
				if s.Status != display.StatusError || !strings.Contains(s.Detail, "torn") {
					return errors.New("no repair notice: " + s.Detail)
				}
				return nil
			}},
		press(display.KindMove, short(hw.Next)))
	if c.t.pos.Runner(7) != 2 || c.t.pos.Runner(6) != 0 {
		t.Fatalf("resumed to runners %v, want the first move only", c.t.pos.Runners().Columns())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "journal.corrupt-*")); len(m) != 1 {
		t.Fatalf("copies of the damaged journal: %v", m)
	}
}
