//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package hw

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// cbreak turns off line buffering and echo only: unlike raw mode it keeps
// output processing (newlines stay newlines) and Ctrl-C as a signal.
func cbreak(fd int) error {
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return err
	}
	t.Lflag &^= unix.ICANON | unix.ECHO
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, setTermios, t)
}

// fileReader reads f only once poll says it has input, so a Read can be
// interrupted even on a blocking descriptor such as os.Stdin, which Go
// cannot give a read deadline.
type fileReader struct {
	f    *os.File
	stop chan struct{}
}

func newFileReader(f *os.File) *fileReader {
	return &fileReader{f: f, stop: make(chan struct{})}
}

func (r *fileReader) Read(p []byte) (int, error) {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return r.f.Read(p)
	}
	for {
		select {
		case <-r.stop:
			return 0, ErrClosed
		default:
		}
		var ready bool
		var perr error
		if err := rc.Control(func(fd uintptr) {
			var n int
			n, perr = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 50)
			ready = n > 0
		}); err != nil {
			return 0, err
		}
		if perr != nil && !errors.Is(perr, unix.EINTR) {
			return 0, perr
		}
		if ready { // input, end of file or hang-up: Read tells which
			return r.f.Read(p)
		}
	}
}

// interrupt makes a blocked Read return ErrClosed within 50 ms.
func (r *fileReader) interrupt() bool {
	close(r.stop)
	return true
}
