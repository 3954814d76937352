package calibration

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// Calibration by rolls: after the measuring roll the person rolls three more times and
// confirms each; the dice read become the profile's examples, kept through Save and Load.
func TestRunLearnsFromRolls(t *testing.T) {
	cam := &scene{}
	empty, roll := emptyTray(t, boardPhoto), readPhoto(t, boardPhoto)
	defer empty.Close()
	defer roll.Close()
	// More photos of the same board and camera, from the dice package's test photos.
	rolls := []struct{ file, values string }{
		{"IMG_20191209_095701.jpg", "1 1 2 3"},
		{"IMG_20191209_095929.jpg", "2 2 3 4"},
		{"IMG_20191209_100525.jpg", "1 1 3 5"},
	}
	truth := photoValues(t, boardPhoto)
	steps := []step{
		{ask: "Take the dice out", act: func() { cam.now = empty }},
		{ask: "Is that the tray?"},
		{ask: "Roll the 4 dice", act: func() { cam.now = roll }},
	}
	steps = append(steps, retries()...)
	steps = append(steps, step{ask: "Are the dice", answer: truth}, step{ask: "Keep this calibration anyway?", answer: "y", optional: true})
	allowed := strings.Fields(truth)
	for i, r := range rolls {
		m := gocv.IMRead(filepath.Join("..", "dice", "testdata", "photos", "nell-byler", r.file), gocv.IMReadColor)
		if m.Empty() {
			t.Fatalf("cannot read %s", r.file)
		}
		defer m.Close()
		steps = append(steps,
			step{ask: "Roll " + strconv.Itoa(i+2) + " of 4", act: func() { cam.now = m }},
			step{ask: "Are the dice", answer: r.values})
		allowed = append(allowed, strings.Fields(r.values)...)
	}
	steps = append(steps, step{ask: "Fewer than 2 of", answer: "s", optional: true})
	s := &script{t: t, steps: steps}
	res, err := Run(context.Background(), cam, s, Options{Camera: "file:" + boardPhoto, Rolls: 4})
	if err != nil {
		t.Fatalf("Run: %v\nsaid:\n%s", err, strings.Join(s.said, "\n"))
	}
	defer res.Close()
	s.done()
	ex := res.Profile.Examples
	// 16 dice were rolled; a die the reader did not find, or could not tell from another, is
	// not learnt.
	if len(ex) < 8 {
		t.Errorf("learnt %d dice of 16; said:\n%s", len(ex), strings.Join(s.said, "\n"))
	}
	for _, e := range ex {
		if !slices.Contains(allowed, strconv.Itoa(e.Value)) {
			t.Errorf("learnt a %d, which no roll held", e.Value)
		}
	}
	if res.Adaptation.Examples != len(ex) || res.Adaptation.Why == "" {
		t.Errorf("adaptation %+v for %d examples", res.Adaptation, len(ex))
	}
	if !strings.Contains(strings.Join(s.said, "\n"), "Learnt "+strconv.Itoa(len(ex))+" of your dice") {
		t.Errorf("what was learnt is not said:\n%s", strings.Join(s.said, "\n"))
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := res.Profile.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(back.Examples, ex, func(a, b dice.Example) bool {
		return a.Value == b.Value && a.Weight == b.Weight && string(a.Square) == string(b.Square)
	}) {
		t.Errorf("examples changed through Save and Load")
	}
}

// Input that ends during the learning rolls ends the calibration with the reason; it used to
// skip the roll and wait for an answer that could never come.
func TestLearnRollsInputEnds(t *testing.T) {
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	roll := readPhoto(t, boardPhoto)
	defer roll.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := NewTerminal(strings.NewReader("\n"), io.Discard) // Enter for "Roll 2 of 3", then nothing
	_, err = learnRolls(ctx, &scene{now: roll}, p, Options{Dice: 4, Rolls: 3, Frames: 1}.withDefaults(), r, nil, &dice.BackgroundMaker{})
	if err == nil || !strings.Contains(err.Error(), "the input ended") {
		t.Errorf("learnRolls with the input ended: %v", err)
	}
}
