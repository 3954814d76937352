package companion

import (
	"context"
	"slices"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
	"github.com/cantstop/cantstop/hw"
)

var colours = []display.Colour{display.Red, display.Blue, display.Green, display.Yellow,
	display.Orange, display.Purple, display.White, display.Black}

// setup runs the setup screen: Prev/Next move the highlight, OK edits the
// highlighted line (Prev/Next then change its value, OK is done) or, on
// Start, begins the game. On a player's line, OK after the colour spells
// the name (see nameEdit).
func (c *Companion) setup(ctx context.Context) error {
	g := GameSetup{Players: slices.Clone(c.opts.Players), Rules: c.opts.Rules, Lang: c.lang}
	sel, editing := 0, false
	var naming *nameEdit
	for {
		items := display.SetupItems(len(g.Players))
		sel = min(sel, len(items)-1)
		it := items[sel]
		st := display.Setup{Players: g.Players, Rules: g.Rules, Lang: g.Lang, Editing: editing}
		if naming != nil {
			st.Players = slices.Clone(g.Players)
			st.Players[it.Player].Name, st.NameCursor = naming.draft()
		}
		c.show(display.Screen{Kind: display.KindSetup, Lang: g.Lang, Selected: sel, Setup: st})
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		switch {
		case ev.Long:
		case naming != nil:
			if name, done := naming.press(ev.Button); done {
				g.Players = slices.Clone(g.Players)
				g.Players[it.Player].Name = name
				naming, editing = nil, false
			}
		case ev.Button == hw.OK && editing && it.Field == display.FieldPlayer:
			naming = newNameEdit(g.Players[it.Player].Name, g.Lang)
		case ev.Button == hw.OK && !editing && it.Field == display.FieldStart:
			if err := c.record(Action{Op: OpSetup, Setup: &g}); err != nil {
				return err
			}
			c.lang = g.Lang
			return nil
		case ev.Button == hw.OK || ev.Button == hw.Stop:
			editing = !editing && ev.Button == hw.OK
		case !editing && ev.Button == hw.Next:
			sel = (sel + 1) % len(items)
		case !editing && ev.Button == hw.Prev:
			sel = (sel + len(items) - 1) % len(items)
		case editing:
			delta := 1
			if ev.Button == hw.Prev {
				delta = -1
			}
			g = edit(g, it, delta)
			c.lang = g.Lang
		}
	}
}

// edit changes the value of one setup line by delta steps.
func edit(g GameSetup, it display.SetupItem, delta int) GameSetup {
	wrap := func(i, n int) int { return ((i+delta)%n + n) % n }
	r := &g.Rules
	switch it.Field {
	case display.FieldPlayers:
		n := engine.MinPlayers + wrap(len(g.Players)-engine.MinPlayers, engine.MaxPlayers-engine.MinPlayers+1)
		for len(g.Players) < n {
			p := DefaultPlayers(len(g.Players) + 1)[len(g.Players)]
			p.Colour = freeColour(g.Players, -1, p.Colour, 1)
			g.Players = append(g.Players, p)
		}
		g.Players = g.Players[:n]
	case display.FieldPlayer:
		g.Players = slices.Clone(g.Players)
		p := &g.Players[it.Player]
		p.Colour = freeColour(g.Players, it.Player, colours[wrap(slices.Index(colours, p.Colour), len(colours))], delta)
	case display.FieldWinColumns:
		r.WinColumns = 3 + wrap(r.WinColumns-3, 3)
	case display.FieldSkipOccupied:
		r.SkipOccupied = !r.SkipOccupied
		r.NoStopOnOccupied = r.NoStopOnOccupied && !r.SkipOccupied // the editions forbid both
	case display.FieldNoStopOnOccupied:
		r.NoStopOnOccupied = !r.NoStopOnOccupied
		r.SkipOccupied = r.SkipOccupied && !r.NoStopOnOccupied
	case display.FieldForcedPlacement:
		r.ForcedPlacement = !r.ForcedPlacement
	case display.FieldLang:
		ls := display.Languages()
		g.Lang = ls[wrap(slices.Index(ls, g.Lang), len(ls))]
	}
	return g
}

// freeColour is the first colour from want on (stepping by dir) that no
// seat other than self uses.
func freeColour(ps []display.Player, self int, want display.Colour, dir int) display.Colour {
	i := slices.Index(colours, want)
	for range colours {
		used := false
		for j, p := range ps {
			used = used || (j != self && p.Colour == colours[i])
		}
		if !used {
			return colours[i]
		}
		i = ((i+dir)%len(colours) + len(colours)) % len(colours)
	}
	return want
}

// rollOff: OK reads the next roller's two dice; Prev/Next instead pick a
// player to name as first, and OK then confirms that player.
func (c *Companion) rollOff(ctx context.Context) error {
	pick := -1
	for {
		r := &c.t.roll
		s := display.Screen{Kind: display.KindRollOff, Player: r.roller(),
			RollOff: display.RollOff{Rolls: r.shown, Leader: r.leader()}}
		if len(r.contenders) < len(c.t.setup.Players) {
			s.RollOff.Tied = r.contenders
		}
		if pick >= 0 {
			s.Player, s.RollOff.Leader = pick, pick
		}
		c.show(s)
		ev, err := c.next(ctx)
		if err != nil {
			return err
		}
		n := len(c.t.setup.Players)
		switch {
		case ev.Long:
			_, err := c.menu(ctx, nil)
			return err
		case ev.Button == hw.OK && pick >= 0:
			return c.record(Action{Op: OpFirst, Player: pick})
		case ev.Button == hw.OK:
			roller := r.roller()
			v, err := c.readValues(ctx, 2)
			if err != nil {
				return err
			}
			if err := c.record(Action{Op: OpRollOff, Player: roller, Pair: [2]int{v[0], v[1]}}); err != nil {
				return err
			}
			return c.rollOffResult(ctx)
		case ev.Button == hw.Stop:
			pick = -1
		case ev.Button == hw.Next:
			pick = (max(pick, r.roller()) + 1) % n
		case ev.Button == hw.Prev:
			pick = (max(pick, r.roller()) + n - 1) % n
		}
	}
}

// rollOffResult shows every throw and who starts once the roll-off is decided,
// until a press: the game would otherwise jump straight to the first turn.
func (c *Companion) rollOffResult(ctx context.Context) error {
	if !c.t.started {
		return nil
	}
	r := &c.t.roll
	c.show(display.Screen{Kind: display.KindRollOff, Player: c.t.pos.Turn(),
		RollOff: display.RollOff{Rolls: r.shown, Leader: c.t.pos.Turn()}})
	ev, err := c.next(ctx)
	if err != nil {
		return err
	}
	if ev.Long {
		_, err := c.menu(ctx, nil)
		return err
	}
	return nil
}
