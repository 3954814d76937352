package hw

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal: what a user's
// terminal emulator or sshd holds, and what the program reads.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var n uint32
	err = ctl(m, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return err
		}
		n, err = unix.IoctlGetUint32(fd, unix.TIOCGPTN)
		return err
	})
	if err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal's tty: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

func ctl(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	var tio *unix.Termios
	if err := ctl(f, func(fd int) (err error) { tio, err = unix.IoctlGetTermios(fd, unix.TCGETS); return err }); err != nil {
		t.Fatalf("read terminal settings: %v", err)
	}
	return *tio
}

func TestOpenTerminalOnATTY(t *testing.T) {
	base := runtime.NumGoroutine()
	master, tty := openPTY(t)
	before := termios(t, tty)
	if before.Lflag&(unix.ICANON|unix.ECHO) != unix.ICANON|unix.ECHO {
		t.Fatalf("a new terminal should start line-buffered with echo: lflag %#x", before.Lflag)
	}
	k, err := OpenTerminal(tty)
	if err != nil {
		t.Fatal(err)
	}
	during := termios(t, tty)
	if during.Lflag&(unix.ICANON|unix.ECHO) != 0 {
		t.Errorf("still line-buffered or echoing: lflag %#x", during.Lflag)
	}
	if during.Lflag&unix.ISIG == 0 || during.Oflag&unix.OPOST == 0 {
		t.Errorf("Ctrl-C or output processing turned off: lflag %#x oflag %#x", during.Lflag, during.Oflag)
	}
	// One key with no Enter arrives: the terminal is no longer line-buffered.
	if _, err := master.Write([]byte("\x1b[C")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ev, err := k.Next(ctx); err != nil || ev.Button != Next || ev.Long {
		t.Fatalf("Next = %v, %v; want Next from →", ev, err)
	}
	// Close interrupts the blocked read and restores the settings.
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if after := termios(t, tty); after != before {
		t.Errorf("terminal not restored:\nbefore %+v\nafter  %+v", before, after)
	}
	settleGoroutines(t, base)
}

// os.Stdin is a blocking descriptor that Go cannot give a read deadline;
// Close must still end the goroutine blocked reading it.
func TestOpenTerminalOnBlockingTTY(t *testing.T) {
	base := runtime.NumGoroutine()
	master, tty := openPTY(t)
	fd, err := syscall.Open(tty.Name(), syscall.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	stdin := os.NewFile(uintptr(fd), "stdin-like")
	defer stdin.Close()
	if err := stdin.SetReadDeadline(time.Now()); err == nil {
		t.Fatal("this descriptor takes read deadlines: the test would not test what os.Stdin needs")
	}
	k, err := OpenTerminal(stdin)
	if err != nil {
		t.Fatal(err)
	}
	master.Write([]byte("h"))
	if ev, err := k.Next(context.Background()); err != nil || ev.Button != Prev {
		t.Fatalf("Next = %v, %v; want Prev", ev, err)
	}
	time.Sleep(20 * time.Millisecond) // let the reader block again
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	settleGoroutines(t, base)
	// A key typed after Close is left for whoever reads next.
	master.Write([]byte("x\n")) // line-buffered again
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 8)
		n, _ := stdin.Read(buf)
		got <- string(buf[:n])
	}()
	select {
	case s := <-got:
		if s != "x\n" {
			t.Fatalf("read after Close: %q, want the line typed after Close", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the line typed after Close never arrived: a leftover reader took it")
	}
}

func TestOpenTerminalOnAPipe(t *testing.T) {
	base := runtime.NumGoroutine()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	k, err := OpenTerminal(r)
	if err != nil {
		t.Fatalf("a pipe is read as it is: %v", err)
	}
	w.Write([]byte("S"))
	if ev, err := k.Next(context.Background()); err != nil || ev.Button != Stop || !ev.Long {
		t.Fatalf("Next = %v, %v; want long Stop", ev, err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	settleGoroutines(t, base) // the reader ended without the pipe being closed
}
