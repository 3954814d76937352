package calibration

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// Options configures Run. Zero values take the defaults given.
type Options struct {
	Dice     int             // dice in play; default 4 (Can't Stop)
	Camera   string          // source name, recorded in the profile
	Controls camera.Controls // camera controls in use, recorded in the profile
	Reader   dice.Opts       // options to start from (Model: other networks); Expect and Tray are calibrated
	Frames   int             // frames read per look, the last one kept (a live camera catches up); default 3
	Attempts int             // tries at each step before giving up; default 3
	// Rolls is how many confirmed rolls the reader learns the dice from, the measuring roll
	// among them; default DefaultRolls, 1 for the measuring roll alone. More are asked for,
	// up to twice as many, while a value has fewer than dice.MinPerValue examples.
	Rolls int
	Now   func() time.Time // default time.Now
}

func (o Options) withDefaults() Options {
	if o.Dice <= 0 {
		o.Dice = 4
	}
	if o.Frames <= 0 {
		o.Frames = 3
	}
	if o.Attempts <= 0 {
		o.Attempts = 3
	}
	if o.Rolls <= 0 {
		o.Rolls = DefaultRolls
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Result is what a calibration produced.
type Result struct {
	Profile  Profile
	Reading  dice.Reading // the roll as the profile's reader options read it
	Looks    []DieLook    // each measured die
	Picture  gocv.Mat     // the roll with tray outline, dice and values drawn; the caller closes it
	Verified bool         // the profile's options read the confirmed values
	// Adaptation is what the reader made of the rolls' dice (Profile.Examples).
	Adaptation dice.Adaptation
	Notes      []string // what was adjusted, and why
}

// DefaultRolls is how many rolls calibration learns the dice from.
const DefaultRolls = 6

// ErrCancelled is returned when the person calibrating stops.
var ErrCancelled = errors.New("calibration cancelled")

// Run is the guided calibration: it looks at the empty tray, then at a roll
// of the dice, measures them, asks the person to confirm or correct what it
// read, and checks that the resulting reader options read that roll right
// before returning the profile (which the caller saves).
func Run(ctx context.Context, src camera.Source, p Prompter, o Options) (Result, error) {
	o = o.withDefaults()
	res := Result{Picture: gocv.NewMat()}
	fail := func(err error) (Result, error) {
		res.Picture.Close()
		return Result{}, err
	}

	// 1. The empty tray.
	steps := 3
	if o.Rolls > 1 {
		steps = 4
	}
	p.Say(fmt.Sprintf("Step 1 of %d: the empty tray.", steps))
	var tray Tray
	var view image.Image // the empty tray, small, for a display to show with the tray found
	clipped := 0.0       // the share of the tray clipped white, when that is overexposed
	plain, err := dice.NewReader(dice.Opts{Model: o.Reader.Model})
	if err != nil {
		return fail(err)
	}
	defer plain.Close()
	occupied := 0 // looks at a tray that still held dice
	// The empty tray, and the confirmed rolls round their dice, make the rig's background.
	var bgm dice.BackgroundMaker
	err = retry(ctx, p, o.Attempts, AskEmpty, "Take the dice out of the tray, then press Enter", func() error {
		frame, err := look(ctx, src, o.Frames)
		if err != nil {
			return err
		}
		defer frame.Close()
		if tray, err = FindTray(frame); err != nil {
			return err
		}
		if view, err = thumbnail(frame, viewSide); err != nil {
			return err
		}
		in := frame.Region(trayRect(tray))
		defer in.Close()
		if share, over := camera.Overexposed(in); over {
			clipped = share
		}
		// Dice left in the "empty" tray would be taken for the tray: say so once and look
		// again; a second time it is kept with a note (the reader may see a die in a stain).
		seen := plain.Read(in)
		if n := len(seen.Dice); n > 0 { // read or not: a die is a die
			if occupied++; occupied == 1 {
				return fmt.Errorf("the tray is not empty: %s seen in it; take them out", plural(n, "die", "dice"))
			}
			res.Notes = append(res.Notes, fmt.Sprintf("the empty tray still looked as if it held %s: if it did, calibrate again", plural(n, "die", "dice")))
		}
		bgm = dice.BackgroundMaker{}
		boxes := seen.Boxes() // in the tray's region: moved to the frame's pixels
		for i := range boxes {
			boxes[i] = boxes[i].Add(trayRect(tray).Min)
		}
		return bgm.Add(frame, boxes)
	})
	if err != nil {
		return fail(err)
	}
	p.Say(fmt.Sprintf("Tray: %d×%d pixels at (%d,%d), %.0f%% of the view, colour %s.",
		tray.Box.Dx(), tray.Box.Dy(), tray.Box.Min.X, tray.Box.Min.Y, 100*tray.Share, describeLab(tray.Lab)))
	if clipped > 0 {
		// The reader cannot undo it: a white die on a tray clipped white has no edge.
		msg := fmt.Sprintf("the tray is overexposed (%.0f%% of it clipped white), so white dice will not stand out from it: lower the camera's exposure (--exposure, or --shutter and --gain for a Pi camera) and calibrate again", 100*clipped)
		res.Notes = append(res.Notes, msg)
		p.Say("Warning: " + msg + ".")
	}
	if err := askTray(ctx, p, &tray, view); err != nil {
		return fail(err)
	}

	// 2. A roll.
	p.Say(fmt.Sprintf("Step 2 of %d: roll the %d dice.", steps, o.Dice))
	cands, err := tryOpts(o.Reader, tray, o.Dice)
	if err != nil {
		return fail(err)
	}
	defer func() {
		for _, c := range cands {
			c.r.Close()
		}
	}()
	var frame gocv.Mat
	var rd dice.Reading
	err = retry(ctx, p, o.Attempts, AskRoll, fmt.Sprintf("Roll the %d dice into the tray; press Enter when they have stopped", o.Dice), func() error {
		f, err := look(ctx, src, o.Frames)
		if err != nil {
			return err
		}
		frame.Close()
		frame = f
		rd = bestReading(frame, cands[0].r, cands[len(cands)-1].r)
		if rd.Status != dice.StatusRead {
			return fmt.Errorf("the roll was not read (%s: %s)", rd.Status, rd.Why)
		}
		return nil
	})
	defer frame.Close()
	if err != nil && (frame.Empty() || len(rd.Values()) == 0) {
		return fail(err)
	}
	if err != nil {
		res.Notes = append(res.Notes, "measured from a roll that was not fully read: "+err.Error())
	}

	// 3. Measure, confirm, correct.
	p.Say(fmt.Sprintf("Step 3 of %d: check what was read.", steps))
	dd, looks, err := Measure(image.Pt(frame.Cols(), frame.Rows()), rd)
	if err != nil {
		return fail(fmt.Errorf("%w: roll again with the dice flat and apart", err))
	}
	dd.Count = o.Dice
	res.Looks = looks
	p.Say(fmt.Sprintf("Dice %s, measured %.0f pixels wide.", join(rd.Values()), dd.SidePx))
	if dd.Values, err = askValues(ctx, p, o.Dice, rd); err != nil {
		return fail(err)
	}
	if len(rd.Dice) == len(dd.Values) { // every die boxed: the rest is the background
		_ = bgm.Add(frame, rd.Boxes()) // the size is the empty tray's: same camera
	}

	if problem, fix := dd.Small(); problem != "" {
		msg := problem + ": " + fix
		res.Notes = append(res.Notes, msg)
		p.Say("Warning: " + msg + ".")
	}

	// The reader options these values give, checked on the roll: if they do
	// not read the confirmed values, fall back to the whole frame.
	chosen := -1
	for i, c := range cands {
		r := c.r.Read(frame)
		if r.Status == dice.StatusRead && slices.Equal(r.Values(), dd.Values) {
			chosen, rd = i, r
			break
		}
	}
	res.Verified = chosen >= 0
	if chosen < 0 {
		chosen = 0
		rd = cands[0].r.Read(frame)
		msg := fmt.Sprintf("even calibrated, the reader reads this roll as %s (%s), not %s: improve the light (even, no glare), focus, or the camera's height, and look at the picture",
			join(rd.Values()), rd.Status, join(dd.Values))
		res.Notes = append(res.Notes, msg)
		p.Say("Warning: " + msg + ".")
		ans, err := p.Ask(ctx, Question{Kind: AskKeep, Text: "Keep this calibration anyway? (y/N)", Def: "n"})
		if err != nil {
			return fail(err)
		}
		if !yes(ans) {
			return fail(fmt.Errorf("%w: the roll was not read right; run `cantstop calibrate` again after fixing the light or camera", ErrCancelled))
		}
	} else if chosen > 0 {
		res.Notes = append(res.Notes, cands[chosen].note)
	}

	// 4. More rolls, each confirmed: the reader learns the game's own dice.
	ex := dice.Label(rd, dd.Values)
	if o.Rolls > 1 {
		if ex, err = learnRolls(ctx, src, p, o, cands[chosen].r, ex, &bgm); err != nil {
			return fail(err)
		}
	}
	if res.Adaptation, err = cands[chosen].r.Adapt(ex); err != nil {
		return fail(fmt.Errorf("learn the dice: %w", err))
	}
	p.Say(fmt.Sprintf("Learnt %d of your dice: %s.", len(ex), res.Adaptation.Why))
	if !res.Adaptation.Used {
		res.Notes = append(res.Notes, "the reader reads with its general network: "+res.Adaptation.Why+"; it goes on learning your dice in play")
	}

	bg, err := bgm.Make()
	if err == nil {
		err = cands[chosen].r.SetBackground(bg)
	}
	if err != nil {
		return fail(fmt.Errorf("the empty tray: %w", err))
	}
	p.Say(fmt.Sprintf("Background: the empty tray and %s, %.0f%% of the view seen without a die.",
		plural(bgm.Frames()-1, "roll", "rolls"), 100*bg.KnownShare()))

	res.Reading = rd
	res.Profile = Profile{
		Version:    Version,
		Created:    o.Now().UTC().Truncate(time.Second),
		Camera:     o.Camera,
		Controls:   o.Controls,
		Tray:       tray,
		Dice:       dd,
		Reader:     cands[chosen].r.Opts(),
		Examples:   ex,
		Background: bg,
	}
	if err := res.Profile.Validate(); err != nil {
		return fail(fmt.Errorf("calibration gave an unusable profile: %w", err))
	}
	res.Picture.Close()
	res.Picture = Picture(frame, tray, rd)
	return res, nil
}

// learnRolls asks for the rest of o.Rolls rolls, and more while a value has too few examples,
// reads each with r, has the person confirm or correct it and adds its dice to ex. "s" stops
// early; a roll whose values are not given right is skipped.
// A roll whose dice were all found also goes into the background.
func learnRolls(ctx context.Context, src camera.Source, p Prompter, o Options, r *dice.Reader, ex []dice.Example, bgm *dice.BackgroundMaker) ([]dice.Example, error) {
	p.Say(fmt.Sprintf("Step 4 of 4: %d more rolls, so that the reader learns your dice.", o.Rolls-1))
	for i := 2; i <= 2*o.Rolls; i++ {
		few := tooFew(ex)
		if i > o.Rolls && few == "" {
			break
		}
		q := fmt.Sprintf("Roll %d of %d: roll the %d dice, press Enter when they have stopped (s to stop learning)", i, o.Rolls, o.Dice)
		if i > o.Rolls {
			q = fmt.Sprintf("Fewer than %d of %s seen yet: roll again, press Enter when they have stopped (s to stop learning)", dice.MinPerValue, few)
		}
		ans, err := p.Ask(ctx, Question{Kind: AskLearn, Text: q, Roll: i, Of: o.Rolls})
		switch {
		case err != nil:
			return nil, err
		case ans == "q":
			return nil, ErrCancelled
		case ans == "s":
			return ex, nil
		}
		frame, err := look(ctx, src, o.Frames)
		if err != nil {
			return nil, err
		}
		rd := r.Read(frame)
		vals, err := askValues(ctx, p, o.Dice, rd)
		if err == nil && len(rd.Dice) == len(vals) {
			_ = bgm.Add(frame, rd.Boxes()) // the size is the empty tray's: same camera
		}
		frame.Close()
		if errors.Is(err, errBadValues) {
			p.Say("Skipped that roll: " + err.Error() + ".")
			continue
		}
		if err != nil {
			return nil, err
		}
		got := dice.Label(rd, vals)
		ex = AddExamples(ex, got)
		if len(got) < len(vals) {
			p.Say(fmt.Sprintf("Learnt %d of those dice (the others were not found, or not told apart): %d in all.", len(got), len(ex)))
		}
	}
	return ex, nil
}

// tooFew lists the values 1-6 with fewer than dice.MinPerValue examples, as "2, 5", or "".
func tooFew(ex []dice.Example) string {
	few := dice.TooFew(ex)
	s := make([]string, len(few))
	for i, v := range few {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}

type candidate struct {
	r    *dice.Reader
	note string // why this one was chosen over the ones before it
}

// tryOpts makes the readers to try, from the most calibrated to the least: the dice count
// and the tray's box, then the count alone over the whole frame. The caller closes them.
func tryOpts(base dice.Opts, tray Tray, n int) ([]candidate, error) {
	bare := base
	bare.Expect = n
	bare.Tray = image.Rectangle{}
	inTray := bare
	inTray.Tray = trayRect(tray)
	var out []candidate
	for _, c := range []struct {
		o    dice.Opts
		note string
	}{
		{inTray, ""},
		{bare, "with the tray limits the reader misread the roll, so it searches the whole frame"},
	} {
		r, err := dice.NewReader(c.o)
		if err != nil {
			for _, o := range out {
				o.r.Close()
			}
			return nil, err
		}
		out = append(out, candidate{r, c.note})
	}
	return out, nil
}

// trayRect is the tray's box grown by 1% each way.
func trayRect(t Tray) image.Rectangle {
	g := max(t.Frame.X, t.Frame.Y) / 100
	return t.Box.Inset(-g).Intersect(image.Rectangle{Max: t.Frame})
}

// bestReading reads with the calibrated reader and the plain one, and keeps
// the better: read over not read, then more dice with values.
func bestReading(frame gocv.Mat, calibrated, plain *dice.Reader) dice.Reading {
	a := calibrated.Read(frame)
	if a.Status == dice.StatusRead {
		return a
	}
	b := plain.Read(frame)
	if b.Status == dice.StatusRead || len(b.Values()) > len(a.Values()) {
		return b
	}
	return a
}

// look reads n frames and keeps the last: a live camera may hold older ones.
func look(ctx context.Context, src camera.Source, n int) (gocv.Mat, error) {
	var last gocv.Mat
	for i := 0; i < n; i++ {
		m, err := src.Frame(ctx)
		if err != nil {
			last.Close()
			return gocv.Mat{}, fmt.Errorf("read a frame: %w", err)
		}
		last.Close()
		last = m
	}
	return last, nil
}

// retry asks for the action (AskEmpty or AskRoll), runs step, and on failure explains and asks again.
func retry(ctx context.Context, p Prompter, attempts int, kind Asking, ask string, step func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		q := Question{Kind: kind, Text: ask}
		if i > 0 {
			p.Say("That did not work: " + err.Error() + ".")
			q.Text = "Try again: " + strings.ToLower(ask[:1]) + ask[1:] + " (or q to stop)"
			q.Why = err.Error()
		}
		ans, aerr := p.Ask(ctx, q)
		if aerr != nil {
			return aerr
		}
		if ans == "q" {
			return ErrCancelled
		}
		if err = step(); err == nil || errors.Is(err, context.Canceled) {
			return err
		}
	}
	return fmt.Errorf("gave up after %d tries: %w", attempts, err)
}

// viewSide is the longer side of the empty tray's picture in a tray question: twice what a
// 128×64 display shows of it.
const viewSide = 160

// askTray lets the person replace the tray outline by a box; view is the empty tray, shown
// with the box found by a Prompter with a display.
func askTray(ctx context.Context, p Prompter, t *Tray, view image.Image) error {
	for i := 0; ; i++ {
		ans, err := p.Ask(ctx, Question{Kind: AskTray, Text: "Is that the tray? Enter to accept, or type its box as x0,y0,x1,y1 in pixels (q to stop)",
			Picture: view, Frame: t.Frame, Box: t.Box})
		if err != nil || ans == "" {
			return err
		}
		if ans == "q" {
			return ErrCancelled
		}
		var r image.Rectangle
		_, serr := fmt.Sscanf(strings.ReplaceAll(ans, " ", ""), "%d,%d,%d,%d", &r.Min.X, &r.Min.Y, &r.Max.X, &r.Max.Y)
		r = r.Canon()
		if serr == nil && !r.Empty() && r.In(image.Rectangle{Max: t.Frame}) {
			t.Box, t.Outline = r, []image.Point{r.Min, {r.Max.X, r.Min.Y}, r.Max, {r.Min.X, r.Max.Y}}
			t.Share = float64(r.Dx()*r.Dy()) / float64(t.Frame.X*t.Frame.Y)
			return nil
		}
		if i == 2 {
			return fmt.Errorf("tray box %q: want x0,y0,x1,y1 inside the %dx%d frame", ans, t.Frame.X, t.Frame.Y)
		}
		p.Say(fmt.Sprintf("%q is not a box inside the %dx%d frame, e.g. 40,30,600,450.", ans, t.Frame.X, t.Frame.Y))
	}
}

// askValues confirms the values read or takes the right ones.
// errBadValues: the person did not give the dice's values right, three times.
var errBadValues = errors.New("no valid values given")

func askValues(ctx context.Context, p Prompter, n int, rd dice.Reading) ([]int, error) {
	read := rd.Values()
	def := join(read)
	guess, _ := rd.Guess()
	lean := padded(guess, n)
	for i := range min(len(read), n) {
		lean[i] = 0
	}
	for i := 0; ; i++ {
		ans, err := p.Ask(ctx, Question{Kind: AskValues, Text: fmt.Sprintf("Are the dice %s? Enter if so, or type the %d values you see (q to stop)", def, n),
			Def: def, Dice: padded(read, n), Lean: lean})
		if err != nil {
			return nil, err
		}
		if ans == "q" {
			return nil, ErrCancelled
		}
		vals, perr := parseValues(ans, n)
		if perr == nil {
			return vals, nil
		}
		if i == 2 {
			return nil, fmt.Errorf("%w: %w", errBadValues, perr)
		}
		p.Say(perr.Error() + ".")
	}
}

// padded is read with 0s for the dice not read, n values in all.
func padded(read []int, n int) []int {
	out := make([]int, n)
	copy(out, read)
	return out
}

func parseValues(s string, n int) ([]int, error) {
	var vals []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > 6 {
			return nil, fmt.Errorf("dice must be %d values 1-6, got %s", n, s)
		}
		vals = append(vals, v)
	}
	if len(vals) != n {
		return nil, fmt.Errorf("dice must be %d values 1-6, got %q", n, s)
	}
	slices.Sort(vals)
	return vals, nil
}

func yes(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "y" || s == "yes"
}

func join(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, " ")
}

// describeLab names a colour roughly, for people.
func describeLab(c [3]float64) string {
	l, a, b := c[0]*100/255, c[1]-128, c[2]-128
	chroma := math.Hypot(a, b)
	var tone string
	switch {
	case l < 25:
		tone = "black"
	case l > 85 && chroma < 12:
		tone = "white"
	case chroma < 12:
		tone = "grey"
	default: // hue angle in Lab's a,b plane
		h := math.Mod(math.Atan2(b, a)*180/math.Pi+360, 360)
		tone = "pink"
		for _, r := range []struct {
			upTo float64
			name string
		}{{25, "pink"}, {60, "red"}, {85, "orange"}, {115, "yellow"}, {180, "green"}, {240, "cyan"}, {305, "blue"}, {345, "purple"}} {
			if h < r.upTo {
				tone = r.name
				break
			}
		}
	}
	return fmt.Sprintf("%s (Lab %.0f,%.0f,%.0f)", tone, c[0], c[1], c[2])
}

// plural is "1 die", "2 dice".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
