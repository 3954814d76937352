// Command cantstop is the Can't Stop table companion: rules engine CLI, dice
// reader, calibration and the companion loop. It only wires cobra commands to
// the packages that do the work.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "cantstop:", err)
		os.Exit(1)
	}
}
