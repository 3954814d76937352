// Package sdlog makes the program's slog logger so that the systemd journal understands it.
// It writes plain text on standard error for people, and under systemd lines that start with
// an sd-daemon priority prefix ("<3>" for errors ... "<7>" for debug), which the journal turns
// into the entry's priority (journalctl -p warning shows warnings and errors).
//
//	log := sdlog.ForStderr(slog.LevelInfo) // journal format when stderr is the journal stream
//	log.Warn("camera not ready: retrying", "source", spec) // "<4>camera not ready: ..." under systemd
package sdlog
