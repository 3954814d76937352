package hw

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"
)

// ErrInterrupt is returned by Keyboard.Next when Ctrl-C arrives as a byte
// (a terminal in raw mode, or a script).
var ErrInterrupt = errors.New("hw: interrupted (Ctrl-C)")

// Keyboard reads button presses from a terminal or any byte stream; see the
// package documentation or Help for the keys. A keyboard has no key-up, so
// long presses have keys of their own.
type Keyboard struct {
	r       io.Reader
	results chan Event
	err     error // why results was closed; written before the close
	done    chan struct{}
	exited  chan struct{}
	once    sync.Once
	restore func() error // puts the terminal back, for OpenTerminal
}

// NewKeyboard reads keys from r until EOF, after which Next returns io.EOF.
// For a terminal use OpenTerminal. Close interrupts a Read blocked on r only
// if r takes read deadlines (as an *os.File on a pipe does); otherwise the
// reading goroutine ends at r's next byte or EOF.
func NewKeyboard(r io.Reader) *Keyboard {
	k := &Keyboard{r: r, results: make(chan Event), done: make(chan struct{}), exited: make(chan struct{})}
	go k.read()
	return k
}

// Help describes the keys, one per line.
func (k *Keyboard) Help() string {
	return strings.Join([]string{
		"← a h  Prev     Shift+← A H  long Prev   (↑ is Prev too)",
		"→ d l  Next     Shift+→ D L  long Next   (↓ is Next too)",
		"Enter space  OK     m M  long OK (menu)",
		"s  Stop         S  long Stop",
	}, "\n")
}

// Next returns the next key press.
func (k *Keyboard) Next(ctx context.Context) (Event, error) {
	select {
	case <-k.done:
		return Event{}, ErrClosed
	default:
	}
	select {
	case ev, ok := <-k.results:
		if !ok {
			return Event{}, k.err
		}
		return ev, nil
	case <-ctx.Done():
		return Event{}, ctx.Err()
	case <-k.done:
		return Event{}, ErrClosed
	}
}

// Close stops reading and restores the terminal if OpenTerminal changed it.
func (k *Keyboard) Close() error {
	var err error
	k.once.Do(func() {
		close(k.done)
		if k.restore != nil {
			err = k.restore()
		}
		switch r := k.r.(type) {
		case interface{ interrupt() bool }:
			if r.interrupt() {
				<-k.exited
			}
		case interface{ SetReadDeadline(time.Time) error }:
			if r.SetReadDeadline(time.Unix(1, 0)) == nil {
				<-k.exited
				_ = r.SetReadDeadline(time.Time{})
			}
		}
	})
	return err
}

func (k *Keyboard) read() {
	defer close(k.exited)
	br := bufio.NewReader(k.r)
	for {
		ev, ok, err := readKey(br)
		if err != nil {
			k.err = err
			close(k.results)
			return
		}
		if !ok {
			continue
		}
		ev.At = time.Now()
		select {
		case k.results <- ev:
		case <-k.done:
			return
		}
	}
}

// readKey reads one key; ok is false for keys that mean nothing.
func readKey(br *bufio.Reader) (ev Event, ok bool, err error) {
	b, err := br.ReadByte()
	if err != nil {
		return Event{}, false, err
	}
	switch b {
	case 0x03:
		return Event{}, false, ErrInterrupt
	case 0x04:
		return Event{}, false, io.EOF
	case 0x1b:
		return readEscape(br)
	case '\r':
		if br.Buffered() > 0 {
			if nb, _ := br.Peek(1); nb[0] == '\n' { // CR LF is one Enter
				_, _ = br.ReadByte()
			}
		}
		return Event{Button: OK}, true, nil
	}
	return keyEvent(b)
}

// keyEvent maps a plain key to its press.
func keyEvent(b byte) (Event, bool, error) {
	switch b {
	case 'a', 'h':
		return Event{Button: Prev}, true, nil
	case 'A', 'H':
		return Event{Button: Prev, Long: true}, true, nil
	case 'd', 'l':
		return Event{Button: Next}, true, nil
	case 'D', 'L':
		return Event{Button: Next, Long: true}, true, nil
	case '\n', ' ':
		return Event{Button: OK}, true, nil
	case 'm', 'M':
		return Event{Button: OK, Long: true}, true, nil
	case 's':
		return Event{Button: Stop}, true, nil
	case 'S':
		return Event{Button: Stop, Long: true}, true, nil
	}
	return Event{}, false, nil
}

// readEscape reads the rest of an escape sequence after ESC. Arrows are
// ESC [ C or ESC O C; with a modifier (Shift) ESC [ 1 ; 2 C.
func readEscape(br *bufio.Reader) (Event, bool, error) {
	b, err := br.ReadByte()
	if err != nil {
		return Event{}, false, err
	}
	if b != '[' && b != 'O' {
		_ = br.UnreadByte() // a lone ESC: ignore it, keep the next key
		return Event{}, false, nil
	}
	var params []byte
	for {
		c, err := br.ReadByte()
		if err != nil {
			return Event{}, false, err
		}
		if c >= 0x40 && c <= 0x7e { // final byte
			long := false
			if i := strings.LastIndexByte(string(params), ';'); i >= 0 {
				long = string(params[i+1:]) != "1" // any modifier
			}
			switch c {
			case 'A', 'D':
				return Event{Button: Prev, Long: long}, true, nil
			case 'B', 'C':
				return Event{Button: Next, Long: long}, true, nil
			}
			return Event{}, false, nil
		}
		if c < 0x20 || len(params) > 16 { // not a sequence after all
			_ = br.UnreadByte()
			return Event{}, false, nil
		}
		params = append(params, c)
	}
}
