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

// lateCamera is a DiceReader that learns, and the closer the LateReader gets with it.
type lateCamera struct {
	values    []int
	confirmed [][]int
	closed    int
}

func (c *lateCamera) ReadDice(context.Context, int) (DiceResult, error) {
	return DiceResult{Values: c.values, Status: Read}, nil
}
func (c *lateCamera) Confirm(v []int) { c.confirmed = append(c.confirmed, v) }
func (c *lateCamera) Close() error    { c.closed++; return nil }

func TestLateReader(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)
	cam := &lateCamera{values: []int{2, 3, 5, 5}}
	tries, there := 0, false
	l := &LateReader{Every: 20 * time.Second, Now: func() time.Time { return now }, Open: func() (DiceReader, io.Closer, error) {
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
	var never LateReader
	never.Open = func() (DiceReader, io.Closer, error) { return nil, nil, errors.New("no camera") }
	never.Confirm([]int{1, 1, 1, 1})
	if err := never.Close(); err != nil {
		t.Errorf("close before the camera opened: %v", err)
	}
}
