package sim

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/display"
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

// TestAutoGamesLearning: the reader learns the drawn dice from every roll played, as the
// device does, and still never reads a roll wrong (seed 6 draws 2s the detector frames on one pip, which a
// head taught the table's 1s read as 1s). What it learnt is in the state directory.
func TestAutoGamesLearning(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	sum, err := Play(ctx, Config{Seed: 6, Auto: true, Games: 1, Players: 2, StateDir: dir, Out: io.Discard, Learn: true})
	var b strings.Builder
	sum.Write(&b)
	t.Log(b.String())
	if err != nil {
		t.Fatal(err)
	}
	l, err := calibration.LoadLearnt(filepath.Join(dir, calibration.LearntFile))
	if err != nil || len(l.Examples) < calibration.MaxExamples/2 {
		t.Fatalf("learnt %d dice: %v", len(l.Examples), err)
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

// honest reads the table as drawn, at once: the screens, not the reader, are under test.
type honest struct{ table *Table }

func (h honest) ReadDice(ctx context.Context, want int) (companion.DiceResult, error) {
	return companion.DiceResult{Values: append([]int(nil), h.table.LastLook().values()...), Status: companion.Read}, nil
}

// TestScreens: --screen oled draws every screen as the OLED's pixels in a
// border; --screens saves each distinct screen a game shows once, as a
// 128×64 PNG.
func TestScreens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "screens")
	var out bytes.Buffer
	_, err := Play(ctx, Config{Seed: 4, Auto: true, Games: 1, Players: 2, StateDir: t.TempDir(), Out: &out,
		Verbose: true, Lang: display.German, Screen: "oled", ScreensDir: dir,
		NewReader: func(tb *Table) (companion.DiceReader, func(), error) { return honest{tb}, func() {}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out.String(), "\r\n") {
		if strings.HasPrefix(line, "│") && utf8.RuneCountInString(line) != display.Width+2 {
			t.Fatalf("screen row %q is not %d pixels wide", line, display.Width)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	seen := map[string]bool{}
	kinds := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() != display.Width || img.Bounds().Dy() != display.Height {
			t.Fatalf("%s: %v, not a %dx%d PNG", f, err, display.Width, display.Height)
		}
		var px strings.Builder
		for y := 0; y < display.Height; y++ {
			for x := 0; x < display.Width; x++ {
				r, _, _, _ := img.At(x, y).RGBA()
				px.WriteByte(byte(r >> 15))
			}
		}
		if seen[px.String()] {
			t.Errorf("%s: the same screen was saved before", f)
		}
		seen[px.String()] = true
		kind := strings.TrimSuffix(filepath.Base(f)[5:], ".png")
		kinds[kind] = true
	}
	for _, k := range []string{"setup", "rolloff", "turn", "choices", "move", "stop", "winner"} {
		if !kinds[k] {
			t.Errorf("no %s screen among the %d saved: %v", k, len(files), kinds)
		}
	}
	_, err = Play(ctx, Config{Seed: 4, Auto: true, Games: 1, StateDir: t.TempDir(), Out: io.Discard, Screen: "lcd"})
	if err == nil || !strings.Contains(err.Error(), `--screen "lcd"`) {
		t.Errorf("unknown --screen: %v", err)
	}
}
