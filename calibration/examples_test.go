package calibration

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

func example(v int, w float64) dice.Example {
	return dice.Example{Value: v, Weight: w, Square: make([]byte, dice.SquareBytes)}
}

// The store keeps the newest MaxExamples, dropping plain confirmations before corrections.
func TestAddExamples(t *testing.T) {
	var store []dice.Example
	store = AddExamples(store, []dice.Example{example(6, dice.CorrectedWeight)})
	for i := 0; i < MaxExamples+10; i++ {
		store = AddExamples(store, []dice.Example{example(1+i%5, 1)})
	}
	if len(store) != MaxExamples {
		t.Fatalf("%d examples kept, want %d", len(store), MaxExamples)
	}
	if store[0].Value != 6 || store[0].Weight != dice.CorrectedWeight {
		t.Errorf("the correction was dropped: first kept %+v", store[0])
	}
	if last := store[len(store)-1]; last.Value != 1+(MaxExamples+9)%5 {
		t.Errorf("newest kept %+v", last)
	}
}

// A profile with bad examples is refused, naming each; a full one is under 1 MB.
func TestProfileExamples(t *testing.T) {
	p := sampleProfile()
	p.Examples = []dice.Example{example(3, 1), {Value: 9, Weight: 1, Square: make([]byte, dice.SquareBytes)}, {Value: 2, Weight: 1, Square: make([]byte, 10)}}
	err := p.Validate()
	for _, want := range []string{"field examples[1]: value 9: want 0 (no die) to 6", "field examples[2]: square of 10 bytes: want 4800 (40x40 BGR)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validate: %v, want %q", err, want)
		}
	}
	p.Examples = nil
	for i := 0; i < MaxExamples; i++ {
		p.Examples = append(p.Examples, example(1+i%6, 1))
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("a profile with %d examples: %d bytes", MaxExamples, fi.Size())
	back, err := Load(path)
	if err != nil || len(back.Examples) != MaxExamples {
		t.Fatalf("a full profile of %d bytes: %d examples, %v", fi.Size(), len(back.Examples), err)
	}
	if fi.Size() > 1<<20 {
		t.Errorf("a full profile is %d bytes, over 1 MB", fi.Size())
	}
	p.Examples = append(p.Examples, example(1, 1))
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "129 examples: want at most 128") {
		t.Errorf("too many examples: %v", err)
	}
}

func TestLoadLearnt(t *testing.T) {
	dir := t.TempDir()
	missing, err := LoadLearnt(filepath.Join(dir, "none.json"))
	if err != nil || len(missing.Examples) != 0 || missing.Version != LearntVersion {
		t.Errorf("missing file: %+v, %v", missing, err)
	}
	path := filepath.Join(dir, LearntFile)
	l := Learnt{Examples: []dice.Example{example(2, 1), example(0, 1)}}
	if err := l.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadLearnt(path)
	if err != nil || len(back.Examples) != 2 || back.Examples[0].Value != 2 || len(back.Examples[1].Square) != dice.SquareBytes {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"cut short", `{"version": 1, "examples": [{"value": 2,`, "line 1"},
		{"another version", `{"version": 2, "examples": []}`, "version 2, this cantstop reads 1"},
		{"wrong size", `{"version": 1, "examples": [{"value": 2, "weight": 1, "square": "AAAA"}]}`, "examples[0]: square of 3 bytes"},
		{"impossible value", `{"version": 1, "examples": [{"value": -1, "weight": 1, "square": ""}]}`, "examples[0]: value -1"},
		{"broken background", `{"version": 1, "examples": [], "background": {"frame": [640, 480], "png": "AAAA"}}`, "background picture"},
	} {
		os.WriteFile(path, []byte(tc.data), 0o644)
		if _, err := LoadLearnt(path); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want it to name the file and say %q", tc.name, err, tc.want)
		}
	}
}

// The Learner keeps every confirmed die in its file and adapts the reader once enough came in;
// Close waits for the queued work.
func TestLearner(t *testing.T) {
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The dice of 29 photos, confirmed eight at a time (fewer than the queue holds: in play
	// rolls come seconds apart).
	ex := nellExamples(t, r, 29)
	path := filepath.Join(t.TempDir(), LearntFile)
	l := NewLearner(path, nil, Learnt{Version: LearntVersion}, r, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for i := 0; i < len(ex); i += 8 {
		l.Add(dice.Confirmation{Examples: ex[i:min(i+8, len(ex))]})
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := LoadLearnt(path)
	if err != nil || len(got.Examples) != len(ex) || len(l.Examples()) != len(ex) {
		t.Fatalf("%d examples saved, %d kept, of %d: %v", len(got.Examples), len(l.Examples()), len(ex), err)
	}
	// Every AdaptEvery dice the Learner adapted the reader: with these, the rig's head reads.
	if !r.Adapted() {
		t.Error("the Learner did not adapt the reader")
	}
	start := time.Now()
	l.Add(dice.Confirmation{Examples: ex[:1]}) // after Close: dropped, never blocks
	if time.Since(start) > time.Second {
		t.Error("Add after Close blocked")
	}
}

// AddWait loses nothing when rolls come quicker than the Learner adapts: one die a roll, 40 rolls
// at once, more than the queue holds while it adapts every AdaptEvery dice. After Close it adds
// nothing and says so; with its context ended it adds nothing either.
func TestLearnerAddWait(t *testing.T) {
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ex := nellExamples(t, r, 29)
	if len(ex) < 40 {
		t.Fatalf("%d dice labelled, want 40", len(ex))
	}
	ex = ex[:40]
	l := NewLearner(filepath.Join(t.TempDir(), LearntFile), nil, Learnt{Version: LearntVersion}, r,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()
	for i := range ex {
		if err := l.AddWait(ctx, dice.Confirmation{Examples: ex[i : i+1]}); err != nil {
			t.Fatal(err)
		}
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if err := l.AddWait(ended, dice.Confirmation{Examples: ex[:1]}); !errors.Is(err, context.Canceled) {
		t.Errorf("AddWait with its context ended: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(l.Examples()); got != len(ex) {
		t.Errorf("%d of %d dice kept", got, len(ex))
	}
	if err := l.AddWait(ctx, dice.Confirmation{Examples: ex[:1]}); !errors.Is(err, ErrClosed) {
		t.Errorf("AddWait after Close: %v", err)
	}
}

// nellExamples labels the dice of the first n nell-byler test photos (name order, at most six
// dice) with their values, as confirmed rolls.
func nellExamples(t *testing.T, r *dice.Reader, n int) []dice.Example {
	t.Helper()
	dir := filepath.Join("..", "dice", "testdata", "photos", "nell-byler")
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:]
	slices.SortFunc(rows, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	var ex []dice.Example
	for _, row := range rows {
		vals := strings.Fields(row[1])
		if len(vals) > 6 {
			continue
		}
		if n--; n < 0 {
			break
		}
		var v []int
		for _, s := range vals {
			v = append(v, int(s[0]-'0'))
		}
		m := gocv.IMRead(filepath.Join(dir, row[0]), gocv.IMReadColor)
		ex = append(ex, dice.Label(r.Read(m), v)...)
		m.Close()
	}
	return ex
}

// When the players correct the rig's head twice within WatchRolls rolls, the Learner drops the
// head and what it learnt, and says so: the rig changed.
func TestLearnerDropsAChangedRig(t *testing.T) {
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	base := nellExamples(t, r, 29)
	var logs strings.Builder
	path := filepath.Join(t.TempDir(), LearntFile)
	learnt := Learnt{Version: LearntVersion, Examples: base[:10]}
	if a, err := r.Adapt(append(slices.Clone(base), learnt.Examples...)); err != nil || !a.Used {
		t.Fatalf("the rig's head does not read to begin with: %+v, %v", a, err)
	}
	l := NewLearner(path, base, learnt, r, slog.New(slog.NewTextHandler(&logs, nil)))
	l.Add(dice.Confirmation{HeadRead: 3, HeadMisread: 1})
	l.Add(dice.Confirmation{HeadRead: 3})
	l.Add(dice.Confirmation{HeadRead: 2, HeadMisread: 1})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if len(l.Examples()) != 0 || r.Adapted() {
		t.Errorf("after two misreads: %d examples kept, adapted %v", len(l.Examples()), r.Adapted())
	}
	if !strings.Contains(logs.String(), "the camera, the light or the dice changed?") {
		t.Errorf("not said:\n%s", logs.String())
	}
	if got, err := LoadLearnt(path); err != nil || len(got.Examples) != 0 || !got.DropBase {
		t.Errorf("store on disk: %d examples, profile's dropped %v, %v", len(got.Examples), got.DropBase, err)
	}
}

// The background the reader learns in play is kept in the Learnt file as soon as it is made,
// or at Close when no roll came after it, and is used again at the next start.
func TestLearnerKeepsTheBackground(t *testing.T) {
	dir := filepath.Join("..", "dice", "testdata", "photos", "nell-byler")
	photos := []string{"IMG_20191208_111304.jpg", "IMG_20191208_111457.jpg", "IMG_20191208_111816.jpg"}
	learn := func(r *dice.Reader) *dice.Background { // three scenes of one session, settled as in play
		t.Helper()
		if err := r.LearnBackground(len(photos), nil); err != nil {
			t.Fatal(err)
		}
		for _, f := range photos {
			src, err := camera.Open(context.Background(), "file:"+filepath.Join(dir, f), camera.Controls{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = dice.Settle(context.Background(), src, r, dice.SettleOpts{})
			src.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		bg := r.LearntBackground()
		if bg == nil {
			t.Fatal("no background learnt from three scenes")
		}
		return bg
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, roll := range []bool{true, false} {
		r, err := dice.NewReader(dice.Opts{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		bg := learn(r)
		path := filepath.Join(t.TempDir(), LearntFile)
		l := NewLearner(path, nil, Learnt{Version: LearntVersion}, r, quiet)
		if roll { // a roll played after the background was made: saved with it, before Close
			l.Add(dice.Confirmation{Examples: nellExamples(t, r, 1)})
			waitFor(t, func() bool { got, err := LoadLearnt(path); return err == nil && got.Background != nil })
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := LoadLearnt(path)
		if err != nil || got.Background == nil || got.Background.Frame != bg.Frame || got.Background.KnownShare() != bg.KnownShare() {
			t.Fatalf("roll %v: background saved %+v, %v; want the one learnt", roll, got.Background != nil, err)
		}
		// The next start: a reader given it uses it at once.
		next, err := dice.NewReader(dice.Opts{})
		if err != nil {
			t.Fatal(err)
		}
		defer next.Close()
		if err := next.LearnBackground(dice.BackgroundScenes, got.Background); err != nil || next.LearntBackground() != got.Background {
			t.Errorf("roll %v: the kept background not used at the next start: %v", roll, err)
		}
	}
}

// waitFor polls cond until it holds, for at most 10 s (the Learner works in its own goroutine).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("not done within 10 s")
}
