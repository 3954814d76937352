package camera

import (
	"fmt"
	"image"
	"runtime"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// ReaderOpts tunes the dice reader. DefaultReaderOpts works with no calibration on an unknown rig;
// a calibration profile fills in what it measured (tray, die size, colours) to make it faster and surer.
// Zero values mean "estimate from the image".
type ReaderOpts struct {
	// Expect is the number of dice that must be on the table (4 in the companion); 0 accepts any count.
	Expect int `json:"expect"`
	// Tray limits the search to this rectangle of the frame (frame pixels); empty = whole frame.
	Tray image.Rectangle `json:"tray"`
	// DieSidePx is the dice's size as the reader measures it (Reading.SidePx of a frame of this
	// rig), not the side of their top face; 0 = estimate it from each frame, which reads more
	// photos (calibration leaves it 0). A size given is tried first and the frame's own
	// estimates after it where they differ, so a camera moved since is not read at it alone.
	DieSidePx float64 `json:"die_side_px"`
	// BackgroundLab is the empty tray's colour in OpenCV 8-bit Lab; nil = model it from the frame border.
	BackgroundLab []float64 `json:"background_lab,omitempty"`
	// DetectMaxDim is the longest side, in pixels, of the downscaled copy in which dice are searched.
	DetectMaxDim int `json:"detect_max_dim"`
	// FaceSide is the side, in pixels, to which each die's face is resampled before its pips are read.
	FaceSide int `json:"face_side"`
	// MinContrast is the smallest Lab distance that counts as "different" (die vs tray, pip vs face).
	MinContrast float64 `json:"min_contrast"`
	// MaxLayoutError is the largest distance, in pip spacings, of a pip from its canonical place.
	MaxLayoutError float64 `json:"max_layout_error"`
	// MinConfidence: a die read with less confidence is reported unreadable.
	MinConfidence float64 `json:"min_confidence"`
	// PipsOnly reads faces from pip layouts alone, without the face network's second look
	// at faces whose pips fit no layout (see netRead).
	PipsOnly bool `json:"pips_only,omitempty"`
}

// DefaultReaderOpts returns options for an uncalibrated rig reading any number of dice.
func DefaultReaderOpts() ReaderOpts {
	return ReaderOpts{
		DetectMaxDim:   256,
		FaceSide:       48,
		MinContrast:    14,
		MaxLayoutError: 0.42,
		MinConfidence:  0.25,
	}
}

// Reader reads dice from frames. It holds its options, the face network's weights (read only),
// a pool of scratch buffers and one of idle networks loaded into OpenCV, so one Reader may be
// used from several goroutines. Close frees the networks' C memory when done.
type Reader struct {
	o    ReaderOpts
	nets [2]*netRunner // nil with PipsOnly
	bufs *floats
}

// NewReader returns a reader; zero fields of o take their defaults.
func NewReader(o ReaderOpts) *Reader {
	d := DefaultReaderOpts()
	if o.DetectMaxDim <= 0 {
		o.DetectMaxDim = d.DetectMaxDim
	}
	if o.FaceSide <= 0 {
		o.FaceSide = d.FaceSide
	}
	if o.MinContrast <= 0 {
		o.MinContrast = d.MinContrast
	}
	if o.MaxLayoutError <= 0 {
		o.MaxLayoutError = d.MaxLayoutError
	}
	if o.MinConfidence <= 0 {
		o.MinConfidence = d.MinConfidence
	}
	r := &Reader{o: o, bufs: new(floats)}
	if !o.PipsOnly {
		nets, err := builtinNets()
		if err != nil {
			// The weights are built into the program: this is a broken build, not bad input.
			panic(fmt.Sprintf("camera: the built-in %v", err))
		}
		r.nets = [2]*netRunner{newNetRunner(nets[0]), newNetRunner(nets[1])}
		// A Reader dropped without Close still frees its networks' C memory.
		runtime.SetFinalizer(r, (*Reader).Close)
	}
	return r
}

// Close frees the C memory of the networks the Reader keeps between reads. The Reader may
// still be used after; it then loads them again.
func (r *Reader) Close() error {
	for _, n := range r.nets {
		if n != nil {
			n.close()
		}
	}
	return nil
}

// Opts returns the reader's options.
func (r *Reader) Opts() ReaderOpts { return r.o }

// Read finds the dice in a BGR frame and reads their top faces. It never guesses: a die whose
// face does not match a canonical layout is returned with Value 0 and the reading is StatusUnreadable.
func (r *Reader) Read(frame gocv.Mat) Reading {
	if frame.Empty() || frame.Rows() < 16 || frame.Cols() < 16 {
		return Reading{Status: StatusUnreadable, Why: fmt.Sprintf("empty or tiny frame (%dx%d): check the camera", frame.Cols(), frame.Rows())}
	}
	if frame.Type() != gocv.MatTypeCV8UC3 {
		return Reading{Status: StatusUnreadable, Why: fmt.Sprintf("frame type %v is not 8-bit BGR", frame.Type())}
	}
	img := frame
	off := image.Point{}
	if !r.o.Tray.Empty() {
		t := r.o.Tray.Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
		if t.Dx() < 16 || t.Dy() < 16 {
			return Reading{Status: StatusUnreadable, Why: fmt.Sprintf("tray %v lies outside the %dx%d frame: recalibrate", r.o.Tray, frame.Cols(), frame.Rows())}
		}
		roi := frame.Region(t)
		defer roi.Close()
		img = roi
		off = t.Min
	}
	shot := img // as the camera took it, for Overexposed
	if r.o.BackgroundLab == nil {
		if b, ok := brightened(img); ok {
			defer b.Close()
			img = b
		}
	}
	var rd Reading
	var won [][][]cand          // the hypothesis whose dice were kept
	read := make(map[cand]face) // a blob cut the same way under both sizes is read once
	seg := r.segment(img, faceHoles)
	hyps := r.findDice(seg)
	for i, hyp := range hyps {
		if i > 0 && settled(blobDice(rd.Dice)) {
			break // every die found was read: the other size is not worth its time
		}
		dice := r.readBlobs(img, off, hyp, read)
		if i == 0 || better(blobDice(dice), blobDice(rd.Dice), 2*r.o.MinConfidence) {
			rd.Dice, won = dice, hyp
		}
	}
	if seg.open > 0 && seg.open <= 1.0/closeUpHoles && !anyRead(rd.Dice) {
		// Nothing read, and a hole too big for a face was left open: it may be one, seen
		// from close up (an overexposed die's face, uniform, taken for a second surface).
		// Filled, it must then read as a die: a tray's inside filled reads nothing, and
		// what was refused outside it must stay so.
		hyps = r.findDice(r.segment(img, closeUpHoles))
		for _, hyp := range hyps {
			if dice := r.readBlobs(img, off, hyp, read); anyRead(dice) && better(blobDice(dice), blobDice(rd.Dice), 2*r.o.MinConfidence) {
				rd.Dice, won = dice, hyp
			}
		}
	}
	pre := slices.Clone(rd.Dice)
	rd.Dice = r.finish(img, off, rd.Dice, won, read, false)
	if onlyAmbiguous(rd.Dice) {
		// A die refused as ambiguous is often one seen obliquely on pale wood, its box
		// taking in its side faces, whose top face the pips alone propose cleanly. The
		// reading from the pips alone is taken only when it resolves exactly those dice and
		// agrees with every other die (see resolves).
		if alt := r.finish(img, off, nil, nil, read, false); resolves(rd.Dice, alt) {
			rd.Dice = alt
		}
	}
	if onlyAmbiguous(rd.Dice) {
		// Still refused for ambiguous dice alone: the face networks, looking at the whole
		// face, may tell which reading it is (netAmbiguous). The photo is finished again
		// with them, so that every check after them applies as to any die they read.
		if alt := r.finish(img, off, pre, won, read, true); unread(alt) < unread(rd.Dice) {
			rd.Dice = alt
		}
	}
	if !settled(rd.Dice) {
		// Still refused: the photo is read again at the size of the dice without their
		// shadows, and that reading taken only where it completes this one (shadowless).
		if alt := r.shadowless(img, off, seg, rd.Dice, read); alt != nil {
			rd.Dice = alt
		}
	}
	sort.Slice(rd.Dice, func(i, j int) bool {
		a, b := rd.Dice[i].Box.Min, rd.Dice[j].Box.Min
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.X < b.X
	})
	r.judge(&rd)
	if rd.SidePx = dieSide(rd.Dice); rd.SidePx == 0 {
		// Every die was proposed from pips, with no size of its own: the size the blobs
		// were cut at.
		for _, h := range append([][][][]cand{won}, hyps...) {
			if rd.SidePx = hypSide(h); rd.SidePx > 0 {
				break
			}
		}
	}
	if rd.Status != StatusRead || len(rd.Dice) == 0 {
		if share, over := Overexposed(shot); over {
			if rd.Why != "" {
				rd.Why += "; "
			}
			rd.Why += overexposedHint(share)
		}
	}
	return rd
}

// judge sets rd's status from its dice, and why when it is not StatusRead.
func (r *Reader) judge(rd *Reading) {
	rd.Status = StatusRead
	for _, d := range rd.Dice {
		if d.Value == 0 {
			rd.Status = StatusUnreadable
			rd.Why = fmt.Sprintf("die at (%d,%d): %s", (d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2, d.Why)
			return
		}
	}
	if r.o.Expect > 0 && len(rd.Dice) != r.o.Expect {
		rd.Status = StatusWrongCount
		rd.Why = fmt.Sprintf("found %d dice, expected %d", len(rd.Dice), r.o.Expect)
	}
}

// finish completes the dice read from the blobs of hypothesis won: dice proposed from pips,
// the networks' looks, and the checks that refuse what is not to be trusted. amb: the
// networks also read the dice whose pips fit two faces (netAmbiguous).
func (r *Reader) finish(img gocv.Mat, off image.Point, dice []Die, won [][][]cand, read map[cand]face, amb bool) []Die {
	// Dice the tray model cannot separate (ivory on pale wood) still show their pips.
	dice = r.pipDice(img, off, dice)
	dice = r.negativePipDice(img, off, dice)
	dice = besideRead(dice)
	// Candidates that were not read and look like no die either (face.clutter) are left out,
	// but only now: while the die's size and the cuts of the blobs are chosen they count as
	// unread. The evidence is no proof, and on pale wood an ivory die whose face is barely
	// the desk's colour would else let the other size win by reading its pips as 1s
	// (matteop65/two_48.jpg).
	kept := dice[:0]
	for _, d := range dice {
		if d.Value > 0 || !d.clutter {
			kept = append(kept, d)
		}
	}
	dice = specks(kept)
	dice = r.netBlanks(img, off, dice, won, read)
	r.unglare(img, off, dice)
	r.netRead(img, off, dice) // after specks: a face read by the network has no fitted size
	if amb {
		r.netAmbiguous(img, dice)
	}
	dice = r.netSplit(img, off, dice)
	dice = unlike(img, off, dice, r.o.MinContrast)
	if r.o.Tray.Empty() {
		// With no tray calibrated, clutter beside the dice (a laptop's keys) can be read as
		// dice, and "the dice of one game are alike" tells it apart. A calibrated tray holds
		// only dice, which may then be the players' own, of any mix of colours.
		odd(img, off, dice, r.o.MinContrast)
		printedAlike(img, off, dice, r.o.MinContrast)
	}
	dice = oneBody(img, off, dice, r.o.MinContrast)
	// Last, these: they are spent only on a reading that would be trusted.
	r.stable(img, dice)
	r.netConfirm(img, dice)
	r.netDoubt(img, dice)
	return dice
}

// hypSide is the die side, in the picture's pixels, at which hypothesis h cut the blobs
// (0 for none).
func hypSide(h [][][]cand) float64 {
	for _, alts := range h {
		for _, ds := range alts {
			for _, c := range ds {
				return c.die
			}
		}
	}
	return 0
}

// blobDice is ds without the rows of touching dice refused whole (Die.row): the sizes are
// compared without them, as they were before such rows were kept (a row is a size's failure
// to cut a blob, which faces proposed from pips may yet read: matteop65/six_13.jpg in a warmer
// light, whose 6 the pips read only where the row is not compared).
func blobDice(ds []Die) []Die {
	var out []Die
	for _, d := range ds {
		if !d.row {
			out = append(out, d)
		}
	}
	return out
}

// unread counts the dice of ds not read.
func unread(ds []Die) int {
	n := 0
	for _, d := range ds {
		if d.Value == 0 {
			n++
		}
	}
	return n
}

// anyRead says whether some die of ds was read.
func anyRead(ds []Die) bool {
	for _, d := range ds {
		if d.Value > 0 {
			return true
		}
	}
	return false
}

// settled says whether dice were found and all of them read.
func settled(ds []Die) bool {
	for _, d := range ds {
		if d.Value == 0 {
			return false
		}
	}
	return len(ds) > 0
}

// better says whether dice a, read with one guess of the die's size, beat dice b read with
// another: fewer unreadable dice, then fewer dice for as many pips (the pips of one face are
// not dice of their own). Dice found where b found none must each be read with confidence sure.
func better(a, b []Die, sure float64) bool {
	count := func(ds []Die) (bad, n, pips int) {
		for _, d := range ds {
			if d.Value == 0 {
				bad++
			} else {
				n++
				pips += d.Value
			}
		}
		return
	}
	ba, na, pa := count(a)
	bb, nb, pb := count(b)
	if ba != bb {
		return ba < bb
	}
	if nb == 0 && na > 0 {
		// Where the other size found nothing, this one may have made a die of a side face:
		// it is believed only when all its dice are read surely.
		for _, d := range a {
			if d.Confidence < sure {
				return false
			}
		}
		return true
	}
	if na == 0 || nb == 0 {
		return false
	}
	return float64(pa)/float64(na) > float64(pb)/float64(nb)
}
