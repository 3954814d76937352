package engine

import (
	"math/rand/v2"
	"testing"
)

// benchCases are positions and rolls of every kind: a first roll, a roll
// with one runner left, a crowded board under options, a bust.
func benchCases(b *testing.B) ([]Position, []Dice) {
	var ps []Position
	for _, s := range []string{"2:0", "2:0::6@1,10@1", "4:1:7@4,12@3/7@5,6@2/7@6/3@2:2@1,7@7:skip,forced", "2:0::3@1,6@11,8@1"} {
		p, err := ParsePosition(s)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps, []Dice{{1, 5, 4, 6}, {2, 4, 3, 5}, {3, 4, 3, 4}, {2, 4, 5, 5}}
}

// BenchmarkLegalInto measures each case alone, then the mix.
func BenchmarkLegalInto(b *testing.B) {
	ps, ds := benchCases(b)
	names := []string{"first_roll", "one_runner_left", "crowded_skip_forced", "bust"}
	for k := range ps {
		b.Run(names[k], func(b *testing.B) {
			var dst []Choice
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst = LegalInto(dst, ps[k], ds[k])
			}
		})
	}
	b.Run("mix", func(b *testing.B) {
		var dst []Choice
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			dst = LegalInto(dst, ps[i%4], ds[i%4])
		}
	})
}

func BenchmarkLegal(b *testing.B) {
	ps, ds := benchCases(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Legal(ps[i%4], ds[i%4])
	}
}

func BenchmarkExplain(b *testing.B) {
	ps, ds := benchCases(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Explain(ps[i%4], ds[i%4])
	}
}

func BenchmarkBustOdds(b *testing.B) {
	ps, _ := benchCases(b)
	BustOdds(ps[0]) // the table is built once, outside the loop
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		BustOdds(ps[i%4])
	}
}

// BenchmarkRandomGame plays complete two-player games with random dice,
// random choices and a stop after three successful rolls.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var dst []Choice
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, _ := NewPosition(2, DefaultRules(), 0)
		rolls := 0
		for !p.Over() {
			actions++
			if rolls == 3 {
				p, _, _ = p.Stop()
				rolls = 0
				continue
			}
			dst = LegalInto(dst, p, randomDice(rng))
			if len(dst) == 0 {
				p, rolls = p.Bust(), 0
				continue
			}
			p, _ = p.Update(dst[rng.IntN(len(dst))])
			rolls++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// BenchmarkRandomGameRecorded plays the same kind of games through Game:
// Explain for every roll, the record and the undo history.
func BenchmarkRandomGameRecorded(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g, _ := NewGame(Setup{Players: 2, Rules: DefaultRules()})
		rolls := 0
		for !g.Position().Over() {
			if rolls == 3 {
				_, _ = g.Stop()
				rolls = 0
				continue
			}
			a, _ := g.Roll(randomDice(rng))
			if a.Bust() {
				rolls = 0
				continue
			}
			_ = g.Choose(a.Choices[rng.IntN(len(a.Choices))])
			rolls++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
