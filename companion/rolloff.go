package companion

import (
	"fmt"
	"slices"

	"github.com/cantstop/cantstop/engine"
)

// rollOff is engine.RollOff as the companion plays it: the screen asks the
// contenders in seat order, the first player may instead be named directly
// (OpFirst), and the screen shows each seat's last pair and who is tied.
// Throwing replaces eng rather than changing it, so copies of a rollOff
// (and of the table holding it) stay independent.
type rollOff struct {
	eng        *engine.RollOff // nil before setup; never changed once set
	first      int             // the engine's First or the player named directly; -1 until known
	round      int             // index in eng.Throws() where the current round began
	shown      [][2]int        // per seat, the last pair thrown (for the screen)
	contenders []int           // seats in the current (or deciding) round, in seat order
}

func newRollOff(n int) (rollOff, error) {
	eng, err := engine.NewRollOff(n)
	if err != nil {
		return rollOff{}, err
	}
	return rollOff{eng: eng, first: -1, shown: make([][2]int, n), contenders: eng.Next()}, nil
}

// roller is the next contender to throw, -1 when decided.
func (r *rollOff) roller() int {
	if r.first >= 0 || r.eng == nil {
		return -1
	}
	if next := r.eng.Next(); len(next) > 0 {
		return next[0]
	}
	return -1
}

// add records p's pair; the engine decides the first player or starts a
// tie-break round among the tied.
func (r *rollOff) add(p int, pair [2]int) error {
	if p < 0 || p != r.roller() {
		return fmt.Errorf("player %d rolled out of turn (expected %d)", p+1, r.roller()+1)
	}
	throws := append(r.eng.Throws(), engine.Throw{Player: p, Dice: pair})
	eng, err := engine.NewRollOff(len(r.shown))
	if err != nil {
		return err
	}
	n := rollOff{eng: eng, shown: make([][2]int, len(r.shown))}
	for i, t := range throws {
		ends := len(eng.Next()) == 1 // this throw completes its round
		if err := eng.Throw(t.Player, t.Dice); err != nil {
			return err
		}
		if ends && eng.First() < 0 {
			n.round = i + 1
		}
		n.shown[t.Player] = t.Dice
	}
	for _, t := range throws[n.round:] {
		n.contenders = append(n.contenders, t.Player)
	}
	n.contenders = append(n.contenders, eng.Next()...)
	slices.Sort(n.contenders)
	n.first = eng.First()
	*r = n
	return nil
}

// leader is the highest thrower of the current round so far (the earlier
// seat on a tie), or the first player once known; -1 = none.
func (r *rollOff) leader() int {
	if r.first >= 0 || r.eng == nil {
		return r.first
	}
	best, who := 0, -1
	for _, t := range r.eng.Throws()[r.round:] {
		if s := t.Dice[0] + t.Dice[1]; s > best {
			best, who = s, t.Player
		}
	}
	return who
}
