package main

import (
	"os"
	"runtime/debug"
)

// Collector settings, unless GOGC or GOMEMLIMIT say otherwise. Frames and the reader's
// buffers are short-lived against a live heap of a few MB, so at Go's default (GOGC=100) the
// collector runs several times per frame and hands back pages the next frame faults in again.
// GOGC=400 collects far less often; the soft limit of 20 MiB (the service unit's) caps the
// heap, and so the RSS, within the memory budget (BENCHMARKS-companion.md).
const (
	gcPercent = 400
	memLimit  = 20 << 20
)

func tuneGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(gcPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(memLimit)
	}
}
