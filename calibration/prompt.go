package calibration

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"strings"
	"sync"
)

// Prompter is how the procedure talks to the person calibrating: the terminal in `cantstop
// calibrate`, the device's buttons and display (package panel), a script in tests.
type Prompter interface {
	// Say shows a message.
	Say(msg string)
	// Ask asks a question and returns the answer, trimmed: q.Def for an empty one.
	Ask(ctx context.Context, q Question) (string, error)
}

// Question is one thing calibration asks. A terminal shows Text and takes a typed line; buttons
// and a small display answer by Kind with the answers Kind lists.
type Question struct {
	Kind Asking
	Text string // the question in words
	Def  string // what an empty answer (Enter; OK on the buttons) means
	// Why says what went wrong the last time, when this asks again.
	Why string
	// Dice are the values read (AskValues; 0 for a die not read), one per die in play.
	Dice []int
	// Lean holds, for each die of Dice not read, the value the reader leaned to (0 elsewhere,
	// or none): a guess a display may start the correction from, marked, never a reading.
	Lean []int
	// Roll and Of count the rolls of AskLearn: roll Roll of Of.
	Roll, Of int
	// AskTray: the empty tray (the whole frame, shrunk), the frame's size and the tray found in
	// it, in frame pixels, for a display to show; buttons answer with the box they moved.
	Picture image.Image
	Frame   image.Point
	Box     image.Rectangle
}

// Asking says what a Question wants. Every kind also takes "q": stop calibrating.
type Asking int

const (
	AskEmpty  Asking = iota // empty the tray, then "" (Enter, OK)
	AskRoll                 // roll the dice into the tray, then ""
	AskTray                 // "" to take the tray found, or its box typed as x0,y0,x1,y1
	AskValues               // the dice's values, as "2 3 5 5" (Def: the values read)
	AskKeep                 // "y" to keep a calibration that misread its roll, "n" (Def) not
	AskLearn                // roll again, then "" ("s": stop learning, keep what was learnt)
)

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

// Ask shows q.Text and waits for a line or for ctx; input that ends before an answer is an error.
func (t *Terminal) Ask(ctx context.Context, q Question) (string, error) {
	question, def := q.Text, q.Def
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
