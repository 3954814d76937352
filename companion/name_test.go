package companion

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// TestNameEdit spells names with the four buttons: change letters, extend, cut with the end
// mark, stop early, and keep the old name when the new one would be empty.
func TestNameEdit(t *testing.T) {
	n, p, ok, stop := hw.Next, hw.Prev, hw.OK, hw.Stop
	rep := func(b hw.Button, k int) []hw.Button { return slices.Repeat([]hw.Button{b}, k) }
	cases := []struct {
		name, lang, old string
		presses         []hw.Button
		want            string
	}{
		{"first letter changed", "en", "P1", append([]hw.Button{n}, stop), "Q1"},
		{"extended", "en", "P1", slices.Concat([]hw.Button{ok, ok, n, ok, n, n}, []hw.Button{ok, ok}), "P1AB"},
		{"cut with the end mark", "en", "ANNA", slices.Concat([]hw.Button{ok}, rep(p, 14), []hw.Button{ok}), "A"},
		{"past the end mark to A", "en", "BO", slices.Concat([]hw.Button{ok}, rep(p, 15), []hw.Button{n, stop}), "BA"},
		{"empty keeps the old name", "en", "Bo", []hw.Button{p, p, p, stop}, "Bo"},
		{"trailing spaces dropped", "en", "AB", []hw.Button{ok, ok, p, stop}, "AB"},
		{"cyrillic first in russian", "ru", "", []hw.Button{n, stop}, "А"},
		{"german umlauts", "de", "", slices.Concat(rep(n, 27), []hw.Button{stop}), "Ä"},
		{"at most MaxName letters", "en", "ABCDEFGH", slices.Concat(rep(ok, 7), []hw.Button{n, ok}), "ABCDEFGI"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newNameEdit(c.old, display.Lang(c.lang))
			got, done := "", false
			for i, b := range c.presses {
				if done {
					t.Fatalf("finished before press %d", i)
				}
				got, done = e.press(b)
			}
			if !done || got != c.want {
				t.Fatalf("got %q (done %v), want %q", got, done, c.want)
			}
		})
	}
}

// TestSetupRenamesPlayer renames player 1 from the setup screen and starts the game: the
// roll-off shows the new name.
func TestSetupRenamesPlayer(t *testing.T) {
	sh := func(b hw.Button, k int) []hw.Event { return slices.Repeat([]hw.Event{short(b)}, k) }
	naming := func(cur int) func(display.Screen) error {
		return func(s display.Screen) error {
			if s.Setup.NameCursor != cur {
				return fmt.Errorf("name cursor %d, want %d", s.Setup.NameCursor, cur)
			}
			return nil
		}
	}
	script := seq(
		press(display.KindSetup, short(hw.Next), short(hw.OK), short(hw.OK)),
		step{kind: display.KindSetup, check: naming(1), press: func(display.Screen) []hw.Event {
			return slices.Concat(sh(hw.Prev, 15), sh(hw.OK, 1), sh(hw.Prev, 16), sh(hw.OK, 1))
		}},
		step{kind: display.KindSetup, check: func(s display.Screen) error {
			if s.Setup.Players[0].Name != "AL" || s.Setup.NameCursor != 3 {
				return fmt.Errorf("draft %q cursor %d, want AL at the end mark", s.Setup.Players[0].Name, s.Setup.NameCursor)
			}
			return nil
		}, press: func(display.Screen) []hw.Event { return sh(hw.OK, 1) }},
		step{kind: display.KindSetup, check: naming(0), press: func(display.Screen) []hw.Event {
			return slices.Concat(sh(hw.Prev, 2), sh(hw.OK, 1))
		}},
		step{kind: display.KindRollOff, check: func(s display.Screen) error {
			if s.Players[0].Name != "AL" || s.Players[1].Name != "P2" {
				return fmt.Errorf("players %+v, want AL and P2", s.Players)
			}
			return nil
		}, press: func(display.Screen) []hw.Event { return sh(hw.Stop, 1) }},
	)
	play(t, t.TempDir(), reads(), Options{}, script...)
}
