package panel

import (
	"context"
	"errors"
	"image"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// screens records what the display showed.
type screens struct{ shown []display.Screen }

func (s *screens) Show(sc display.Screen) error {
	s.shown = append(s.shown, sc)
	return nil
}

func (s *screens) last() display.Screen { return s.shown[len(s.shown)-1] }

// player presses a button for each screen it sees, as press decides; none ends the input.
type player struct {
	s     *screens
	press func(display.Screen) (hw.Event, bool)
	n     int
}

func (p *player) Next(ctx context.Context) (hw.Event, error) {
	if err := ctx.Err(); err != nil {
		return hw.Event{}, err
	}
	if p.n++; p.n > 500 {
		return hw.Event{}, errors.New("500 presses: the panel goes round in circles")
	}
	ev, ok := p.press(p.s.last())
	if !ok {
		return hw.Event{}, io.EOF
	}
	return ev, nil
}

// presses plays the events in order, whatever is shown.
func presses(s *screens, evs ...hw.Event) *player {
	return &player{s: s, press: func(display.Screen) (hw.Event, bool) {
		if len(evs) == 0 {
			return hw.Event{}, false
		}
		ev := evs[0]
		evs = evs[1:]
		return ev, true
	}}
}

var (
	ok   = hw.Event{Button: hw.OK}
	stop = hw.Event{Button: hw.Stop}
	next = hw.Event{Button: hw.Next}
	prev = hw.Event{Button: hw.Prev}
	long = hw.Event{Button: hw.OK, Long: true}
)

func TestAsk(t *testing.T) {
	four := []int{2, 3, 5, 5}
	tests := []struct {
		name   string
		q      calibration.Question
		evs    []hw.Event
		want   string
		status display.Status
		detail string
	}{
		{"empty, OK", calibration.Question{Kind: calibration.AskEmpty}, []hw.Event{ok}, "", display.StatusCalEmpty, ""},
		{"empty again, arrows ignored, STOP quits", calibration.Question{Kind: calibration.AskEmpty, Why: "the tray is not empty"},
			[]hw.Event{next, prev, stop}, "q", display.StatusCalEmpty, "the tray is not empty"},
		{"roll, OK", calibration.Question{Kind: calibration.AskRoll}, []hw.Event{ok}, "", display.StatusCalRoll, ""},
		{"tray, OK takes it", calibration.Question{Kind: calibration.AskTray}, []hw.Event{ok}, "", display.StatusCalTray, ""},
		{"keep, OK keeps", calibration.Question{Kind: calibration.AskKeep, Def: "n"}, []hw.Event{ok}, "y", display.StatusCalKeep, ""},
		{"keep, STOP quits", calibration.Question{Kind: calibration.AskKeep, Def: "n"}, []hw.Event{stop}, "q", display.StatusCalKeep, ""},
		{"learn, OK rolled", calibration.Question{Kind: calibration.AskLearn, Roll: 3, Of: 6}, []hw.Event{ok}, "", display.StatusCalLearn, "3/6"},
		{"learn, STOP enough", calibration.Question{Kind: calibration.AskLearn, Roll: 7, Of: 6}, []hw.Event{stop}, "s", display.StatusCalLearn, "7/6"},
		{"learn, long quits", calibration.Question{Kind: calibration.AskLearn, Roll: 2, Of: 6}, []hw.Event{long}, "q", display.StatusCalLearn, "2/6"},
		// All four read: one OK confirms them.
		{"values read", calibration.Question{Kind: calibration.AskValues, Dice: four}, []hw.Event{ok}, "2 3 5 5", display.Status(-1), ""},
		// STOP goes back to the last die; Next makes its 5 a 6; OK goes on to "use these dice".
		{"values corrected", calibration.Question{Kind: calibration.AskValues, Dice: four}, []hw.Event{stop, next, ok, ok}, "2 3 5 6", display.Status(-1), ""},
		// The second die was not read: editing starts there; Prev from 1 wraps to 6.
		{"values unread", calibration.Question{Kind: calibration.AskValues, Dice: []int{4, 0, 1, 6}}, []hw.Event{prev, ok, ok, ok, ok}, "4 6 1 6", display.Status(-1), ""},
		// Dice not read start at the reader's guesses: OK keeps the 4, Next makes the 2 a 3.
		{"values guessed", calibration.Question{Kind: calibration.AskValues, Dice: []int{3, 6, 0, 0}, Lean: []int{0, 0, 4, 2}},
			[]hw.Event{ok, next, ok, ok}, "3 6 4 3", display.Status(-1), ""},
		{"values, STOP at the first die stays", calibration.Question{Kind: calibration.AskValues, Dice: []int{0, 0, 0, 0}},
			[]hw.Event{stop, next, ok, ok, ok, ok, ok}, "2 1 1 1", display.Status(-1), ""},
		{"values, long quits", calibration.Question{Kind: calibration.AskValues, Dice: four}, []hw.Event{long}, "q", display.Status(-1), ""},
	}
	for _, tt := range tests {
		s := &screens{}
		p := New(presses(s, tt.evs...), s, io.Discard)
		got, err := p.Ask(context.Background(), tt.q)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
			continue
		}
		first := s.shown[0]
		if tt.status >= 0 && (first.Kind != display.KindStatus || first.Status != tt.status || first.Detail != tt.detail) {
			t.Errorf("%s: showed %v status %d %q, want status %d %q", tt.name, first.Kind, first.Status, first.Detail, tt.status, tt.detail)
		}
		if tt.status < 0 && first.Kind != display.KindCorrect {
			t.Errorf("%s: showed %v, want the dice to correct", tt.name, first.Kind)
		}
		// The guesses are marked until changed; editing starts on the first.
		if tt.name == "values guessed" {
			if first.Selected != 2 || first.Unsure != [4]bool{2: true, 3: true} || s.last().Unsure != [4]bool{2: true} {
				t.Errorf("%s: first at %d marked %v, last marked %v", tt.name, first.Selected, first.Unsure, s.last().Unsure)
			}
		}
	}
}

// The tray found, shown on the camera's picture, and its edges moved on the buttons: 640×480,
// so a press moves an edge 16 pixels and a side stays at least 60.
func TestAskTray(t *testing.T) {
	q := calibration.Question{Kind: calibration.AskTray, Frame: image.Pt(640, 480), Box: image.Rect(50, 25, 595, 455),
		Picture: image.NewGray(image.Rect(0, 0, 160, 120))}
	rep := func(ev hw.Event, n int) []hw.Event { return slices.Repeat([]hw.Event{ev}, n) }
	tests := []struct {
		name string
		evs  []hw.Event
		want string
	}{
		{"OK takes it", []hw.Event{ok}, ""},
		{"STOP quits", []hw.Event{stop}, "q"},
		{"long quits while moving", []hw.Event{next, next, long}, "q"},
		// ▶ starts on the left edge; it moves right, the top up, the bottom down.
		{"every edge", []hw.Event{next, next, ok, prev, ok, ok, next, ok, ok}, "66,9,595,471"},
		{"the frame's edge stops it", append(append([]hw.Event{prev}, rep(prev, 10)...), ok, ok, ok, ok, ok), "0,25,595,455"},
		{"nor past the right", append(append([]hw.Event{next, ok, ok}, rep(next, 5)...), ok, ok, ok), "50,25,640,455"},
		{"a side stays 60", append(append([]hw.Event{next, ok, ok, ok}, rep(prev, 40)...), ok, ok), "50,25,595,85"},
		// STOP goes back an edge (keeping what was moved), and from the left edge to the whole box.
		{"STOP goes back", []hw.Event{next, ok, next, stop, stop, ok}, "50,41,595,455"},
		{"moved, then back where found", []hw.Event{next, next, prev, ok, ok, ok, ok, ok}, "50,25,595,455"},
	}
	for _, tt := range tests {
		s := &screens{}
		got, err := New(presses(s, tt.evs...), s, io.Discard).Ask(context.Background(), q)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
			continue
		}
		if first := s.shown[0]; first.Kind != display.KindTray || first.Selected != display.EdgeNone || !first.Tray.Found || first.Tray.Box != q.Box {
			t.Errorf("%s: first screen %v selected %d %+v, want the tray found", tt.name, first.Kind, first.Selected, first.Tray)
		}
		for _, sc := range s.shown {
			if _, err := display.Render(sc, display.English); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
		}
	}
	// Without a box in the frame, the status screen asks as before.
	for _, box := range []image.Rectangle{image.Rect(50, 25, 700, 455), {}} {
		s := &screens{}
		bad := q
		bad.Box = box
		if got, err := New(presses(s, ok), s, io.Discard).Ask(context.Background(), bad); err != nil || got != "" || s.shown[0].Kind != display.KindStatus {
			t.Errorf("box %v in a 640×480 frame: %q, %v, showed %v", box, got, err, s.shown[0].Kind)
		}
	}
}

func TestAskErrors(t *testing.T) {
	s := &screens{}
	p := New(presses(s), s, io.Discard)
	if _, err := p.Ask(context.Background(), calibration.Question{Kind: calibration.AskEmpty}); !errors.Is(err, io.EOF) {
		t.Errorf("buttons that end: %v, want their error", err)
	}
	if _, err := p.Ask(context.Background(), calibration.Question{Kind: calibration.AskValues, Dice: []int{1, 2}}); err == nil || !strings.Contains(err.Error(), "calibrate other counts with the keyboard") {
		t.Errorf("two dice: %v", err)
	}
	if _, err := p.Ask(context.Background(), calibration.Question{Kind: calibration.Asking(99)}); err == nil {
		t.Error("an unknown question answered")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(presses(s, ok), s, io.Discard).Ask(ctx, calibration.Question{Kind: calibration.AskRoll}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A whole calibration on the buttons: a player who presses OK on every screen and sets the dice
// to the photo's true values calibrates the rig from a real photo (the "empty" tray still
// holding its dice the first time, as a person in a hurry leaves it).
func TestCalibrateOnButtons(t *testing.T) {
	photo, err := os.ReadFile(filepath.Join("..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames := t.TempDir()
	for _, f := range []string{"1-tray.jpg", "2-roll.jpg"} {
		if err := os.WriteFile(filepath.Join(frames, f), photo, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	src, err := camera.Open(ctx, "dir:"+frames+"?loop", camera.Controls{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	truth := [4]int{1, 3, 3, 6}
	s := &screens{}
	var found image.Rectangle // the tray found; the player moves its left edge one press right
	pl := &player{s: s, press: func(sc display.Screen) (hw.Event, bool) {
		if sc.Kind == display.KindTray && sc.Tray.Found && sc.Selected == display.EdgeNone {
			found = sc.Tray.Box
			return next, true
		}
		if sc.Kind == display.KindTray && sc.Selected == display.EdgeLeft && sc.Tray.Box.Min.X == found.Min.X {
			return next, true
		}
		if sc.Kind == display.KindCorrect && sc.Selected < 4 && sc.Dice[sc.Selected] != truth[sc.Selected] {
			return next, true
		}
		if sc.Kind == display.KindCorrect && sc.Selected == 4 && sc.Dice != truth {
			return stop, true // back to the dice
		}
		return ok, true
	}}
	var said strings.Builder
	p := New(pl, s, &said)
	res, err := calibration.Run(ctx, src, p, calibration.Options{Dice: 4, Rolls: 1, Frames: 1})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, said.String())
	}
	defer res.Close()
	if !slices.Equal(res.Profile.Dice.Values, truth[:]) {
		t.Errorf("profile values %v, want %v", res.Profile.Dice.Values, truth)
	}
	step := res.Profile.Tray.Frame.X / 40
	if tr := res.Profile.Tray; found.Empty() || tr.Found != found || tr.Box != image.Rect(found.Min.X+step, found.Min.Y, found.Max.X, found.Max.Y) {
		t.Errorf("tray %v (found %v), want the box found %v with its left edge %d px right", tr.Box, tr.Found, found, step)
	}
	// The screens in order, repeats left out: the tray (twice: dice were left in it), the tray
	// found, the roll, the dice.
	var seen []display.Screen
	for _, sc := range s.shown {
		if len(seen) == 0 || seen[len(seen)-1].Kind != sc.Kind || seen[len(seen)-1].Status != sc.Status || sc.Detail != seen[len(seen)-1].Detail {
			seen = append(seen, sc)
		}
	}
	want := []struct {
		k      display.Kind
		s      display.Status
		detail string
	}{
		{display.KindStatus, display.StatusCalEmpty, ""},
		{display.KindStatus, display.StatusCalEmpty, "the tray is not empty: 4 dice seen in it; take them out"},
		{display.KindTray, 0, ""},
		{display.KindStatus, display.StatusCalRoll, ""},
		{display.KindCorrect, 0, ""},
	}
	if len(seen) < len(want) {
		t.Fatalf("screens %+v", seen)
	}
	for i, w := range want {
		if sc := seen[i]; sc.Kind != w.k || sc.Kind == display.KindStatus && (sc.Status != w.s || sc.Detail != w.detail) {
			t.Errorf("screen %d: %v status %d %q, want %v status %d %q", i+1, sc.Kind, sc.Status, sc.Detail, w.k, w.s, w.detail)
		}
	}
	if !strings.Contains(said.String(), "Tray:") || !strings.Contains(said.String(), "the tray is not empty") {
		t.Errorf("what calibration said was not passed on:\n%s", said.String())
	}
	if err := p.Done(); err != nil || s.last().Status != display.StatusCalDone {
		t.Errorf("Done: %v, showed %+v", err, s.last())
	}
}
