package companion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// testCamera is a DiceReader that learns, and the closer the ReopenReader gets with it.
type testCamera struct {
	values    []int
	confirmed [][]int
	closed    int
	broken    error // what each read fails with, when set
}

func (c *testCamera) ReadDice(ctx context.Context, _ int) (DiceResult, error) {
	if err := ctx.Err(); err != nil {
		return DiceResult{}, err
	}
	if c.broken != nil {
		return DiceResult{}, c.broken
	}
	return DiceResult{Values: c.values, Status: Read}, nil
}
func (c *testCamera) Confirm(v []int) { c.confirmed = append(c.confirmed, v) }
func (c *testCamera) Close() error    { c.closed++; return nil }

func TestReopenReaderLate(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)
	cam := &testCamera{values: []int{2, 3, 5, 5}}
	tries, there := 0, false
	l := &ReopenReader{Every: 20 * time.Second, Now: func() time.Time { return now }, Open: func() (DiceReader, io.Closer, error) {
		tries++
		if !there {
			return nil, nil, errors.New("open /dev/video0: no such file or directory")
		}
		return cam, cam, nil
	}}
	ctx := context.Background()
	steps := []struct {
		after     time.Duration
		plugged   bool
		wantTries int
		wantRead  bool
	}{
		{0, false, 1, false},               // the first roll tries at once
		{5 * time.Second, false, 1, false}, // too soon to try again
		{20 * time.Second, false, 2, false},
		{time.Second, true, 2, false}, // plugged in, but the next try is not due
		{19 * time.Second, true, 3, true},
		{0, true, 3, true}, // open: no more tries
	}
	for i, st := range steps {
		now, there = now.Add(st.after), st.plugged
		res, err := l.ReadDice(ctx, 4)
		if tries != st.wantTries || (err == nil) != st.wantRead {
			t.Fatalf("step %d: %d tries, err %v; want %d tries, read %v", i, tries, err, st.wantTries, st.wantRead)
		}
		if !st.wantRead && (!errors.Is(err, ErrNoCamera) || !strings.Contains(fmt.Sprint(err), "/dev/video0")) {
			t.Errorf("step %d: %v, want ErrNoCamera with the open's error", i, err)
		}
		if st.wantRead && !slices.Equal(res.Values, cam.values) {
			t.Errorf("step %d: read %v, want %v", i, res.Values, cam.values)
		}
	}
	l.Confirm([]int{2, 3, 5, 6})
	if len(cam.confirmed) != 1 || !slices.Equal(cam.confirmed[0], []int{2, 3, 5, 6}) {
		t.Errorf("confirmed %v, want the players' values passed on", cam.confirmed)
	}
	if err := l.Close(); err != nil || cam.closed != 1 || l.Current() != nil {
		t.Errorf("close: %v, camera closed %d times", err, cam.closed)
	}
	if _, err := l.ReadDice(ctx, 4); !errors.Is(err, ErrNoCamera) || tries != 3 {
		t.Errorf("read after close: %v after %d tries, want ErrNoCamera and no new try", err, tries)
	}
	// Before the camera opens, Confirm has no one to tell and Close nothing to close.
	var never ReopenReader
	never.Open = func() (DiceReader, io.Closer, error) { return nil, nil, errors.New("no camera") }
	never.Confirm([]int{1, 1, 1, 1})
	if err := never.Close(); err != nil {
		t.Errorf("close before the camera opened: %v", err)
	}
}

// TestReopenReaderFails: a camera that fails in the middle of a game is closed and opened
// again at the next roll; a read its context cancels leaves it open.
func TestReopenReaderFails(t *testing.T) {
	now := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	var opened []*testCamera
	plugged := true
	l := &ReopenReader{Every: 20 * time.Second, Now: func() time.Time { return now }, Open: func() (DiceReader, io.Closer, error) {
		if !plugged {
			return nil, nil, errors.New("open /dev/video0: no such file or directory")
		}
		c := &testCamera{values: []int{1, 2, 4, 6}}
		opened = append(opened, c)
		return c, c, nil
	}}
	first := &testCamera{values: []int{3, 3, 4, 5}}
	l.Use(first, first)
	ctx := context.Background()
	if res, err := l.ReadDice(ctx, 4); err != nil || !slices.Equal(res.Values, first.values) {
		t.Fatalf("the camera opened at start: %+v, %v", res, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.ReadDice(cancelled, 4); !errors.Is(err, context.Canceled) || first.closed != 0 || l.Current() != first {
		t.Fatalf("a cancelled read: %v, camera closed %d times; want it left open", err, first.closed)
	}

	// Unplugged mid-game: the read fails, the camera is closed, and the next roll opens it at once.
	first.broken, plugged = io.EOF, false
	_, err := l.ReadDice(ctx, 4)
	if !errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "opened again") || first.closed != 1 || l.Current() != nil {
		t.Fatalf("the camera failing: %v, closed %d times, current %v; want it closed", err, first.closed, l.Current())
	}
	if _, err := l.ReadDice(ctx, 4); !errors.Is(err, ErrNoCamera) || !strings.Contains(err.Error(), "/dev/video0") {
		t.Fatalf("the roll after: %v, want ErrNoCamera with the open's error", err)
	}
	now = now.Add(5 * time.Second)
	plugged = true
	if _, err := l.ReadDice(ctx, 4); !errors.Is(err, ErrNoCamera) || len(opened) != 0 {
		t.Fatalf("plugged in before the next try is due: %v, %d opens", err, len(opened))
	}
	now = now.Add(15 * time.Second)
	res, err := l.ReadDice(ctx, 4)
	if err != nil || len(opened) != 1 || !slices.Equal(res.Values, opened[0].values) {
		t.Fatalf("plugged in again: %+v, %v after %d opens; want the new camera's reading", res, err, len(opened))
	}
	if err := l.Close(); err != nil || opened[0].closed != 1 || first.closed != 1 {
		t.Errorf("close: %v; the new camera closed %d times, the failed one %d", err, opened[0].closed, first.closed)
	}
}
