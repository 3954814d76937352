package engine

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParsePositionRoundTrip(t *testing.T) {
	for _, s := range []string{
		"2:0",
		"2:1:7@4/7@5:6@1,10@1",
		"3:0:12@3//:2@1:w4,forced",
		"4:3:2@1,7@13/3@2/4@1/5@5:3@3,6@2:skip",
		"2:0:::nostop",
		"2:1:2@3,3@5,4@7/",
		"4:0:::w4",
		"3:1:2@3,3@5,4@7,5@9/6@11,7@13,8@11,9@9/10@7,11@5,12@3::w5", // a draw
	} {
		p, err := ParsePosition(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if p.String() != s {
			t.Errorf("ParsePosition(%q).String() = %q", s, p.String())
		}
	}
	// Accepted but not canonical forms.
	for in, want := range map[string]string{
		" 2:0 ":             "2:0",
		"2:0:/:":            "2:0",
		"2:0:::W3":          "2:0",
		"2:0:7@2,3@1/:":     "2:0:3@1,7@2/",
		"2:0::10@1,6@1:w3":  "2:0::6@1,10@1",
		"2:0:::forced,skip": "2:0:::skip,forced",
	} {
		p, err := ParsePosition(in)
		if err != nil || p.String() != want {
			t.Errorf("ParsePosition(%q) = %q, %v; want %q", in, p.String(), err, want)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "at least PLAYERS:TURN",
		"2":                             "at least PLAYERS:TURN",
		"5:0":                           "5 players: Can't Stop is for 2 to 4 players",
		"x:0":                           `players "x" is not a number`,
		"2:2":                           "turn 2: players are 0-1",
		"2:0::13@1":                     "column 13 does not exist: columns are 2-12",
		"2:0::7@14":                     "space 14 is above its top (column 7 has 13 spaces)",
		"2:0::7@0":                      "space 0 does not exist",
		"2:0::7":                        `"7" should be COLUMN@SPACE`,
		"2:0::7@1,7@2":                  "column 7 is listed twice",
		"2:0::2@1,3@1,4@1,5@1":          "4 listed, there are only 3",
		"2:0:7@4:":                      "2 players need 2 lists separated by '/', got 1",
		"2:0:7@4/:7@3":                  "not above the mover's piece on space 4",
		"2:0:12@3/12@1":                 "column 12 is claimed by player 0, so player 1 cannot have a piece",
		"2:0:12@3/:12@1":                "column 12 is claimed by player 0, no runner",
		"2:0:::w7":                      `unknown option "w7"`,
		"2:0:::skip,nostop":             "cannot be combined",
		"4:0:::w6":                      `unknown option "w6"`,
		"2:0:2@3,3@5,4@7/:5@1":          "player 0 has won, so no runner",
		"2:0:2@3,3@5,4@7/5@9,6@11,8@11": "only one can have won",
		"2:0::a@1":                      `column "a" is not a number 2-12`,
		"2:0:::::":                      "got 7 field(s)",
	} {
		_, err := ParsePosition(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePosition(%q) error %v, want it to say %q", in, err, want)
		}
	}
}

func TestParseDice(t *testing.T) {
	for in, want := range map[string]Dice{"1546": {1, 5, 4, 6}, "1 5 4 6": {1, 5, 4, 6}, "1,5,4,6": {1, 5, 4, 6}, "6-6-1-1": {6, 6, 1, 1}, " 2 2 2 2 ": {2, 2, 2, 2}} {
		if d, err := ParseDice(in); err != nil || d != want {
			t.Errorf("ParseDice(%q) = %v, %v", in, d, err)
		}
	}
	for in, want := range map[string]string{"1 5 7": "got 1 5 7", "154": "got 1 5 4", "15467": "got 1 5 4 6 7", "1 5 4 0": "got 1 5 4 0", "": "got "} {
		if _, err := ParseDice(in); err == nil || err.Error() != "dice must be four values 1-6, "+want {
			t.Errorf("ParseDice(%q) error %v, want %q", in, err, want)
		}
	}
}

func TestPositionJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		p := randomPosition(t, rng)
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Position
		if err := json.Unmarshal(b, &q); err != nil || q != p {
			t.Fatalf("%s: JSON %s came back as %s (%v)", p, b, q, err)
		}
		var r Position
		if err := json.Unmarshal([]byte(`"`+p.String()+`"`), &r); err != nil || r != p {
			t.Fatalf("%s: notation in JSON came back as %s (%v)", p, r, err)
		}
	}
	var p Position
	err := json.Unmarshal([]byte(`{"players":2,"turn":0,"pieces":[{},{}],"runners":{"13":1}}`), &p)
	if err == nil || !strings.Contains(err.Error(), "column 13 does not exist") {
		t.Errorf("bad JSON position: %v", err)
	}
}

// FuzzParsePosition: the parser never panics, and whatever it accepts
// formats to a canonical string that parses back to the same position.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"2:0", "2:1:7@4/7@5:6@1,10@1", "3:0:12@3//:2@1:w4,forced", "4:3:2@1,7@13/3@2/4@1/5@5:3@3,6@2:skip", "2:0:::nostop", "2:0::7@14", "2:0:+7@4/:", "4:0:2@3,3@5,4@7,5@9/6@11,7@13,8@11/9@9,10@7/11@5,12@3::w5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(s)
		if err != nil {
			return
		}
		q, err := ParsePosition(p.String())
		if err != nil {
			t.Fatalf("%q parsed, but its format %q does not: %v", s, p.String(), err)
		}
		if q != p || q.String() != p.String() {
			t.Fatalf("%q: round trip %q -> %q", s, p.String(), q.String())
		}
		Legal(p, Dice{1, 2, 3, 4})
		BustOdds(p)
	})
}
