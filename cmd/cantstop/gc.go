package main

import (
	"os"
	"runtime/debug"
)

// Collector settings, unless GOGC or GOMEMLIMIT say otherwise. The dice reader makes about
// 8 MB of short-lived buffers per frame against a live heap of 3-11 MB, so at Go's default
// (GOGC=100) the collector ran two or three times per frame and handed back to the kernel
// pages that the next frame faulted in again: on the development VM that was a quarter of the
// reading time (BENCHMARKS-dice.md, "Speed: the collector's settings"). GOGC=400 collects
// far less often; the soft limit of 24 MiB (the service unit's) caps the heap, and so the
// RSS, within the memory budget (BENCHMARKS-companion.md).
const (
	gcPercent = 400
	memLimit  = 24 << 20
)

func tuneGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(gcPercent)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(memLimit)
	}
}
