package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: with neither variable set the reader's settings apply; a user's GOGC or
// GOMEMLIMIT is left alone.
func TestTuneGC(t *testing.T) {
	prevGC, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevLimit) }()
	for _, tc := range []struct {
		name           string
		env            map[string]string
		wantGC         int
		wantLimitBytes int64
	}{
		{"defaults", nil, gcPercent, memLimit},
		{"user's GOGC", map[string]string{"GOGC": "100"}, 100, memLimit},
		{"user's GOMEMLIMIT", map[string]string{"GOMEMLIMIT": "24MiB"}, gcPercent, 1 << 62},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(1 << 62)
			tuneGC()
			if got := debug.SetGCPercent(100); got != tc.wantGC {
				t.Errorf("GC percent %d, want %d", got, tc.wantGC)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimitBytes {
				t.Errorf("memory limit %d, want %d", got, tc.wantLimitBytes)
			}
		})
	}
}
