package hw

import "time"

// debouncer turns the edges and levels of one button's pin into presses.
//
// It does not trust edges to carry levels: an edge only says "something
// moved". After the last edge of a train, once the line has been quiet for
// settle, it reads the level; a level equal to the debounced one means the
// train was bounce or noise. Press length is measured from the first edge of
// the press train to the first edge of the release train, so a release that
// is still bouncing when the threshold passes is classified by when it
// really began.
type debouncer struct {
	button      Button
	settle      time.Duration
	long        time.Duration
	down        bool      // debounced state: held
	since       time.Time // when the current hold began
	reported    bool      // this hold is already reported (long), or was held at start
	busy        bool      // edges seen, waiting for the line to settle
	first, last time.Time // first and last edge of the current train
}

func newDebouncer(b Button, o Opts, held bool) *debouncer {
	// A button held at start (or a pin stuck low) is taken as down and
	// already reported, so neither holding nor releasing it makes a press.
	return &debouncer{button: b, settle: o.Debounce, long: o.LongPress, down: held, reported: held}
}

// edge records that the pin changed at now.
func (d *debouncer) edge(now time.Time) {
	if !d.busy {
		d.busy = true
		d.first = now
	}
	d.last = now
}

// poll looks at the pin's level (held = low) at now and returns a press if
// one is complete.
func (d *debouncer) poll(now time.Time, held bool) (Event, bool) {
	if !d.busy && held != d.down {
		d.edge(now) // the level moved without an edge we saw
	}
	if d.busy {
		if now.Sub(d.last) < d.settle {
			return Event{}, false
		}
		d.busy = false
		switch {
		case held == d.down: // bounce or a spike that came back
		case held:
			d.down, d.since, d.reported = true, d.first, false
		default:
			d.down = false
			if d.reported {
				d.reported = false
				return Event{}, false
			}
			return Event{Button: d.button, Long: d.first.Sub(d.since) >= d.long, At: d.since}, true
		}
	}
	if d.down && !d.reported && now.Sub(d.since) >= d.long {
		d.reported = true
		return Event{Button: d.button, Long: true, At: d.since}, true
	}
	return Event{}, false
}

// deadline is when poll next has something to decide, if anything.
func (d *debouncer) deadline() (time.Time, bool) {
	switch {
	case d.busy:
		return d.last.Add(d.settle), true
	case d.down && !d.reported:
		return d.since.Add(d.long), true
	}
	return time.Time{}, false
}
