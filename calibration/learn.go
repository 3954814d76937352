package calibration

import (
	"log/slog"
	"slices"
	"sync"

	"github.com/cantstop/cantstop/dice"
)

// AdaptEvery is how many dice learnt in play make the reader adapt again (about two rolls).
const AdaptEvery = 8

// Learner keeps the dice the players confirm in play in the Learnt file, and adapts the reader
// to them with the profile's examples every AdaptEvery dice. It works in a goroutine of its
// own, so the game does not wait on the file or the fitting. It writes the file when it adapts
// and on Close (not after every roll: the SD card wears, and a power cut loses at most the
// dice of the last two rolls).
type Learner struct {
	path string
	base []dice.Example // the profile's: calibration's rolls
	r    *dice.Reader
	log  *slog.Logger

	mu     sync.Mutex // guards store, since and closed, and sending on jobs
	store  Learnt
	since  int
	closed bool

	jobs chan []dice.Example
	done chan struct{}
}

// NewLearner starts a Learner keeping store in the file at path; the reader is taken to be
// adapted to base and store already (LoadLearnt, dice.Reader.Adapt).
func NewLearner(path string, base []dice.Example, store Learnt, r *dice.Reader, log *slog.Logger) *Learner {
	l := &Learner{path: path, base: base, r: r, log: log, store: store,
		jobs: make(chan []dice.Example, 16), done: make(chan struct{})}
	go l.work()
	return l
}

// Add queues the examples of one confirmed reading. It never blocks the game: when the queue
// is full (the SD card stalls), the examples are dropped and that is logged; after Close they
// are dropped.
func (l *Learner) Add(ex []dice.Example) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(ex) == 0 || l.closed {
		return
	}
	select {
	case l.jobs <- ex:
	default:
		l.log.Warn("dice learnt in play dropped: the store is busy", "dice", len(ex))
	}
}

// Examples returns a copy of the examples learnt in play.
func (l *Learner) Examples() []dice.Example {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.store.Examples)
}

// Close saves what was queued and stops the Learner.
func (l *Learner) Close() error {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.jobs)
	}
	l.mu.Unlock()
	<-l.done
	return nil
}

func (l *Learner) save(store Learnt) {
	if err := store.Save(l.path); err != nil {
		l.log.Error("dice learnt in play not saved: they are kept until the service stops", "path", l.path, "err", err)
	}
}

func (l *Learner) work() {
	defer close(l.done)
	defer func() {
		l.mu.Lock()
		store, dirty := l.store, l.since > 0
		l.mu.Unlock()
		if dirty {
			l.save(store)
		}
	}()
	for ex := range l.jobs {
		l.mu.Lock()
		l.store.Examples = AddExamples(l.store.Examples, ex)
		l.since += len(ex)
		store, adapt := l.store, l.since >= AdaptEvery
		if adapt {
			l.since = 0
		}
		l.mu.Unlock()
		if !adapt {
			continue
		}
		l.save(store)
		all := append(slices.Clone(l.base), store.Examples...)
		a, err := l.r.Adapt(all)
		if err != nil {
			l.log.Error("reader not adapted to the dice learnt in play", "err", err)
			continue
		}
		l.log.Info("reader adapted to the rig's dice", "examples", len(all), "own head", a.Used, "why", a.Why)
	}
}
