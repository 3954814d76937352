package service

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Loop is what the service runs: companion.Companion.
type Loop interface {
	Run(ctx context.Context) error
	Ping(ctx context.Context) error // answered by the loop goroutine itself
}

// Notifier sends an sd_notify state ("READY=1", "WATCHDOG=1", ...).
type Notifier func(state string) error

// Systemd is the Notifier for the real service manager. Outside systemd
// ($NOTIFY_SOCKET unset) it does nothing.
func Systemd(state string) error {
	_, err := daemon.SdNotify(false, state)
	return err
}

// WatchdogInterval is how often systemd wants WATCHDOG=1 ($WATCHDOG_USEC for
// this process), or 0 when there is no watchdog.
func WatchdogInterval() time.Duration {
	d, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return 0
	}
	return d
}

// Options tune Run.
type Options struct {
	// Watchdog is systemd's WatchdogSec (0: none). The loop is pinged every
	// third of it; a ping that is not answered within half of it is a miss.
	// A loop that stays busy (a slow dice read) is answered late, not lost:
	// the notification goes out as soon as it answers.
	Watchdog time.Duration
	Log      *slog.Logger
	Status   string // STATUS= shown by systemctl status once ready
}

// Run runs loop until ctx ends or the loop returns: READY=1 once it runs,
// WATCHDOG=1 after every answered ping, STOPPING=1 when it ends. It returns
// the loop's error.
func Run(ctx context.Context, loop Loop, notify Notifier, o Options) error {
	log := o.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()

	send(notify, log, "READY=1")
	if o.Status != "" {
		send(notify, log, "STATUS="+o.Status)
	}
	wdDone := make(chan struct{})
	if o.Watchdog > 0 {
		go func() {
			defer close(wdDone)
			Watchdog(ctx, o.Watchdog, loop.Ping, notify, log)
		}()
	} else {
		close(wdDone)
	}
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = <-done // the loop sees ctx too
	}
	send(notify, log, "STOPPING=1")
	cancel()
	<-wdDone
	if err != nil {
		send(notify, log, "STATUS=stopped: "+err.Error())
		return fmt.Errorf("companion loop: %w", err)
	}
	return nil
}

// Watchdog pings the loop every watchdogSec/3 and sends WATCHDOG=1 each time
// it answers within watchdogSec/2. It returns when ctx ends.
func Watchdog(ctx context.Context, watchdogSec time.Duration, ping func(context.Context) error, notify Notifier, log *slog.Logger) {
	every, wait := watchdogSec/3, watchdogSec/2
	t := time.NewTicker(every)
	defer t.Stop()
	misses := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, wait)
		err := ping(pctx)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			misses++
			log.Warn("companion loop did not answer the watchdog ping: systemd restarts the service if this goes on",
				"err", err, "misses", misses, "watchdog", watchdogSec)
			continue
		}
		if misses > 0 {
			log.Info("companion loop answers again", "after_misses", misses)
			misses = 0
		}
		send(notify, log, "WATCHDOG=1")
	}
}

func send(notify Notifier, log *slog.Logger, state string) {
	if err := notify(state); err != nil {
		log.Warn("sd_notify failed", "state", state, "err", err)
	}
}
