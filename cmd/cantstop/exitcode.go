package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes, for scripts (dice read's --help and README list them).
const (
	exitError      = 1 // something went wrong: a file, the camera, the config
	exitUsage      = 2 // the command line: a missing or extra argument, an unknown flag
	exitUnreadable = 3 // dice read: a face not read surely, or nothing that looks like a die
	exitWrongCount = 4 // dice read --expect N: the faces were read but there are not N dice
	exitNotSettled = 5 // dice read --settle: the dice did not come to rest
)

// exitCodeError ends the program with code; a non-empty msg is printed first.
type exitCodeError struct {
	code int
	msg  string
}

func (e *exitCodeError) Error() string { return e.msg }

// exitCode is the code the program ends with for err (nil: 0).
func exitCode(err error) int {
	var e *exitCodeError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		return e.code
	}
	return exitError
}

// withUsage makes every command's argument and flag errors say how the command
// is used, with its first example, and end with exitUsage: cobra's own
// "accepts between 2 and 5 arg(s), received 1" says neither.
func withUsage(root *cobra.Command) {
	usage := func(c *cobra.Command, err error) error {
		msg := fmt.Sprintf("%v\nusage: %s", err, c.UseLine())
		if ex := strings.TrimSpace(strings.SplitN(c.Example, "\n", 2)[0]); ex != "" {
			msg += "\n  e.g. " + ex
		}
		return &exitCodeError{code: exitUsage, msg: msg + "\nmore: " + c.CommandPath() + " --help"}
	}
	// A word that names no command (cantstop mvoes) is a bad command line too: root
	// takes any words and refuses them itself (cobra would exit 1, or print help).
	root.Args = cobra.ArbitraryArgs
	root.SuggestionsMinimumDistance = 2
	root.RunE = func(c *cobra.Command, a []string) error {
		if len(a) == 0 {
			return c.Help()
		}
		msg := fmt.Sprintf("%q is not a cantstop command", a[0])
		if s := c.SuggestionsFor(a[0]); len(s) > 0 {
			msg += fmt.Sprintf(": did you mean %s?", strings.Join(s, " or "))
		}
		return &exitCodeError{code: exitUsage, msg: msg + "\nmore: cantstop --help"}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil && c.HasParent() {
			c.Args = func(c *cobra.Command, a []string) error {
				if err := args(c, a); err != nil {
					want := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c.UseLine(), c.CommandPath()), "[flags]"))
					if want == "" {
						want = "no arguments"
					}
					return usage(c, fmt.Errorf("%s takes %s: got %s", c.Name(), want, plural(len(a), "argument")))
				}
				return nil
			}
		}
		c.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usage(c, err) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// plural is "1 argument", "2 arguments".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
