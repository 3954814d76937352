package calibration

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Prompter is how the procedure talks to the person calibrating: the
// terminal in `cantstop calibrate`, a script in tests.
type Prompter interface {
	// Say shows a message.
	Say(msg string)
	// Ask shows a question and returns the answer, trimmed; an empty
	// answer means def.
	Ask(ctx context.Context, question, def string) (string, error)
}

// Terminal prompts on a text terminal (or any line-based reader and writer).
type Terminal struct {
	out   io.Writer
	in    *bufio.Reader
	once  sync.Once
	lines chan line
}

type line struct {
	text string
	err  error
}

// NewTerminal returns a Prompter reading answers, one a line, from in.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{out: out, in: bufio.NewReader(in), lines: make(chan line)}
}

func (t *Terminal) Say(msg string) { fmt.Fprintln(t.out, msg) }

// Ask waits for a line or for ctx; input that ends before an answer is an error.
func (t *Terminal) Ask(ctx context.Context, question, def string) (string, error) {
	if def != "" {
		fmt.Fprintf(t.out, "%s [%s]: ", question, def)
	} else {
		fmt.Fprintf(t.out, "%s: ", question)
	}
	t.once.Do(func() { // one reader for the whole session, so no line is lost to a cancelled Ask
		go func() {
			for {
				s, err := t.in.ReadString('\n')
				if err != nil && s == "" {
					t.lines <- line{err: err}
					return
				}
				t.lines <- line{text: s}
			}
		}()
	})
	select {
	case <-ctx.Done():
		fmt.Fprintln(t.out)
		return "", ctx.Err()
	case l := <-t.lines:
		if l.err != nil {
			fmt.Fprintln(t.out)
			if errors.Is(l.err, io.EOF) {
				return "", errors.New("no answer: the input ended (run `cantstop calibrate` in a terminal)")
			}
			return "", l.err
		}
		if a := strings.TrimSpace(l.text); a != "" {
			return a, nil
		}
		return def, nil
	}
}
