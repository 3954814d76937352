package main

import (
	"os"
	"strings"
	"testing"
)

// A command line cobra refuses says how the command is used, with an example,
// and ends with exitUsage.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"moves", "2:0"}, []string{"moves takes POSITION DICE: got 1 argument", "usage: cantstop moves POSITION DICE", "e.g. cantstop moves 2:0 1546", "more: cantstop moves --help"}},
		{[]string{"odds"}, []string{"odds takes POSITION|COLUMN...: got 0 arguments", "e.g. cantstop odds 6 7 8"}},
		{[]string{"version", "now"}, []string{"version takes no arguments: got 1 argument"}},
		{[]string{"moves", "--jsn", "2:0", "1546"}, []string{"unknown flag: --jsn", "usage: cantstop moves"}},
		{[]string{"dice", "read", "a.jpg", "b.jpg"}, []string{"read takes [FILE]: got 2 arguments", "e.g. cantstop dice read roll.jpg"}},
		{[]string{"mvoes", "2:0", "1546"}, []string{`"mvoes" is not a cantstop command: did you mean moves?`, "more: cantstop --help"}},
	} {
		out, err := calibrateCLI(t, "", c.args...)
		if code := exitCode(err); code != exitUsage {
			t.Errorf("%v: exit code %d (%v), want %d", c.args, code, err, exitUsage)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q (output %q)", c.args, err, w, out)
			}
		}
	}
}

func TestVersionFlagAndCompletionExamples(t *testing.T) {
	out, err := calibrateCLI(t, "", "--version")
	if err != nil || !strings.HasPrefix(out, "cantstop version ") || !strings.Contains(out, "commit") {
		t.Errorf("--version: %q, %v", out, err)
	}
	out, err = calibrateCLI(t, "", "completion", "--help")
	if err != nil || !strings.Contains(out, "Examples:") || !strings.Contains(out, "cantstop completion bash |") {
		t.Errorf("completion --help has no examples: %q, %v", out, err)
	}
}

// --screen auto falls back to text when the output is no terminal (a pipe, a
// file); a named form is kept as given.
func TestFitScreen(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for in, want := range map[string]string{"auto": "text", "oled": "oled", "oled-compact": "oled-compact", "text": "text"} {
		if got := fitScreen(in, f); got != want {
			t.Errorf("fitScreen(%q) to a file = %q, want %q", in, got, want)
		}
	}
}
