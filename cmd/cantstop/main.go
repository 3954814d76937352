package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	tuneGC()
	ctx, stop := signalContext(context.Background())
	defer stop()
	err := stopped(ctx, newRootCmd().ExecuteContext(ctx))
	if err != nil && err.Error() != "" {
		fmt.Fprintln(os.Stderr, "cantstop:", err)
	}
	if code := exitCode(err); code != 0 {
		stop()
		os.Exit(code)
	}
}

// signalContext returns a context cancelled by the first SIGINT or SIGTERM (Ctrl-C, systemctl
// stop), with the signal as its cause. Every command takes its context from it: `run` ends its
// game loop and saves, `dice read` and `dice bench` stop between frames. The first signal also
// gives the signals back to their default action, so a second one ends a program that is slow
// to stop at once.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// stopped says that a command cut short by a signal was stopped, and by which signal, instead
// of the bare "context canceled" of the operation it was in.
func stopped(ctx context.Context, err error) error {
	if err == nil || !errors.Is(err, context.Canceled) || ctx.Err() == nil {
		return err
	}
	// The signal's cause says errors.Is(context.Canceled) too: compare it with ctx.Err itself.
	cause := context.Cause(ctx)
	if cause == nil || cause == ctx.Err() {
		return err
	}
	return fmt.Errorf("stopped before finishing (%v)", cause)
}
