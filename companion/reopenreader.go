package companion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// ReopenReader is the dice reader of a camera that may come and go: one that did not open
// when the service started (a USB camera plugged in late, a loose ribbon cable reseated), or
// one that fails in the middle of a game (unplugged, its driver stuck). A read that fails for
// the camera, not for its context, closes it; each ReadDice then opens it again, at once the
// first time and after that at most once every Every, and reads with it once it opens. Until
// then ReadDice fails and the players enter the dice, as without a camera. No restart needed.
type ReopenReader struct {
	// Open opens the camera and its dice reader, and what closes them. It is not given the
	// read's context: a camera lives as long as the context it was opened with (the service's).
	Open  func() (DiceReader, io.Closer, error)
	Every time.Duration    // between tries (DefaultReopen when zero)
	Now   func() time.Time // the clock (time.Now when nil)
	Log   *slog.Logger

	mu     sync.Mutex
	r      DiceReader
	c      io.Closer
	tried  time.Time
	err    error
	closed bool
}

// DefaultReopen is how often a ReopenReader tries the camera: a try costs a failed open (a few
// milliseconds) at the start of a roll.
const DefaultReopen = 20 * time.Second

// ErrNoCamera is wrapped by ReadDice while the camera is not open.
var ErrNoCamera = errors.New("camera not open")

// Use gives the reader a camera opened already, and what closes it.
func (l *ReopenReader) Use(r DiceReader, c io.Closer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.r, l.c = r, c
}

// ReadDice reads with the camera, opening it first when it is not open.
func (l *ReopenReader) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	r, err := l.open()
	if err != nil {
		return DiceResult{}, err
	}
	res, err := r.ReadDice(ctx, want)
	if err != nil && ctx.Err() == nil {
		l.fail(r, err)
		return res, fmt.Errorf("%w (the camera is opened again at the next roll)", err)
	}
	return res, err
}

// fail closes the camera r whose read failed, so that the next read opens it again.
func (l *ReopenReader) fail(r DiceReader, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.r != r { // closed or replaced meanwhile
		return
	}
	c := l.c
	l.r, l.c, l.err, l.tried = nil, nil, err, time.Time{}
	if l.Log != nil {
		l.Log.Warn("camera failed: closed, opened again at the next roll", "err", err)
	}
	if c != nil {
		if cerr := c.Close(); cerr != nil && l.Log != nil {
			l.Log.Warn("close the failed camera", "err", cerr)
		}
	}
}

// Confirm passes the players' values on to the camera's reader when it learns.
func (l *ReopenReader) Confirm(values []int) {
	if lr, ok := l.Current().(Learner); ok {
		lr.Confirm(values)
	}
}

// Current is the camera's dice reader while it is open, else nil.
func (l *ReopenReader) Current() DiceReader {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r
}

// Close closes the camera if it is open; later reads fail.
func (l *ReopenReader) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.c == nil {
		return nil
	}
	c := l.c
	l.r, l.c = nil, nil
	return c.Close()
}

func (l *ReopenReader) open() (DiceReader, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, fmt.Errorf("%w: the reader is closed", ErrNoCamera)
	case l.r != nil:
		return l.r, nil
	}
	now, every := time.Now, l.Every
	if l.Now != nil {
		now = l.Now
	}
	if every <= 0 {
		every = DefaultReopen
	}
	t := now()
	if !l.tried.IsZero() && t.Sub(l.tried) < every {
		return nil, notOpen(l.err, every)
	}
	l.tried = t
	r, c, err := l.Open()
	if err == nil && r == nil {
		err = errors.New("no dice reader")
		if c != nil {
			c.Close()
		}
	}
	if err != nil {
		l.err = err
		return nil, notOpen(err, every)
	}
	l.r, l.c = r, c
	if l.Log != nil {
		l.Log.Info("camera opened: the dice are read again")
	}
	return r, nil
}

// notOpen is ReadDice's error while the camera is not open: the last try's error and when the next comes.
func notOpen(err error, every time.Duration) error {
	return fmt.Errorf("%w (%v); tried again every %v", ErrNoCamera, err, every)
}
