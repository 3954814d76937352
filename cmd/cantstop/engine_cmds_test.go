package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/engine"
)

// run executes the root command in-process, as a user would at a shell.
func runEngine(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestMovesCmdText(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"moves", "2:0", "1546"}, []string{"Legal choices (3):", "6+10 (1+5 and 4+6): place a runner in column 6 on space 1, then place a runner in column 10 on space 1", "7+9"}},
		{[]string{"moves", "2:0::6@1,10@1", "2", "4", "3", "5"}, []string{"Legal choices (4):", "7+7 (2+5 and 4+3): place a runner in column 7 on space 1, then move the runner in column 7 from space 1 to 2",
			"5 and 9 (2+3 and 4+5): 5 and 9 together is not possible: both need a new runner and only one is left"}},
		{[]string{"moves", "2:0:10@7/6@11,8@11", "2,4,4,6"}, []string{"BUST", "6 cannot be used: column 6 is claimed by P2", "10 cannot be used: column 10 is claimed by P1", "P2 owns 6, 8"}},
		{[]string{"moves", "2:0::3@1,6@11,8@1", "2-4-5-5"}, []string{"BUST", "the runner in column 6 is already on the top space", "9 cannot be used: it needs a new runner and all three are on the board"}},
		{[]string{"moves", "2:0::6@1,10@1:forced", "1546"}, []string{"6 and 10 (1+5 and 4+6): not allowed with forced placement: it places no new runner, and 5 or 11 or 7 or 9 each place 1 new runner (and 6 or 10 alone is not allowed either", "May P1 stop now instead of rolling? Yes: stopping makes the runners P1's pieces: column 6 at space 1, column 10 at space 1.", "1. 5 (1+4, not 5+6)", "2. 11 (5+6, not 1+4)"}},
		{[]string{"moves", "2:0::6@1,7@3,8@1", "3,3,3,5"}, []string{"6 alone or 8 alone is not allowed: both sums can be used, so both must be"}},
		{[]string{"moves", "2:1:6@3/:6@3:nostop", "1111"}, []string{"P2 to move", "May P2 stop now instead of rolling? No: the runner in column 6 stands on P1's piece (no_stop_on_occupied).",
			"2+2 (1+1 and 1+1): place a runner in column 2 on space 1, then move the runner in column 2 from space 1 to 2; after it you cannot stop (the runner in column 6 would stand on P1's piece)"}},
		{[]string{"moves", "2:0", "1111"}, []string{"May P1 stop now instead of rolling? No: no runner has been placed this turn."}},
		{[]string{"moves", "2:0::6@1", "6363"}, []string{"1. 9+9 (6+3 and 6+3)", "2. 6+12 (3+3 and 6+6)", "6 and 12 (3+3 and 6+6): 6 alone or 12 alone"}},
		{[]string{"moves", "2:0::2@3,12@3", "6363"}, []string{"1. 9+9 (6+3 and 6+3)", "6 (3+3, not 6+6)"}},
		{[]string{"moves", "3:0:7@4/7@5/7@6::skip", "3411"}, []string{"place a runner in column 7 on space 7 (your piece is on 4), skipping spaces 5-6 (taken by other players)"}},
		{[]string{"moves", "2:0::7@12", "3434"}, []string{"7+7 (3+4 and 3+4): move the runner in column 7 from space 12 to 13 (top), then the second step is lost past the top"}},
		{[]string{"moves", "2:0:2@3,3@5,4@7/", "1111"}, []string{"P1 has won.", "May P1 stop now instead of rolling? No: the game is over: P1 has won.", "The game is over: no roll can be used.", "the game is over: P1 has won"}},
		{[]string{"moves", "3:1:2@3,3@5,4@7,5@9/6@11,7@13,8@11,9@9/10@7,11@5,12@3::w5", "1111"}, []string{
			"the game is a draw: all 11 columns are claimed, nobody owns 5, and P1, P2 tie with 4 each.", "the game is over: it is a draw"}},
		{[]string{"moves", "4:1:2@3,3@5,4@7,5@9/6@11,7@13,12@3/8@11,9@9/10@7,11@5::w5", "1111"}, []string{
			"P1 has won: all 11 columns are claimed, nobody owns 5, and P1 owns the most (4).", "the game is over: P1 has won"}},
	} {
		out, err := runEngine(t, tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
	// A pairing refused whole by forced placement and in part by "both must be used" gets one line.
	out, _ := runEngine(t, "moves", "2:0::6@1,10@1:forced", "1546")
	if n := strings.Count(out, "6 and 10 (1+5 and 4+6)"); n != 1 {
		t.Errorf("6 and 10 refused on %d lines, want 1:\n%s", n, out)
	}
	// Pairings with the same sums are shown once.
	out, _ = runEngine(t, "moves", "2:0::3@1,6@11,8@1", "2455")
	if n := strings.Count(out, "7 cannot be used"); n != 1 {
		t.Errorf("refusal for 7 shown %d times:\n%s", n, out)
	}
}

func TestMovesCmdJSON(t *testing.T) {
	out, err := runEngine(t, "moves", "--json", "2:0::6@1,10@1", "1546")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Position engine.Position
		Dice     engine.Dice
		Stop     struct {
			Allowed bool
			Why     string
		}
		Bust     bool
		Choices  []engine.Choice
		Refusals []struct {
			Reason string `json:"reason"`
			Sums   [2]int `json:"sums"`
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Position.String() != "2:0::6@1,10@1" || got.Dice != (engine.Dice{1, 5, 4, 6}) || got.Bust || len(got.Choices) != 5 {
		t.Errorf("moves --json: %+v", got)
	}
	if !got.Stop.Allowed || got.Stop.Why != "stopping makes the runners P1's pieces: column 6 at space 1, column 10 at space 1" {
		t.Errorf("stop: %+v", got.Stop)
	}
	if len(got.Refusals) == 0 || got.Refusals[0].Reason != "must_use_both" {
		t.Errorf("refusals: %+v", got.Refusals)
	}
}

func TestOddsCmd(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		success, bust int
	}{
		{[]string{"odds", "6", "7", "8"}, 1192, 104},
		{[]string{"odds", "2"}, 171, 1125},
		{[]string{"odds", "2", "3"}, 415, 881},
		{[]string{"odds", "2:0::6@1,7@1,8@3"}, 1192, 104},
		{[]string{"odds", "2:0::6@1,7@1,8@11"}, 1083, 213}, // 8 on the top: as columns 6 and 7 (pairs.csv)
		{[]string{"odds", "2:0"}, 1296, 0},
	} {
		out, err := runEngine(t, append(tc.args, "--json")...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var got map[string]float64
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, out)
		}
		if len(got) != 3 || int(got["success"]) != tc.success || int(got["bust"]) != tc.bust || got["p_bust"] != float64(tc.bust)/1296 {
			t.Errorf("%v: %v, want success %d bust %d", tc.args, got, tc.success, tc.bust)
		}
		text, err := runEngine(t, tc.args...)
		if err != nil || !strings.Contains(text, "rolls can be used") {
			t.Errorf("%v text: %q %v", tc.args, text, err)
		}
	}
}

func TestEngineCmdErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"moves", "2:0", "1", "5", "7"}, "dice must be four values 1-6, got 1 5 7"},
		{[]string{"moves", "2:0", "15467"}, "dice must be four values 1-6, got 1 5 4 6 7"},
		{[]string{"moves", "2:0::13@1", "1546"}, "column 13 does not exist: columns are 2-12"},
		{[]string{"moves", "2:0"}, "moves takes POSITION DICE: got 1 argument"},
		{[]string{"odds", "13"}, `"13" is not a column: give column numbers 2-12`},
		{[]string{"odds", "6", "6"}, "column 6 is given twice"},
		{[]string{"odds", "2:x"}, `turn "x" is not a player number`},
		{[]string{"odds"}, "odds takes POSITION|COLUMN...: got 0 arguments"},
	} {
		_, err := runEngine(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestEngineHelpExamples runs every example shown in --help: they must work.
func TestEngineHelpExamples(t *testing.T) {
	for _, c := range engineCmds() {
		help, err := runEngine(t, c.Name(), "--help")
		if err != nil || !strings.Contains(help, "Examples:") {
			t.Fatalf("%s --help: %v\n%s", c.Name(), err, help)
		}
		for _, line := range strings.Split(c.Example, "\n") {
			args := strings.Fields(line)
			if len(args) < 2 || args[0] != "cantstop" {
				t.Fatalf("%s: example %q", c.Name(), line)
			}
			if out, err := runEngine(t, args[1:]...); err != nil {
				t.Errorf("example %q: %v\n%s", line, err, out)
			}
		}
		// The positions shown in the long help parse.
		for _, f := range strings.Fields(c.Long) {
			if strings.Count(f, ":") >= 1 && f[0] >= '2' && f[0] <= '4' {
				if _, err := engine.ParsePosition(f); err != nil {
					t.Errorf("%s help: %v", c.Name(), err)
				}
			}
		}
	}
}
