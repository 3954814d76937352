package hw

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// keys reads every press from a byte stream up to its end.
func keys(t *testing.T, in string) ([]Event, error) {
	t.Helper()
	k := NewKeyboard(strings.NewReader(in))
	defer k.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var evs []Event
	for {
		ev, err := k.Next(ctx)
		if err != nil {
			return evs, err
		}
		if ev.At.IsZero() {
			t.Errorf("%v has no time", ev)
		}
		evs = append(evs, ev)
	}
}

func names(evs []Event) string {
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = e.String()
	}
	return strings.Join(s, ",")
}

func TestKeyboard(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"letters", "adhl", "Prev,Next,Prev,Next"},
		{"capitals are long", "ADHLS", "long Prev,long Next,long Prev,long Next,long Stop"},
		{"arrows", "\x1b[D\x1b[C\x1b[A\x1b[B", "Prev,Next,Prev,Next"},
		{"application-mode arrows", "\x1bOD\x1bOC", "Prev,Next"},
		{"shift arrows are long", "\x1b[1;2D\x1b[1;2C\x1b[1;1C", "long Prev,long Next,Next"},
		{"enter and space", "\r\n \n\r", "OK,OK,OK,OK"},
		{"menu", "mM", "long OK,long OK"},
		{"stop", "sS", "Stop,long Stop"},
		{"other keys ignored", "xyz\x1b[3~\x1b[15~q\t", ""},
		{"lone escape ignored", "\x1bd\x1b\x1b[C", "Next,Next"},
		{"a game turn", "\nd\n\nS", "OK,Next,OK,OK,long Stop"},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs, err := keys(t, c.in)
			if err != io.EOF {
				t.Fatalf("after the keys: %v, want io.EOF", err)
			}
			if got := names(evs); got != c.want {
				t.Fatalf("%q read as %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestKeyboardControlKeys(t *testing.T) {
	evs, err := keys(t, "d\x03d")
	if !errors.Is(err, ErrInterrupt) || names(evs) != "Next" {
		t.Fatalf("Ctrl-C: %q then %v, want Next then ErrInterrupt", names(evs), err)
	}
	evs, err = keys(t, "s\x04d")
	if err != io.EOF || names(evs) != "Stop" {
		t.Fatalf("Ctrl-D: %q then %v, want Stop then io.EOF", names(evs), err)
	}
	// A stream cut inside an escape sequence ends cleanly too.
	if evs, err = keys(t, "a\x1b["); err != io.EOF || names(evs) != "Prev" {
		t.Fatalf("cut sequence: %q then %v", names(evs), err)
	}
}

// The error that ended the stream stays the answer.
func TestKeyboardErrorSticks(t *testing.T) {
	k := NewKeyboard(strings.NewReader("\x03"))
	defer k.Close()
	for range 3 {
		if _, err := k.Next(context.Background()); !errors.Is(err, ErrInterrupt) {
			t.Fatalf("Next = %v, want ErrInterrupt every time", err)
		}
	}
}

func TestKeyboardContextAndClose(t *testing.T) {
	base := runtime.NumGoroutine()
	pr, pw := io.Pipe()
	k := NewKeyboard(pr)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	if _, err := k.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next with no keys and a cancelled context = %v", err)
	}
	go pw.Write([]byte("l"))
	if ev, err := k.Next(context.Background()); err != nil || ev.Button != Next {
		t.Fatalf("Next = %v, %v; want Next", ev, err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Next after Close = %v, want ErrClosed", err)
	}
	pw.Close() // an io.Pipe cannot be interrupted: its reader ends at EOF
	settleGoroutines(t, base)
}

// Help must describe every key the keyboard knows.
func TestKeyboardHelp(t *testing.T) {
	h := (&Keyboard{}).Help()
	for _, w := range []string{"←", "→", "↑", "↓", "Shift", " a ", " h ", " d ", " l ", "A H", "D L", "Enter", "space", "m M", "s ", "S ", "Prev", "Next", "OK", "Stop", "menu"} {
		if !strings.Contains(h, w) {
			t.Errorf("Help does not mention %q:\n%s", w, h)
		}
	}
}
