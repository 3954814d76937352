package sim

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/cantstop/cantstop/companion"
)

// Reader is the simulated table's companion.DiceReader: each read throws
// the dice on the Table, has the real reader read the frames, and checks
// what was read against what was drawn.
type Reader struct {
	Table *Table
	Read  companion.DiceReader // the real reader over the table's frames
	Log   *slog.Logger
	// SaveDir, when set, receives the frame of every disagreement as a PNG.
	SaveDir string

	mu    sync.Mutex
	stats ReadStats
}

// Confirm passes the roll the players played on to the real reader, if it learns.
func (r *Reader) Confirm(values []int) {
	if l, ok := r.Read.(companion.Learner); ok {
		l.Confirm(values)
	}
}

// ReadStats counts what the reader did.
type ReadStats struct {
	Reads      int           // readings made
	Read       int           // readings with every die read
	Unreadable int           // readings refused as unreadable, wrong count or not settled
	Wrong      []Misread     // readings that disagree with the dice drawn
	Time       time.Duration // total time spent reading
}

// MeanMS is the mean time per reading in milliseconds.
func (s ReadStats) MeanMS() float64 {
	if s.Reads == 0 {
		return 0
	}
	return float64(s.Time.Microseconds()) / 1000 / float64(s.Reads)
}

// Misread is a reading that differs from the dice drawn: enough to reproduce it.
type Misread struct {
	Seed  uint64
	Roll  int // the table's throw number (1-based)
	Drawn []int
	Got   []int
	Frame string // saved frame, if any
}

func (m Misread) String() string {
	return fmt.Sprintf("seed %d roll %d: drew %v, read %v", m.Seed, m.Roll, m.Drawn, m.Got)
}

// ReadDice throws want dice and reads them with the real reader.
func (r *Reader) ReadDice(ctx context.Context, want int) (companion.DiceResult, error) {
	drawn := r.Table.Throw(want)
	start := time.Now()
	res, err := r.Read.ReadDice(ctx, want)
	took := time.Since(start)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Reads++
	r.stats.Time += took
	if err != nil {
		return res, err
	}
	got := slices.Sorted(slices.Values(res.Values))
	exp := slices.Sorted(slices.Values(drawn))
	switch {
	case res.Status == companion.Read && !slices.Equal(got, exp):
		m := Misread{Seed: r.Table.Seed(), Roll: r.Table.Rolls(), Drawn: exp, Got: got}
		m.Frame = r.save(m)
		r.stats.Wrong = append(r.stats.Wrong, m)
		r.log().Error("misread: the dice read differ from the dice drawn", "seed", m.Seed, "roll", m.Roll,
			"drawn", exp, "read", got, "frame", m.Frame)
	case res.Status == companion.Read:
		r.stats.Read++
	default:
		r.stats.Unreadable++
		r.log().Warn("reading refused", "seed", r.Table.Seed(), "roll", r.Table.Rolls(), "drawn", exp,
			"status", res.Status.String(), "why", res.Why)
	}
	return res, nil
}

// Stats returns the counts so far.
func (r *Reader) Stats() ReadStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.stats
	s.Wrong = slices.Clone(s.Wrong)
	return s
}

func (r *Reader) save(m Misread) string {
	if r.SaveDir == "" {
		return ""
	}
	path := filepath.Join(r.SaveDir, fmt.Sprintf("misread-seed%d-roll%d.png", m.Seed, m.Roll))
	f, err := os.Create(path)
	if err != nil {
		r.log().Error("save misread frame", "err", err)
		return ""
	}
	defer f.Close()
	img, _ := r.Table.Frame(context.Background())
	if err := png.Encode(f, img); err != nil {
		r.log().Error("save misread frame", "err", err)
		return ""
	}
	return path
}

func (r *Reader) log() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
