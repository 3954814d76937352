package sdlog

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Syslog priorities the journal understands (sd-daemon.h).
const (
	prioErr     = 3
	prioWarning = 4
	prioInfo    = 6
	prioDebug   = 7
)

// Priority maps a slog level to a syslog priority.
func Priority(l slog.Level) int {
	switch {
	case l >= slog.LevelError:
		return prioErr
	case l >= slog.LevelWarn:
		return prioWarning
	case l >= slog.LevelInfo:
		return prioInfo
	default:
		return prioDebug
	}
}

// New returns a logger writing to w at level and above. With journal set,
// each line carries a priority prefix and no time or level (the journal
// records both); otherwise lines are slog's text format.
func New(w io.Writer, level slog.Leveler, journal bool) *slog.Logger {
	if !journal {
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	}
	pw := &prefixWriter{w: w}
	inner := slog.NewTextHandler(pw, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	return slog.New(&journalHandler{inner: inner, w: pw})
}

// ForStderr returns the logger for this process's standard error: the
// journal format when standard error is the journal stream systemd gave it.
func ForStderr(level slog.Leveler) *slog.Logger {
	return New(os.Stderr, level, UnderJournal(os.Getenv("JOURNAL_STREAM"), os.Stderr))
}

// UnderJournal reports whether f is the stream named by journalStream, the
// value of $JOURNAL_STREAM ("DEVICE:INODE"). Checking the file, not just the
// variable, keeps prefixes out of a child's redirected output.
func UnderJournal(journalStream string, f *os.File) bool {
	devS, inoS, ok := strings.Cut(journalStream, ":")
	if !ok {
		return false
	}
	dev, err1 := strconv.ParseUint(devS, 10, 64)
	ino, err2 := strconv.ParseUint(inoS, 10, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Dev) == dev && uint64(st.Ino) == ino
}

// journalHandler sets the prefix for each record, then lets the text handler
// write the line through prefixWriter.
type journalHandler struct {
	inner slog.Handler
	w     *prefixWriter
}

func (h *journalHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *journalHandler) Handle(ctx context.Context, r slog.Record) error {
	h.w.mu.Lock()
	defer h.w.mu.Unlock()
	h.w.prio = Priority(r.Level)
	return h.inner.Handle(ctx, r)
}

func (h *journalHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &journalHandler{inner: h.inner.WithAttrs(as), w: h.w}
}

func (h *journalHandler) WithGroup(name string) slog.Handler {
	return &journalHandler{inner: h.inner.WithGroup(name), w: h.w}
}

// prefixWriter writes "<prio>" before each line; the text handler writes one
// whole line per record.
type prefixWriter struct {
	mu   sync.Mutex
	w    io.Writer
	prio int
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	if _, err := fmt.Fprintf(p.w, "<%d>", p.prio); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
