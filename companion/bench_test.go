package companion

import (
	"context"
	"encoding/csv"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// oledScreen draws every screen as the 128×64 OLED would (the real
// rendering cost) and passes it on to the benchmark.
type oledScreen struct{ out chan display.Screen }

func (o oledScreen) Show(s display.Screen) error {
	_, err := display.Render(s, display.English)
	o.out <- s
	return err
}

type chanButtons chan hw.Event

func (c chanButtons) Next(ctx context.Context) (hw.Event, error) {
	select {
	case e := <-c:
		return e, nil
	case <-ctx.Done():
		return hw.Event{}, ctx.Err()
	}
}

type frame struct {
	name   string
	img    image.Image
	values string // as labels.csv has them, "1 1 2 6"
}

func loadFrames(b testing.TB) []frame {
	dir := filepath.Join("testdata", "frames")
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	var out []frame
	for _, r := range rows[1:] {
		g, err := os.Open(filepath.Join(dir, r[0]))
		if err != nil {
			b.Fatal(err)
		}
		img, _, err := image.Decode(g)
		g.Close()
		if err != nil {
			b.Fatalf("%s: %v", r[0], err)
		}
		out = append(out, frame{r[0], img, r[1]})
	}
	return out
}

// BenchmarkOKToChoices measures, through the whole loop, the time from the
// OK press after a roll to the choices drawn for the OLED: settling and
// reading recorded frames with the real reader, the engine's analysis and
// the rendering. Between iterations the move is confirmed and undone
// (outside the timer).
func BenchmarkOKToChoices(b *testing.B) {
	frames := loadFrames(b)
	cur := 0
	src := camera.NewImageSource(func(ctx context.Context) (image.Image, error) { return frames[cur].img, nil })
	defer src.Close()
	r, err := dice.NewReader(dice.Opts{Expect: 4})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	reader := NewCameraReader(src, r)

	screens := make(chan display.Screen, 16)
	presses := make(chanButtons, 16)
	opts := DefaultOptions(b.TempDir())
	c, err := New(Deps{Buttons: presses, Dice: reader, Screen: oledScreen{screens}}, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	// A game on the turn screen: the first player named directly.
	if err := c.record(Action{Op: OpSetup, Setup: &GameSetup{Players: DefaultPlayers(2), Rules: opts.Rules, Lang: "en"}}); err != nil {
		b.Fatal(err)
	}
	if err := c.record(Action{Op: OpFirst, Player: 0}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	waitFor := func(kinds ...display.Kind) display.Screen {
		for s := range screens {
			if slices.Contains(kinds, s.Kind) {
				return s
			}
		}
		return display.Screen{}
	}
	waitFor(display.KindTurn)
	var took, toChoices []time.Duration
	read := map[string]int{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cur = i % len(frames)
		start := time.Now()
		presses <- hw.Event{Button: hw.OK}
		s := waitFor(display.KindChoices, display.KindDice, display.KindStatus)
		for s.Kind == display.KindStatus && s.Status == display.StatusReading {
			s = waitFor(display.KindChoices, display.KindDice, display.KindStatus)
		}
		took = append(took, time.Since(start))
		b.StopTimer()
		if s.Kind == display.KindChoices {
			toChoices = append(toChoices, took[len(took)-1])
			read[frames[cur].name]++
			presses <- hw.Event{Button: hw.OK} // confirm
			waitFor(display.KindMove)
			presses <- hw.Event{Button: hw.OK, Long: true} // menu
			waitFor(display.KindMenu)
			presses <- hw.Event{Button: hw.Next}
			waitFor(display.KindMenu)
			presses <- hw.Event{Button: hw.OK} // undo
		} else {
			presses <- hw.Event{Button: hw.Stop} // leave the unreadable roll
		}
		waitFor(display.KindTurn)
		b.StartTimer()
	}
	b.StopTimer()
	ms := func(d []time.Duration, q int) float64 {
		if len(d) == 0 {
			return 0
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)*q/100].Microseconds()) / 1000
	}
	b.ReportMetric(ms(took, 50), "median-ms")
	b.ReportMetric(ms(took, 95), "p95-ms")
	b.ReportMetric(ms(toChoices, 50), "choices-median-ms")
	if len(read) < len(frames) && b.N >= len(frames) {
		b.Logf("frames that reached the choices: %v (others were refused by the reader)", read)
	}
}
