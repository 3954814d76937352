package doctor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// presses replays what the device saw for each request; "" is no press at all.
type presses struct {
	seen   []string
	closed bool
}

func (p *presses) Press(ctx context.Context) (string, error) {
	b := p.seen[0]
	p.seen = p.seen[1:]
	if b == "" {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return b, nil
}

func (p *presses) Close() error { p.closed = true; return nil }

func TestButtonsPressed(t *testing.T) {
	names := []string{"Prev", "Next", "OK", "Stop"}
	pins := []string{"GPIO5", "GPIO6", "GPIO13", "GPIO19"}
	for _, c := range []struct {
		name   string
		seen   []string
		status Status
		want   []string // in the detail and the fix
	}{
		{"all right", []string{"Prev", "Next", "OK", "Stop"}, Pass, []string{"each of Prev, Next, OK, Stop gave its own press"}},
		{"prev and next swapped", []string{"Next", "Prev", "OK", "Stop"}, Fail,
			[]string{"pressing Prev gave Next; pressing Next gave Prev", "Prev and Next are swapped: swap their wires (GPIO5, GPIO6)"}},
		{"stop dead", []string{"Prev", "Next", "OK", ""}, Fail, []string{"Stop gave no press", "check Stop's wires: GPIO19 to the button, the button to ground"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var said []string
			p := &presses{seen: c.seen}
			ch := ButtonsPressed(names, pins, 20*time.Millisecond, func(s string) { said = append(said, s) },
				func() (Presses, error) { return p, nil })
			r := runOne(context.Background(), ch, time.Minute)
			if !p.closed {
				t.Error("the buttons were not closed")
			}
			if r.Status != c.status {
				t.Fatalf("status %s (%s; fix %s), want %s", r.Status, r.Detail, r.Fix, c.status)
			}
			for _, w := range c.want {
				if !strings.Contains(r.Detail+" | "+r.Fix, w) {
					t.Errorf("%q lacks %q", r.Detail+" | "+r.Fix, w)
				}
			}
			if len(said) != 4 || said[0] != "Press PREV (GPIO5) once." {
				t.Errorf("asked %q", said)
			}
		})
	}
}

func TestDisplayPattern(t *testing.T) {
	drawn, closed := 0, 0
	draw := func() (func() error, error) {
		drawn++
		return func() error { closed++; return nil }, nil
	}
	for ans, want := range map[string]Status{"y": Pass, "Yes": Pass, "n": Fail, "": Fail} {
		r := runOne(context.Background(), DisplayPattern("/dev/i2c-1", draw, func(ctx context.Context, q string) (string, error) {
			if !strings.Contains(q, "checkerboard") {
				t.Errorf("question %q", q)
			}
			if closed != drawn-1 {
				t.Error("the display was closed (turned off) before the question")
			}
			return ans, nil
		}), time.Second)
		if r.Status != want || (want == Fail && !strings.Contains(r.Fix, "rotated = true")) {
			t.Errorf("answer %q: %s %s (fix %s)", ans, r.Status, r.Detail, r.Fix)
		}
	}
	if drawn != 4 || closed != 4 {
		t.Errorf("drawn %d times, closed %d", drawn, closed)
	}
	r := runOne(context.Background(), DisplayPattern("/dev/i2c-1", func() (func() error, error) { return nil, errors.New("i2c: no ACK") }, nil), time.Second)
	if r.Status != Fail || !strings.Contains(r.Detail, "no ACK") {
		t.Errorf("draw error: %+v", r)
	}
}
