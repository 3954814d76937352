package calibration

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/dicebench"
	"gocv.io/x/gocv"
)

// scene is a camera looking at whatever the script last put in front of it.
type scene struct{ now gocv.Mat }

func (s *scene) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	if s.now.Empty() {
		return gocv.Mat{}, errors.New("nothing in view")
	}
	return s.now.Clone(), nil
}

func (s *scene) Close() error { return nil }

// step is one expected question and the script's answer; act changes the scene
// before the answer is given (the person empties the tray, rolls the dice).
type step struct {
	ask      string // part of the question
	answer   string // "" takes the default
	act      func()
	optional bool // skipped if another question comes
}

// script is a Prompter that checks the questions asked and answers them.
type script struct {
	t     *testing.T
	steps []step
	said  []string
	asked []string
}

func (s *script) Say(msg string) { s.said = append(s.said, msg) }

func (s *script) Ask(ctx context.Context, qq Question) (string, error) {
	q, def := qq.Text, qq.Def
	s.asked = append(s.asked, fmt.Sprintf("%s [%s]", q, def))
	if len(s.steps) == 0 {
		s.t.Fatalf("unexpected question %q (default %q); said before:\n%s", q, def, strings.Join(s.said, "\n"))
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	for st.optional && !strings.Contains(q, st.ask) && len(s.steps) > 0 {
		st, s.steps = s.steps[0], s.steps[1:]
	}
	if !strings.Contains(q, st.ask) {
		s.t.Fatalf("asked %q, want a question about %q; said before:\n%s", q, st.ask, strings.Join(s.said, "\n"))
	}
	if st.act != nil {
		st.act()
	}
	if st.answer == "" {
		return def, nil
	}
	return st.answer, nil
}

func (s *script) done() {
	for _, st := range s.steps {
		if !st.optional {
			s.t.Errorf("question never asked: %q", st.ask)
		}
	}
}

// calibrate runs the procedure on a photo: its synthetic empty tray, then the
// roll itself, answering with the photo's true values.
func calibrate(t *testing.T, photo string, answers ...step) (Result, *script) {
	t.Helper()
	return calibrateScaled(t, photo, 1, answers...)
}

// calibrateScaled is calibrate on the photo and its empty tray resized by scale, as a
// camera mounted higher or at a lower resolution would see them.
func calibrateScaled(t *testing.T, photo string, scale float64, answers ...step) (Result, *script) {
	t.Helper()
	empty := resized(emptyTray(t, photo), scale)
	roll := resized(readPhoto(t, photo), scale)
	t.Cleanup(func() { empty.Close(); roll.Close() })
	cam := &scene{}
	steps := []step{
		{ask: "Take the dice out", act: func() { cam.now = empty }},
		{ask: "Is that the tray?"},
		{ask: "Roll the 4 dice", act: func() { cam.now = roll }},
	}
	s := &script{t: t, steps: append(steps, answers...)}
	res, err := Run(context.Background(), cam, s, Options{
		Camera: "file:" + photo,
		Rolls:  1,
		Now:    func() time.Time { return time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		t.Fatalf("Run: %v\nsaid:\n%s", err, strings.Join(s.said, "\n"))
	}
	t.Cleanup(func() { res.Picture.Close() })
	s.done()
	return res, s
}

// retries answers the re-roll prompts a reader that cannot read every die of a
// photo gives (the same photo comes back: a real person would re-roll).
func retries() []step {
	return []step{{ask: "Try again", optional: true}, {ask: "Try again", optional: true}}
}

func TestRunOnTrayPhoto(t *testing.T) {
	// This photo has a small purple die and a busy frame around the tray:
	// whether the reader reads all four is the reader's business; here the
	// procedure must measure, confirm, and say truthfully whether the saved
	// options read the roll.
	truth := photoValues(t, trayPhoto)
	res, s := calibrate(t, trayPhoto, append(retries(),
		step{ask: "Are the dice", answer: truth},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)
	p := res.Profile
	checkVerified(t, trayPhoto, res)
	// The tray is the felt inside the black frame: it holds every die and
	// leaves out the white board around it (the photo's bottom strip).
	for _, b := range photoBoxes(t, trayPhoto) {
		c := image.Pt((b.r.Min.X+b.r.Max.X)/2, (b.r.Min.Y+b.r.Max.Y)/2)
		if !contains(p.Tray.Outline, c) {
			t.Errorf("die at %v is outside the tray outline %v", c, p.Tray.Outline)
		}
	}
	if p.Tray.Box.Max.Y > 560 || p.Tray.Box.Min.Y < 60 || p.Tray.Share > 0.7 {
		t.Errorf("tray box %v (%.0f%% of the view) reaches beyond the tray's frame", p.Tray.Box, 100*p.Tray.Share)
	}
	if !strings.HasPrefix(describeLab(p.Tray.Lab), "grey") {
		t.Errorf("tray colour %s, want grey felt", describeLab(p.Tray.Lab))
	}
	if p.Reader.Expect != 4 || !p.Reader.Tray.In(image.Rect(0, 0, 640, 640)) || p.Reader.Tray.Empty() {
		t.Errorf("reader options not calibrated: %+v", p.Reader)
	}
	checkSizes(t, trayPhoto, p.Dice)
	if !strings.Contains(strings.Join(s.asked, "\n"), "Are the dice ") {
		t.Errorf("the values read were not offered for confirmation:\n%s", strings.Join(s.asked, "\n"))
	}
}

func TestRunOnBoardPhoto(t *testing.T) {
	truth := photoValues(t, boardPhoto)
	res, s := calibrate(t, boardPhoto, append(retries(),
		step{ask: "Are the dice", answer: truth},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)
	p := res.Profile
	checkVerified(t, boardPhoto, res)
	// The tray's box is kept unless the reader misread the roll within it, and the notes
	// then say so.
	if p.Reader.Expect != 4 || p.Reader.Tray.Empty() && !strings.Contains(strings.Join(res.Notes, "\n"), "searches the whole frame") {
		t.Errorf("reader options not calibrated: %+v; notes %q", p.Reader, res.Notes)
	}
	if p.Tray.Share < 0.8 {
		t.Errorf("the board fills the view, tray found covers %.0f%%", 100*p.Tray.Share)
	}
	checkSizes(t, boardPhoto, p.Dice)
	// The empty tray and the roll round its dice make the background: all of the view is seen.
	if b := p.Background; b == nil || b.Frame != p.Tray.Frame || b.KnownShare() < 0.99 {
		t.Errorf("background %+v, want one of the whole %v frame", b, p.Tray.Frame)
	}
	if !strings.Contains(strings.Join(s.said, "\n"), "pixels wide.") {
		t.Errorf("measurements not said:\n%s", strings.Join(s.said, "\n"))
	}
}

// checkVerified checks that Result.Verified tells the truth: the profile's
// reader options read the photo's true values, or the notes say they do not.
func checkVerified(t *testing.T, photo string, res Result) {
	t.Helper()
	truth := photoValues(t, photo)
	if got := join(res.Profile.Dice.Values); got != truth {
		t.Errorf("profile values %s, want the confirmed %s", got, truth)
	}
	roll := readPhoto(t, photo)
	defer roll.Close()
	r, err := dice.NewReader(res.Profile.Reader)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	again := r.Read(roll)
	if verified := again.Status == dice.StatusRead && join(again.Values()) == truth; verified != res.Verified {
		t.Errorf("Verified = %v, but the profile's options read %v %v (truth %s)", res.Verified, again.Status, again.Values(), truth)
	}
	if join(res.Reading.Values()) != join(again.Values()) {
		t.Errorf("Result.Reading %v is not what the profile's options read (%v)", res.Reading.Values(), again.Values())
	}
	if !res.Verified && !strings.Contains(strings.Join(res.Notes, " "), "not "+truth) {
		t.Errorf("unverified calibration without a note saying so: %v", res.Notes)
	}
}

// checkSizes compares the measured die size with the photographer's boxes
// (drawn around whole dice, as the reader's boxes are).
func checkSizes(t *testing.T, photo string, d Dice) {
	t.Helper()
	var sides []float64
	for _, b := range photoBoxes(t, photo) {
		sides = append(sides, float64(b.r.Dx()+b.r.Dy())/2)
	}
	want := median(sides)
	if d.SidePx < 0.6*want || d.SidePx > 1.15*want {
		t.Errorf("die side %.1f px, boxes say about %.1f", d.SidePx, want)
	}
}

func TestRunCorrections(t *testing.T) {
	truth := photoValues(t, boardPhoto)
	// The person mistypes the values, then corrects them; the die size is measured, not asked.
	res, s := calibrate(t, boardPhoto, append(retries(),
		step{ask: "Are the dice", answer: "1 3 3 9"},
		step{ask: "Are the dice", answer: truth},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)
	p := res.Profile
	if join(p.Dice.Values) != truth {
		t.Errorf("correction not kept: values %v", p.Dice.Values)
	}
	said := strings.Join(s.said, "\n")
	for _, want := range []string{"dice must be 4 values 1-6"} {
		if !strings.Contains(said, want) {
			t.Errorf("bad answer not explained (%q):\n%s", want, said)
		}
	}
	checkVerified(t, boardPhoto, res)
	checkSizes(t, boardPhoto, res.Profile.Dice) // the corrected values are sane too
}

func TestRunMisreadAskBeforeKeeping(t *testing.T) {
	// The person insists on values the photo does not show: no options read
	// them, so Run warns and asks whether to keep the calibration.
	cam := &scene{}
	empty, roll := emptyTray(t, boardPhoto), readPhoto(t, boardPhoto)
	defer empty.Close()
	defer roll.Close()
	s := &script{t: t, steps: append([]step{
		{ask: "Take the dice out", act: func() { cam.now = empty }},
		{ask: "Is that the tray?"},
		{ask: "Roll the 4 dice", act: func() { cam.now = roll }}}, append(retries(),
		step{ask: "Are the dice", answer: "2 2 2 2"},
		step{ask: "Keep this calibration anyway?", answer: "n"})...)}
	_, err := Run(context.Background(), cam, s, Options{Rolls: 1})
	if !errors.Is(err, ErrCancelled) || !strings.Contains(err.Error(), "not read right") {
		t.Errorf("declined calibration: %v", err)
	}
	s.done()
	if !strings.Contains(strings.Join(s.said, "\n"), "not 2 2 2 2") {
		t.Errorf("the misread was not explained:\n%s", strings.Join(s.said, "\n"))
	}
}

func TestRunNoTray(t *testing.T) {
	// The camera sees a noisy, uneven scene: no tray, the person stops.
	noise := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8UC3)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
	cam := &scene{now: noise}
	s := &script{t: t, steps: []step{{ask: "Take the dice out"}, {ask: "Try again", answer: "q"}}}
	_, err := Run(context.Background(), cam, s, Options{Rolls: 1})
	if !errors.Is(err, ErrCancelled) {
		t.Errorf("stopping after a failed look: %v", err)
	}
	if !strings.Contains(strings.Join(s.said, "\n"), "find tray") {
		t.Errorf("why the tray was not found is not said:\n%s", strings.Join(s.said, "\n"))
	}
}

func TestPictureShowsTrayAndDice(t *testing.T) {
	res, _ := calibrate(t, trayPhoto, append(retries(),
		step{ask: "Are the dice", answer: photoValues(t, trayPhoto)},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)
	roll := readPhoto(t, trayPhoto)
	defer roll.Close()
	if res.Picture.Cols() != roll.Cols() || res.Picture.Rows() != roll.Rows() {
		t.Fatalf("picture %dx%d", res.Picture.Cols(), res.Picture.Rows())
	}
	// Drawing changed the pixels on the tray outline and at each die.
	changed := func(p image.Point) bool {
		a, b := res.Picture.GetVecbAt(p.Y, p.X), roll.GetVecbAt(p.Y, p.X)
		return math.Abs(float64(a[0])-float64(b[0]))+math.Abs(float64(a[2])-float64(b[2])) > 60
	}
	o := res.Profile.Tray.Outline
	mid := image.Pt((o[0].X+o[1].X)/2, (o[0].Y+o[1].Y)/2)
	hit := false
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			hit = hit || changed(mid.Add(image.Pt(dx, dy)))
		}
	}
	if !hit {
		t.Errorf("no tray outline drawn near %v", mid)
	}
	for _, d := range res.Reading.Dice {
		if !changed(d.Box.Min) && !changed(d.Box.Min.Add(image.Pt(1, 1))) && !changed(d.Box.Max.Sub(image.Pt(1, 1))) {
			t.Errorf("die box %v not drawn", d.Box)
		}
	}
	if dir := os.Getenv("CANTSTOP_PICTURES"); dir != "" { // to look at it
		gocv.IMWrite(filepath.Join(dir, "calibration-"+trayPhoto+".png"), res.Picture)
	}
}

// resized returns m resized by scale with the bench's scaleK variation (m itself at 1),
// closing m otherwise.
func resized(m gocv.Mat, scale float64) gocv.Mat {
	if scale == 1 {
		return m
	}
	v, err := dicebench.VariationNamed(fmt.Sprintf("scale%g", scale))
	if err != nil {
		panic(err)
	}
	defer m.Close()
	return v(m)
}

func TestRunWarnsOfSmallDice(t *testing.T) {
	truth := photoValues(t, boardPhoto)
	for _, tc := range []struct {
		scale float64
		small bool
	}{{1, false}, {0.6, false}, {0.4, true}} { // boxes about 47, 28 and 19 px
		t.Run(fmt.Sprint(tc.scale), func(t *testing.T) {
			res, s := calibrateScaled(t, boardPhoto, tc.scale, append(retries(),
				step{ask: "Are the dice", answer: truth, optional: true},
				step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)
			side := res.Profile.Dice.SidePx
			warned := strings.Contains(strings.Join(res.Notes, "\n"), "pixels wide in the picture")
			said := strings.Contains(strings.Join(s.said, "\n"), "Warning: the dice are")
			if warned != tc.small || said != tc.small {
				t.Errorf("dice %.1f px wide at scale %g: warned %v (said %v), want %v; notes %q", side, tc.scale, warned, said, tc.small, res.Notes)
			}
			if tc.small != (side < MinSidePx) {
				t.Errorf("dice measured %.1f px wide at scale %g: the photo no longer tests this", side, tc.scale)
			}
		})
	}
}

// TestRunWarnsOfOverexposure: the white board of boardPhoto, brightened 1.4 times, clips
// white; calibration says so and what to change. As taken, it does not.
func TestRunWarnsOfOverexposure(t *testing.T) {
	truth := photoValues(t, boardPhoto)
	for _, vary := range []string{"", "bright1.4"} {
		t.Run(cmp.Or(vary, "as taken"), func(t *testing.T) {
			empty, roll := emptyTray(t, boardPhoto), readPhoto(t, boardPhoto)
			if vary != "" {
				v, err := dicebench.VariationNamed(vary)
				if err != nil {
					t.Fatal(err)
				}
				e, r := v(empty), v(roll)
				empty.Close()
				roll.Close()
				empty, roll = e, r
			}
			defer empty.Close()
			defer roll.Close()
			cam := &scene{}
			s := &script{t: t, steps: append([]step{
				{ask: "Take the dice out", act: func() { cam.now = empty }},
				{ask: "Is that the tray?"},
				{ask: "Roll the 4 dice", act: func() { cam.now = roll }},
			}, append(retries(),
				step{ask: "Are the dice", answer: truth, optional: true},
				step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)}
			res, err := Run(context.Background(), cam, s, Options{Camera: "file:" + boardPhoto, Rolls: 1})
			if err == nil {
				res.Picture.Close()
			}
			notes, said := strings.Join(res.Notes, "\n"), strings.Join(s.said, "\n")
			warned := strings.Contains(notes, "overexposed") && strings.Contains(said, "Warning: the tray is overexposed")
			if warned != (vary != "") || err != nil && vary == "" {
				t.Errorf("%q: warned %v (err %v); notes %q; said:\n%s", vary, warned, err, res.Notes, said)
			}
		})
	}
}

// TestRunEmptyTrayHoldsDice: the first look at the "empty" tray sees the roll
// still in it; calibration says how many dice it saw and asks again, and goes
// on once the tray is empty.
func TestRunEmptyTrayHoldsDice(t *testing.T) {
	truth := photoValues(t, boardPhoto)
	empty, roll := emptyTray(t, boardPhoto), readPhoto(t, boardPhoto)
	defer empty.Close()
	defer roll.Close()
	cam := &scene{}
	s := &script{t: t, steps: append([]step{
		{ask: "Take the dice out", act: func() { cam.now = roll }},
		{ask: "Try again: take the dice out", act: func() { cam.now = empty }},
		{ask: "Is that the tray?"},
		{ask: "Roll the 4 dice", act: func() { cam.now = roll }},
	}, append(retries(),
		step{ask: "Are the dice", answer: truth},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)}
	res, err := Run(context.Background(), cam, s, Options{Camera: "file:" + boardPhoto, Rolls: 1})
	if err != nil {
		t.Fatalf("Run: %v\nsaid:\n%s", err, strings.Join(s.said, "\n"))
	}
	defer res.Picture.Close()
	s.done()
	said := strings.Join(s.said, "\n")
	if !strings.Contains(said, "That did not work: the tray is not empty: ") || !strings.Contains(said, "dice seen in it; take them out") {
		t.Errorf("dice in the empty tray not reported:\n%s", said)
	}
	if strings.Contains(strings.Join(res.Notes, "\n"), "empty tray still looked") {
		t.Errorf("the empty tray, once empty, still noted: %q", res.Notes)
	}
}

// asker answers every question with the same four values and keeps the questions.
type asker struct{ asked []Question }

func (a *asker) Ask(ctx context.Context, q Question) (string, error) {
	a.asked = append(a.asked, q)
	return "6 4 2 4", nil
}
func (a *asker) Say(string) {}

// The dice to confirm carry, for each die not read, the value the reader leaned to: a display
// starts the correction there.
func TestAskValuesLean(t *testing.T) {
	lean := func(v int) [7]float64 { var p [7]float64; p[v] = 0.6; return p }
	rd := dice.Reading{Status: dice.StatusUnreadable, Dice: []dice.Die{
		{Value: 6, Probs: lean(6)}, {Value: 0, Probs: lean(4)}, {Value: 2, Probs: lean(2)}, {Value: 0, Probs: lean(3)}}}
	a := &asker{}
	got, err := askValues(context.Background(), a, 4, rd)
	if err != nil || !slices.Equal(got, []int{2, 4, 4, 6}) {
		t.Fatalf("answered %v, %v", got, err)
	}
	q := a.asked[0]
	if !slices.Equal(q.Dice, []int{2, 6, 0, 0}) || !slices.Equal(q.Lean, []int{0, 0, 3, 4}) {
		t.Errorf("asked dice %v leaning %v, want [2 6 0 0] and [0 0 3 4]", q.Dice, q.Lean)
	}
}
