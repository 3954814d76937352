package sim

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/companion"
)

// TestAutoGames plays complete games on the simulated table through the real
// dice reader: every game ends with a winner and no reading disagrees with
// the dice drawn.
func TestAutoGames(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sum, err := Play(ctx, Config{Seed: 5, Auto: true, Games: 2, Players: 3, StateDir: t.TempDir(), Out: io.Discard})
	var b strings.Builder
	sum.Write(&b)
	t.Log(b.String())
	if err != nil {
		t.Fatal(err)
	}
	g := sum.Games
	if g.Games != 2 || g.Wins[0]+g.Wins[1]+g.Wins[2] != 2 || g.Turns < 10 || sum.Reads.Read < 20 {
		t.Fatalf("summary: %+v", sum)
	}
}

// lying reads the table right except on one roll, where it reports a 6 for
// a die that is not.
type lying struct {
	table *Table
	roll  int
}

func (l *lying) ReadDice(ctx context.Context, want int) (companion.DiceResult, error) {
	v := append([]int(nil), l.table.LastLook().values()...)
	if l.table.Rolls() == l.roll && v[0] != 6 {
		v[0] = 6
	} else if l.table.Rolls() == l.roll {
		v[0] = 5
	}
	return companion.DiceResult{Values: v, Status: companion.Read}, nil
}

// TestAutoFailsOnMisread: one reading that differs from the dice drawn makes
// the run fail, naming the seed and the roll to reproduce it.
func TestAutoFailsOnMisread(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := Play(ctx, Config{Seed: 9, Auto: true, Games: 1, Players: 2, StateDir: t.TempDir(), Out: io.Discard,
		NewReader: func(tb *Table) (companion.DiceReader, func(), error) { return &lying{tb, 7}, func() {}, nil }})
	if err == nil || !strings.Contains(err.Error(), "seed 9 roll 7") {
		t.Fatalf("Play = %v, want a disagreement at seed 9 roll 7", err)
	}
	if len(sum.Reads.Wrong) != 1 || sum.Games.Games != 1 {
		t.Fatalf("summary: %+v", sum)
	}
}
