package hw

import (
	"fmt"
	"os"

	"golang.org/x/term"
)

// OpenTerminal returns a Keyboard reading f (usually os.Stdin). When f is a
// terminal, it is switched to key-at-a-time input without echo, and Close
// puts it back as it was. Output processing and Ctrl-C are left alone, so a
// program printing to the same terminal is unaffected; handle SIGINT and
// call Close so the terminal is restored. When f is not a terminal (a pipe,
// a file) it is read as it is. Close ends the reading goroutine even on a
// blocking descriptor like os.Stdin, so a later reader gets every key.
func OpenTerminal(f *os.File) (*Keyboard, error) {
	rc, err := f.SyscallConn() // unlike f.Fd, leaves f's blocking mode alone
	if err != nil {
		return NewKeyboard(f), nil
	}
	var (
		state *term.State
		ferr  error
	)
	err = rc.Control(func(fd uintptr) {
		if !term.IsTerminal(int(fd)) {
			return
		}
		if state, ferr = term.GetState(int(fd)); ferr == nil {
			ferr = cbreak(int(fd))
		}
	})
	if err == nil {
		err = ferr
	}
	if err != nil {
		return nil, fmt.Errorf("hw: set terminal %s to read single keys: %w", f.Name(), err)
	}
	k := NewKeyboard(newFileReader(f))
	if state != nil {
		k.restore = func() error {
			var rerr error
			if err := rc.Control(func(fd uintptr) { rerr = term.Restore(int(fd), state) }); err != nil {
				return fmt.Errorf("hw: restore terminal %s: %w", f.Name(), err)
			}
			if rerr != nil {
				return fmt.Errorf("hw: restore terminal %s: %w", f.Name(), rerr)
			}
			return nil
		}
	}
	return k, nil
}
