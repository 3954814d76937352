package companion

import (
	"testing"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
)

// TestSetupEdit: every setup line changes within its range, wraps around,
// and never produces what the engine would refuse.
func TestSetupEdit(t *testing.T) {
	g := GameSetup{Players: DefaultPlayers(2), Rules: engine.DefaultRules(), Lang: display.English}
	item := func(f display.SetupField) display.SetupItem { return display.SetupItem{Field: f} }

	g = edit(g, item(display.FieldPlayers), 1)
	g = edit(g, item(display.FieldPlayers), 1)
	if len(g.Players) != 4 {
		t.Fatalf("players %d, want 4", len(g.Players))
	}
	seen := map[display.Colour]bool{}
	for _, p := range g.Players {
		if seen[p.Colour] {
			t.Fatalf("two seats share colour %v: %+v", p.Colour, g.Players)
		}
		seen[p.Colour] = true
	}
	if g = edit(g, item(display.FieldPlayers), 1); len(g.Players) != 2 {
		t.Fatalf("players after wrapping: %d, want 2", len(g.Players))
	}
	if g = edit(g, item(display.FieldPlayers), -1); len(g.Players) != 4 {
		t.Fatalf("players back from 2: %d, want 4", len(g.Players))
	}

	// A seat's colour skips colours other seats use.
	before := g.Players[1].Colour
	g = edit(g, display.SetupItem{Field: display.FieldPlayer, Player: 0}, 1)
	if g.Players[0].Colour == before {
		t.Fatalf("seat 1 took seat 2's colour")
	}

	for _, want := range []int{4, 5, 3} {
		if g = edit(g, item(display.FieldWinColumns), 1); g.Rules.WinColumns != want {
			t.Fatalf("win columns %d, want %d", g.Rules.WinColumns, want)
		}
	}
	g = edit(g, item(display.FieldSkipOccupied), 1)
	g = edit(g, item(display.FieldNoStopOnOccupied), 1)
	if g.Rules.SkipOccupied || !g.Rules.NoStopOnOccupied {
		t.Fatalf("skip_occupied and no_stop_on_occupied together: %+v", g.Rules)
	}
	if err := g.Rules.Validate(); err != nil {
		t.Fatal(err)
	}
	g = edit(g, item(display.FieldSkipOccupied), 1)
	if !g.Rules.SkipOccupied || g.Rules.NoStopOnOccupied {
		t.Fatalf("turning skip_occupied on must turn no_stop_on_occupied off: %+v", g.Rules)
	}
	langs := map[display.Lang]bool{}
	for range display.Languages() {
		g = edit(g, item(display.FieldLang), 1)
		langs[g.Lang] = true
	}
	if len(langs) != len(display.Languages()) || g.Lang != display.English {
		t.Fatalf("languages visited %v, back at %s", langs, g.Lang)
	}
}
