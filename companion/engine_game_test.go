package companion

import (
	"math/rand/v2"
	"testing"

	"github.com/cantstop/cantstop/engine"
)

// TestTableMatchesEngineGame plays random games, undos included, both on the
// companion's table (journal replay) and on engine.Game (Roll/Choose/Stop/
// Undo): after every action both stand on the same position.
func TestTableMatchesEngineGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for game := 0; game < 30; game++ {
		var tb table
		var g *engine.Game
		var undo [][]int // per effective action: engine actions it took (for Undo)
		for step := 0; step < 400 && !(tb.started && tb.pos.Over()); step++ {
			a := randomAction(rng, &tb)
			if a.Op == OpRollOff {
				a = Action{Op: OpFirst, Player: rng.IntN(len(tb.setup.Players))}
			}
			if err := tb.apply(a); err != nil {
				t.Fatalf("game %d step %d: %v", game, step, err)
			}
			switch a.Op {
			case OpSetup:
				continue
			case OpFirst:
				var err error
				g, err = engine.NewGame(engine.Setup{Players: len(tb.setup.Players), Rules: tb.setup.Rules, First: a.Player})
				if err != nil {
					t.Fatal(err)
				}
				undo = nil
			case OpMove:
				an, err := g.Roll(a.Dice)
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, c := range an.Choices {
					if c.Runners == *a.Runner {
						if err := g.Choose(c); err != nil {
							t.Fatal(err)
						}
						found = true
					}
				}
				if !found {
					t.Fatalf("game %d: engine.Game has no choice leading to %v", game, a.Runner.Columns())
				}
				undo = append(undo, []int{2})
			case OpBust:
				if an, err := g.Roll(a.Dice); err != nil || !an.Bust() {
					t.Fatalf("game %d: engine.Game roll %v: bust=%v %v", game, a.Dice, an.Bust(), err)
				}
				undo = append(undo, []int{1})
			case OpStop:
				if _, err := g.Stop(); err != nil {
					t.Fatal(err)
				}
				undo = append(undo, []int{1})
			case OpUndo:
				if len(undo) == 0 { // undid the first-player choice: the table is back in the roll-off
					g = nil
					if tb.started {
						t.Fatalf("game %d: table still started after undoing the first player", game)
					}
					continue
				}
				for i := 0; i < undo[len(undo)-1][0]; i++ {
					if err := g.Undo(); err != nil {
						t.Fatal(err)
					}
				}
				undo = undo[:len(undo)-1]
			}
			if g != nil && tb.started && g.Position() != tb.pos {
				t.Fatalf("game %d step %d (%s): table and engine.Game differ:\n%v\n%v", game, step, a.Op, tb.pos, g.Position())
			}
		}
	}
}
