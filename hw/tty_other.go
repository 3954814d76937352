//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package hw

import (
	"io"
	"os"

	"golang.org/x/term"
)

// cbreak falls back to raw mode where termios is not available.
func cbreak(fd int) error {
	_, err := term.MakeRaw(fd)
	return err
}

func newFileReader(f *os.File) io.Reader { return f }
