package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Status is a check's outcome.
type Status int

const (
	Pass Status = iota
	Warn        // works, but not as well as it could
	Fail
)

func (s Status) String() string {
	return [...]string{"PASS", "WARN", "FAIL"}[s]
}

// Check is one thing to check. Run returns what it found (for a PASS line)
// or an error; a *Problem error carries the fix and whether it is only a
// warning, any other error is a failure with the check's Fix.
type Check struct {
	Name    string
	Fix     string        // default fix for a plain error
	Timeout time.Duration // longest wait, when not Run's (the interactive checks wait for a person)
	Run     func(ctx context.Context) (string, error)
}

// Problem is an error with its fix.
type Problem struct {
	Err  error
	Fix  string
	Warn bool // not a failure: the device works without it
}

func (p *Problem) Error() string { return p.Err.Error() }
func (p *Problem) Unwrap() error { return p.Err }

// Failed wraps err with its fix.
func Failed(err error, fix string) error { return &Problem{Err: err, Fix: fix} }

// Warning is a problem that does not stop the device.
func Warning(msg, fix string) error { return &Problem{Err: errors.New(msg), Fix: fix, Warn: true} }

// Result is one check's outcome.
type Result struct {
	Name   string
	Status Status
	Detail string
	Fix    string
}

// Run runs the checks in order, each with at most timeout, writes a line per
// check to w and returns the results.
func Run(ctx context.Context, checks []Check, timeout time.Duration, w io.Writer) []Result {
	var rs []Result
	width := 0
	for _, c := range checks {
		width = max(width, len(c.Name))
	}
	for _, c := range checks {
		r := runOne(ctx, c, timeout)
		rs = append(rs, r)
		fmt.Fprintf(w, "%s  %-*s  %s\n", r.Status, width, r.Name, r.Detail)
		if r.Fix != "" {
			fmt.Fprintf(w, "      %-*s  fix: %s\n", width, "", r.Fix)
		}
	}
	return rs
}

// Failures counts the failed checks.
func Failures(rs []Result) int {
	n := 0
	for _, r := range rs {
		if r.Status == Fail {
			n++
		}
	}
	return n
}

func runOne(ctx context.Context, c Check, timeout time.Duration) (r Result) {
	r.Name = c.Name
	if c.Timeout > 0 {
		timeout = c.Timeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type out struct {
		detail string
		err    error
	}
	done := make(chan out, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- out{err: fmt.Errorf("check crashed: %v", p)}
			}
		}()
		d, err := c.Run(cctx)
		done <- out{d, err}
	}()
	var o out
	select {
	case o = <-done:
	case <-cctx.Done():
		o.err = fmt.Errorf("no answer within %v", timeout)
	}
	if o.err == nil {
		r.Status, r.Detail = Pass, o.detail
		return r
	}
	r.Status, r.Detail, r.Fix = Fail, oneLine(o.err.Error()), c.Fix
	var p *Problem
	if errors.As(o.err, &p) {
		if p.Fix != "" {
			r.Fix = p.Fix
		}
		if p.Warn {
			r.Status = Warn
		}
	}
	return r
}

// oneLine keeps multi-line errors (a config file's list) readable in a column.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n        ")
}
