package calibration

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/cantstop/cantstop/dice"
)

// AdaptEvery is how many dice learnt in play make the reader adapt again (about two rolls).
const AdaptEvery = 8

// Watching the rig's head: when, over the last WatchRolls rolls played, the players played
// ChangedMisreads or more of the dice only the head read surely as other values, the head was
// fitted to other dice, another camera or other light. The Learner then drops it and what it
// learnt, and starts learning again.
const (
	WatchRolls      = 10
	ChangedMisreads = 2
)

// Learner keeps the dice the players confirm in play in the Learnt file, and adapts the reader
// to them with the profile's examples every AdaptEvery dice. It works in a goroutine of its
// own, so the game does not wait on the file or the fitting. It writes the file when it adapts
// and on Close (not after every roll: the SD card wears, and a power cut loses at most the
// AdaptEvery-1 dice learnt since).
type Learner struct {
	path string
	r    *dice.Reader
	log  *slog.Logger

	// sending is held to read while a job is sent on jobs, to write while jobs is closed: AddWait
	// may wait on a full queue without holding mu, which the worker needs.
	sending sync.RWMutex
	mu      sync.Mutex     // guards the fields below
	base    []dice.Example // the profile's: calibration's rolls (dropped when the rig changed)
	store   Learnt
	since   int      // dice learnt since the last adaptation
	dirty   bool     // store not yet written (or its last write failed)
	err     error    // the last write's error
	watch   [][2]int // the last rolls' head reads and misreads
	closed  bool

	jobs chan dice.Confirmation
	done chan struct{}
}

// NewLearner starts a Learner keeping store in the file at path; the reader is taken to be
// adapted to base and store already (LoadLearnt, dice.Reader.Adapt).
func NewLearner(path string, base []dice.Example, store Learnt, r *dice.Reader, log *slog.Logger) *Learner {
	l := &Learner{path: path, base: base, r: r, log: log, store: store,
		jobs: make(chan dice.Confirmation, 16), done: make(chan struct{})}
	go l.work()
	return l
}

// Add queues what one roll the players played teaches. It never blocks the game: when the
// queue is full (the SD card stalls) it is dropped and that is logged; after Close too.
func (l *Learner) Add(c dice.Confirmation) {
	l.sending.RLock()
	defer l.sending.RUnlock()
	if l.isClosed() || len(c.Examples) == 0 && c.HeadRead == 0 {
		return
	}
	select {
	case l.jobs <- c:
	default:
		l.log.Warn("dice learnt in play dropped: the store is busy", "dice", len(c.Examples))
	}
}

// ErrClosed is AddWait's error after Close.
var ErrClosed = errors.New("the learner is closed")

// AddWait is Add waiting while the queue is full, for players quicker than any at a table (the
// simulated table's automatic ones): nothing is dropped, and the game waits on the learner. It
// returns ctx's error when ctx ends first, and ErrClosed after Close.
func (l *Learner) AddWait(ctx context.Context, c dice.Confirmation) error {
	l.sending.RLock()
	defer l.sending.RUnlock()
	if l.isClosed() {
		return ErrClosed
	}
	if len(c.Examples) == 0 && c.HeadRead == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dice learnt in play not queued: %w", err)
	}
	select {
	case l.jobs <- c:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("dice learnt in play not queued: %w", ctx.Err())
	}
}

func (l *Learner) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Examples returns a copy of the examples learnt in play.
func (l *Learner) Examples() []dice.Example {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.store.Examples)
}

// Close saves what was queued and stops the Learner. It returns the last write's error.
func (l *Learner) Close() error {
	l.mu.Lock()
	first := !l.closed
	l.closed = true
	l.mu.Unlock()
	if first {
		l.sending.Lock() // no sender is left: the ones holding it see closed
		close(l.jobs)
		l.sending.Unlock()
	}
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// save writes the store; on failure it stays dirty, to be written again.
func (l *Learner) save() {
	l.mu.Lock()
	store := l.store
	store.Examples = slices.Clone(store.Examples)
	l.mu.Unlock()
	err := store.Save(l.path)
	l.mu.Lock()
	l.err, l.dirty = err, err != nil
	l.mu.Unlock()
	if err != nil {
		l.log.Error("dice learnt in play not saved: tried again at the next adaptation and at the end", "path", l.path, "err", err)
	}
}

func (l *Learner) work() {
	defer close(l.done)
	defer func() {
		l.takeBackground() // learnt since the last roll with dice to learn
		l.mu.Lock()
		dirty := l.dirty
		l.mu.Unlock()
		if dirty {
			l.save()
		}
	}()
	for c := range l.jobs {
		l.changed(c)
		newBg := l.takeBackground() // kept for the next start at once
		l.mu.Lock()
		l.store.Examples = AddExamples(l.store.Examples, c.Examples)
		l.since += len(c.Examples)
		l.dirty = l.dirty || len(c.Examples) > 0
		base, adapt := l.base, l.since >= AdaptEvery
		if adapt {
			l.since = 0
		}
		l.mu.Unlock()
		if newBg && !adapt {
			l.save()
		}
		if !adapt {
			continue
		}
		l.save()
		all := append(slices.Clone(base), l.Examples()...)
		a, err := l.r.Adapt(all)
		if err != nil {
			l.log.Error("reader not adapted to the dice learnt in play", "err", err)
			continue
		}
		l.log.Info("reader adapted to the rig's dice", "examples", len(all), "own head", a.Used, "why", a.Why)
	}
}

// takeBackground puts a background the reader learnt anew into the store, and says whether it did.
func (l *Learner) takeBackground() bool {
	bg := l.r.LearntBackground()
	l.mu.Lock()
	defer l.mu.Unlock()
	if bg == nil || bg == l.store.Background {
		return false
	}
	l.store.Background, l.dirty = bg, true
	l.log.Info("background learnt from the rolls: spots of the tray that stay put are not taken for dice", "known", bg.KnownShare())
	return true
}

// changed watches the head's misreads; when the rig changed it drops the head, the profile's
// examples (until the next calibration) and the learnt ones, and says so.
func (l *Learner) changed(c dice.Confirmation) {
	l.mu.Lock()
	l.watch = append(l.watch, [2]int{c.HeadRead, c.HeadMisread})
	if len(l.watch) > WatchRolls {
		l.watch = l.watch[1:]
	}
	read, miss, rolls := 0, 0, len(l.watch)
	for _, w := range l.watch {
		read, miss = read+w[0], miss+w[1]
	}
	if miss < ChangedMisreads {
		l.mu.Unlock()
		return
	}
	l.base, l.store.Examples, l.store.DropBase, l.since, l.watch, l.dirty = nil, nil, true, 0, nil, true
	l.mu.Unlock()
	l.log.Warn("the reader's learnt dice no longer fit: the camera, the light or the dice changed? It reads with its general network and learns again; calibrate again if it goes on",
		"misread", miss, "of", read, "rolls", rolls)
	if _, err := l.r.Adapt(nil); err != nil {
		l.log.Error("reader not reset", "err", err)
	}
}
