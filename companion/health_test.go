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

// slowDice answers after a delay, or never (ignoring its context) when hang is set.
type slowDice struct {
	delay time.Duration
	hang  chan struct{}
}

func (s slowDice) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	if s.hang != nil {
		<-s.hang
	}
	time.Sleep(s.delay)
	return DiceResult{Values: []int{3, 4, 3, 4}[:want], Status: Read}, nil
}

// TestPingWhileReading: a slow settle keeps the watchdog fed; a reader hung
// past its deadline does not.
func TestPingWhileReading(t *testing.T) {
	for _, hung := range []bool{false, true} {
		presses := make(chanButtons, 4)
		dice := slowDice{delay: 300 * time.Millisecond}
		if hung {
			dice.hang = make(chan struct{})
		}
		shown := make(chan display.Screen, 64)
		c, err := New(Deps{Buttons: presses, Dice: dice, Screen: oledScreen{shown}},
			Options{StateDir: t.TempDir(), ReadTimeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go c.Run(ctx)
		presses <- hw.Event{Button: hw.Prev} // setup: to Start
		presses <- hw.Event{Button: hw.OK}   // start
		presses <- hw.Event{Button: hw.OK}   // roll-off: P1 rolls
		for s := range shown {
			if s.Kind == display.KindStatus && s.Status == display.StatusReading {
				break
			}
		}
		pctx, pcancel := context.WithTimeout(ctx, 50*time.Millisecond)
		err = c.Ping(pctx)
		pcancel()
		if err != nil {
			t.Fatalf("hung=%v: Ping during a reading: %v", hung, err)
		}
		time.Sleep(2500 * time.Millisecond) // past ReadTimeout + grace
		pctx, pcancel = context.WithTimeout(ctx, 50*time.Millisecond)
		err = c.Ping(pctx)
		pcancel()
		if hung && err == nil {
			t.Fatal("a reader hung past its deadline still feeds the watchdog")
		}
		if !hung && err != nil {
			t.Fatalf("after a slow reading: %v", err)
		}
		if hung {
			close(dice.hang)
		}
		cancel()
		c.Close()
	}
}
