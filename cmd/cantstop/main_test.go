package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestStopped(t *testing.T) {
	signalled, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("terminated signal received"))
	plain, cancelPlain := context.WithCancel(context.Background())
	cancelPlain()
	live := context.Background()
	other := errors.New("camera dir:x: no images")
	for _, tt := range []struct {
		name string
		ctx  context.Context
		err  error
		want string // "" = nil
	}{
		{"no error", signalled, nil, ""},
		{"signalled", signalled, fmt.Errorf("settle: %w", context.Canceled), "stopped before finishing (terminated signal received)"},
		{"signalled, other error", signalled, other, other.Error()},
		{"cancelled without a cause", plain, context.Canceled, "context canceled"},
		{"not cancelled", live, fmt.Errorf("x: %w", context.Canceled), "x: context canceled"},
	} {
		got := stopped(tt.ctx, tt.err)
		if (got == nil) != (tt.want == "") || got != nil && got.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, got, tt.want)
		}
	}
}

// SIGTERM, as systemctl stop sends it, cancels the commands' context with the signal as cause.
func TestSignalContextSIGTERM(t *testing.T) {
	ctx, stop := signalContext(context.Background())
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	if err := stopped(ctx, fmt.Errorf("read: %w", ctx.Err())); err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("after SIGTERM: %v", err)
	}
}
