package engine

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// readOdds reads an odds table: columns, then success_of_1296.
func readOdds(t *testing.T, name string, ncols int) [][]int {
	f, err := os.Open(filepath.Join("testdata", "odds", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || len(rows[0]) != ncols+2 || rows[0][ncols] != "success_of_1296" {
		t.Fatalf("%s: unexpected header %v", name, rows[0])
	}
	var out [][]int
	for _, r := range rows[1:] {
		var vals []int
		for _, s := range r[:ncols+1] {
			v, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			vals = append(vals, v)
		}
		out = append(out, vals)
	}
	return out
}

// TestOddsTables checks BustOdds on turn states that reduce to the tables'
// column sets, and ColumnOdds, against odds/*.csv.
func TestOddsTables(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int
		rows int
	}{{"singles.csv", 1, 11}, {"pairs.csv", 2, 55}, {"triples.csv", 3, 165}} {
		rows := readOdds(t, tc.file, tc.n)
		if len(rows) != tc.rows {
			t.Fatalf("%s: %d rows, want %d", tc.file, len(rows), tc.rows)
		}
		for _, r := range rows {
			cols, want := r[:tc.n], r[tc.n]
			if got := ColumnOdds(cols...); got.Success != want || got.Bust != Rolls-want {
				t.Errorf("ColumnOdds%v = %+v, want success %d", cols, got, want)
			}
			p := stateFor(t, cols)
			if got := BustOdds(p); got.Success != want {
				t.Errorf("%s: BustOdds %+v, want success %d (%s %v)", p, got, want, tc.file, cols)
			}
		}
	}
}

// stateFor is a turn state whose usable sums are exactly cols: a runner low
// in each, and the remaining runners on the top of other columns.
func stateFor(t *testing.T, cols []int) Position {
	var r Runners
	for _, c := range cols {
		r[c] = 1
	}
	for c := MaxColumn; r.Count() < MaxRunners; c-- {
		if r[c] == 0 {
			r[c] = Height(c)
		}
	}
	p, err := ParsePosition(fmt.Sprintf("2:0::%s", r))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBustOddsAgainstLegal counts busts by calling Legal on all 1296 rolls
// of random positions: the fast table must agree with the rules.
func TestBustOddsAgainstLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		p := randomPosition(t, rng)
		bust := 0
		for r := 0; r < Rolls; r++ {
			if len(Legal(p, Dice{r/216 + 1, r/36%6 + 1, r/6%6 + 1, r%6 + 1})) == 0 {
				bust++
			}
		}
		if got := BustOdds(p); got.Bust != bust || got.Success+got.Bust != Rolls {
			t.Fatalf("%s: BustOdds %+v, Legal busts on %d rolls", p, got, bust)
		}
	}
	won, _ := ParsePosition("2:1:2@3,3@5,4@7/")
	if got := BustOdds(won); got.Bust != Rolls {
		t.Errorf("finished game: %+v", got)
	}
	if p := ColumnOdds(); p.Success != 0 {
		t.Errorf("no columns: %+v", p)
	}
}
