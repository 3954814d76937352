package engine_test

import (
	"fmt"

	"github.com/cantstop/cantstop/engine"
)

// The seeds' first example: roll 1-5-4-6 on an empty board.
func ExampleLegal() {
	p, _ := engine.NewPosition(2, engine.DefaultRules(), 0)
	for _, c := range engine.Legal(p, engine.Dice{1, 5, 4, 6}) {
		fmt.Println(c.Sums, c.Runners)
	}
	// Output:
	// [6 10] 6@1,10@1
	// [5 11] 5@1,11@1
	// [7 9] 7@1,9@1
}

// Why a roll busts, as data a display can translate.
func ExampleExplain() {
	p, _ := engine.ParsePosition("2:0::3@1,6@11,8@1")
	a := engine.Explain(p, engine.Dice{2, 4, 5, 5})
	fmt.Println("bust:", a.Bust())
	for _, r := range a.Refusals {
		fmt.Println("pairing", r.Pairing, r.Sums, "sum", r.Sum, r.Reason)
	}
	// Output:
	// bust: true
	// pairing 0 [6 10] sum 6 top
	// pairing 0 [6 10] sum 10 no_runner
	// pairing 1 [7 9] sum 7 no_runner
	// pairing 1 [7 9] sum 9 no_runner
	// pairing 2 [7 9] sum 7 no_runner
	// pairing 2 [7 9] sum 9 no_runner
}

func ExampleParsePosition() {
	p, err := engine.ParsePosition("2:1:7@4,12@3/7@5:2@1,7@6:skip")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Turn(), p.Piece(1, 7), p.Runner(7), p.ClaimedBy(12), p.RunnersLeft(), p.Rules().SkipOccupied)
	_, err = engine.ParsePosition("2:0::13@1")
	fmt.Println(err)
	// Output:
	// 1 5 6 0 1 true
	// position "2:0::13@1": runners: column 13 does not exist: columns are 2-12
}

func ExampleBustOdds() {
	p, _ := engine.ParsePosition("2:0::6@1,7@1,8@3")
	o := engine.BustOdds(p)
	fmt.Printf("%d of %d rolls bust (%.1f%%)\n", o.Bust, engine.Rolls, 100*o.P())
	// Output: 104 of 1296 rolls bust (8.0%)
}

func ExamplePosition_Stop() {
	p, _ := engine.ParsePosition("2:0:2@1/4@5,6@3:4@7,9@2")
	q, res, _ := p.Stop()
	fmt.Println(q)
	fmt.Println("claimed", res.Claimed, "removed", res.Removed, "winner", res.Winner)
	// Output:
	// 2:1:2@1,4@7,9@2/6@3
	// claimed [4] removed [{1 4 5}] winner -1
}

func ExampleGame() {
	g, _ := engine.NewGame(engine.Setup{Players: 2, Rules: engine.DefaultRules(), First: 0})
	a, _ := g.Roll(engine.Dice{1, 5, 4, 6})
	_ = g.Choose(a.Choices[0])
	_, _ = g.Stop()
	fmt.Println(g.Position())
	_ = g.Undo()
	fmt.Println(g.Position())
	for _, act := range g.Record().Actions {
		fmt.Println(act.Kind)
	}
	// Output:
	// 2:1:6@1,10@1/
	// 2:0::6@1,10@1
	// roll
	// choose
}

func ExampleRollOff() {
	r, _ := engine.NewRollOff(3)
	_ = r.Throw(0, [2]int{6, 5})
	_ = r.Throw(1, [2]int{2, 3})
	_ = r.Throw(2, [2]int{5, 6})
	fmt.Println("again:", r.Next())
	_ = r.Throw(0, [2]int{1, 2})
	_ = r.Throw(2, [2]int{4, 4})
	fmt.Println("first:", r.First())
	// Output:
	// again: [0 2]
	// first: 2
}

// With four players needing five columns, the 11 columns can all be claimed
// with nobody owning five: the stop claiming the last one ends the game, and
// the player owning the most columns wins (a tie for the most is a draw).
func ExamplePosition_Over() {
	p, _ := engine.ParsePosition("4:1:2@3,3@5,4@7,5@9/6@11,7@13/8@11,9@9/10@7,11@5:12@3:w5")
	q, res, _ := p.Stop()
	fmt.Println(q.Over(), q.Winner(), q.Draw(), res.Winner)
	// Output: true 0 false 0
}
