package camera

import (
	"fmt"
	"image"
	"math"
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
	// DieSidePx is the side of a die's top face in frame pixels; 0 = estimate from the frame.
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

// Reader reads dice from frames. It holds its options, the face network's weights (read only)
// and a pool of scratch buffers, so one Reader may be used from several goroutines.
type Reader struct {
	o    ReaderOpts
	nets [2]*faceNet // nil with PipsOnly
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
		r.nets = nets
	}
	return r
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
	if r.o.BackgroundLab == nil {
		if b, ok := brightened(img); ok {
			defer b.Close()
			img = b
		}
	}
	var rd Reading
	var won [][][]cand          // the hypothesis whose dice were kept
	read := make(map[cand]face) // a blob cut the same way under both sizes is read once
	for i, hyp := range r.findDice(img) {
		if i > 0 && settled(rd.Dice) {
			break // every die found was read: the other size is not worth its time
		}
		dice := r.readBlobs(img, off, hyp, read)
		if i == 0 || better(dice, rd.Dice, 2*r.o.MinConfidence) {
			rd.Dice, won = dice, hyp
		}
	}
	// Dice the tray model cannot separate (ivory on pale wood) still show their pips.
	rd.Dice = r.pipDice(img, off, rd.Dice)
	// Candidates that were not read and look like no die either (face.clutter) are left out,
	// but only now: while the die's size and the cuts of the blobs are chosen they count as
	// unread. The evidence is no proof, and on pale wood an ivory die whose face is barely
	// the desk's colour would else let the other size win by reading its pips as 1s
	// (matteop65/two_48.jpg).
	kept := rd.Dice[:0]
	for _, d := range rd.Dice {
		if d.Value > 0 || !d.clutter {
			kept = append(kept, d)
		}
	}
	rd.Dice = specks(kept)
	rd.Dice = r.netBlanks(img, off, rd.Dice, won, read)
	r.unglare(img, off, rd.Dice)
	r.netRead(img, off, rd.Dice) // after specks: a face read by the network has no fitted size
	rd.Dice = unlike(rd.Dice, r.o.MinContrast)
	if r.o.Tray.Empty() {
		// With no tray calibrated, clutter beside the dice (a laptop's keys) can be read as
		// dice, and "the dice of one game are alike" tells it apart. A calibrated tray holds
		// only dice, which may then be the players' own, of any mix of colours.
		odd(rd.Dice, r.o.MinContrast)
		printedAlike(img, off, rd.Dice, r.o.MinContrast)
	}
	rd.Dice = oneBody(img, off, rd.Dice, r.o.MinContrast)
	// Last, these: they are spent only on a reading that would be trusted.
	r.stable(img, rd.Dice)
	r.netConfirm(img, rd.Dice)
	r.netDoubt(img, rd.Dice)
	sort.Slice(rd.Dice, func(i, j int) bool {
		a, b := rd.Dice[i].Box.Min, rd.Dice[j].Box.Min
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.X < b.X
	})
	rd.Status = StatusRead
	for _, d := range rd.Dice {
		if d.Value == 0 {
			rd.Status = StatusUnreadable
			rd.Why = fmt.Sprintf("die at (%d,%d): %s", (d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2, d.Why)
			return rd
		}
	}
	if r.o.Expect > 0 && len(rd.Dice) != r.o.Expect {
		rd.Status = StatusWrongCount
		rd.Why = fmt.Sprintf("found %d dice, expected %d", len(rd.Dice), r.o.Expect)
	}
	return rd
}

// unlike leaves out of dice the unread candidates unlike the dice read. The dice of a game are
// alike: when three or more read dice share one face colour (within t of their median), an
// unread candidate whose face differs from it by more than 5t is something else among them (a
// laptop key or a cable's ferrite bead among ivory dice). A die of the set in shade or seen
// by its side differs far less (a shaded ivory die about 4t); dice of mixed colours give no rule.
func unlike(dice []Die, t float64) []Die {
	m, ok := alikeColour(dice, t)
	if !ok {
		return dice
	}
	kept := dice[:0]
	for _, d := range dice {
		if d.Value > 0 || !unlikeColour(d, m, t) {
			kept = append(kept, d)
		}
	}
	return kept
}

// alikeColour is the face colour that three or more dice read share (within t of their
// median), if they do.
func alikeColour(dice []Die, t float64) ([3]float64, bool) {
	m, n := medianColour(dice, -1, 1)
	if n < 3 {
		return m, false
	}
	for _, d := range dice {
		if d.Value > 0 && labDist(d.col, m) >= t {
			return m, false
		}
	}
	return m, true
}

// unlikeColour says whether die d's face differs from the dice's shared colour m by more than
// 5t. A zero colour was never measured (a die at the picture's edge): it is not judged.
func unlikeColour(d Die, m [3]float64, t float64) bool {
	return d.col != [3]float64{} && labDist(d.col, m) > 5*t
}

// odd refuses a die read whose face is unlike all the others when three or more others
// share one face colour (within t of their median) and it differs from that by more than
// 5t, as unlike leaves such candidates out: something else among the dice (a laptop key's
// light symbol on its dark cap read as a 1). It is refused, not left out: it may hide a die.
func odd(dice []Die, t float64) {
	for i, d := range dice {
		if d.Value == 0 || d.col == [3]float64{} {
			continue
		}
		m, n := medianColour(dice, i, 1)
		if n < 3 {
			continue
		}
		alike := true
		for j, o := range dice {
			alike = alike && (j == i || o.Value == 0 || labDist(o.col, m) < t)
		}
		if alike && labDist(d.col, m) > 5*t {
			dice[i].Value, dice[i].Why = 0, "unlike the other dice: something else among them (dice of several colours: calibrate the tray)"
		}
	}
}

// medianColour is the median face colour, channel by channel, of the dice read as least or more
// other than the skip-th, and how many there are.
func medianColour(dice []Die, skip, least int) ([3]float64, int) {
	var ls, as, bs []float64
	for j, o := range dice {
		if j != skip && o.Value >= least {
			ls, as, bs = append(ls, o.col[0]), append(as, o.col[1]), append(bs, o.col[2])
		}
	}
	return [3]float64{median(ls), median(as), median(bs)}, len(ls)
}

// labDist is the distance of two 8-bit Lab colours, hue counted twice as lightness (as the
// reader's contrasts are).
func labDist(a, b [3]float64) float64 {
	dl, da, db := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(dl*dl + 2*(da*da+db*db))
}

// readBlobs reads the faces of one hypothesis of the dice (one entry per blob, each a list of
// ways to cut it) and keeps the best way for each blob.
func (r *Reader) readBlobs(img gocv.Mat, off image.Point, blobs [][][]cand, read map[cand]face) []Die {
	var out []Die
	for _, alts := range blobs {
		best, bestScore := []Die(nil), math.Inf(-1)
		var bestSeen []face
		complete := false   // some way of cutting the blob read every one of its dice
		var rivals [][]face // the faces read by every way of cutting the blob
		var full []bool     // whether that way read all its dice
		var parts [][]face  // all the faces of a split that is no way to cut (else nil)
		for _, alt := range alts {
			var dice []Die
			var seen []face
			score := 0.0
			if len(alt) > 1 && !plausibleSplit(alt) {
				continue
			}
			faces := make([]face, len(alt))
			for i, c := range alt {
				key := c
				key.die, key.lone = 0, false // the face does not depend on them
				f, ok := read[key]
				if !ok {
					f = r.readFace(img, c)
					read[key] = f
				}
				if c.edge && f.value == 0 && math.Max(c.r.w, c.r.h) > 1.6*c.die {
					// Cut by the picture's edge yet longer than a die's diagonal with its
					// shadow: clutter running off the picture (a laptop's edge, a cable).
					f.clutter, f.why = true, "clutter along the picture's edge: longer than a die"
				}
				if c.wall && f.value > 0 && f.value <= 2 {
					// A die against the tray's wall is seen from the side by a camera over
					// the tray: a side face's pip beside a 1 makes a 2, and half of a face
					// cut off by the wall's shade makes a 1. A face of three or more pips in
					// its layout is not made so. Refused, it is still a die (pips in a
					// layout), not clutter: of the 30 so refused in the shared photos, all
					// 30 stood where a labelled die does.
					f = face{why: fmt.Sprintf("read %d against the tray's wall, where a side face's pip or half a face reads so", f.value), square: f.square}
				} else if c.wall && f.value == 0 {
					// Unread (no layout at all), it may as well be what is left of the
					// wall or of clutter (a cable's label): such blobs were no candidates
					// before the peel.
					f.clutter = true
				}
				faces[i] = f
			}
			cut := len(alt) > 1 && !explainsPips(alt, faces, float64(r.o.FaceSide))
			if cut || len(alt) > 1 && overlap(faces) {
				// Not a way to cut the blob, but what its parts read still counts against
				// a reading that lacks it. A cut through a face leaves pips of it unused,
				// so there only faces of three or more pips count (two touching 4s read
				// whole as a 2 of a pip of each), not the halves of a face.
				for _, f := range faces {
					if f.value > 0 && (!cut || f.value >= 3) {
						seen = append(seen, f)
					}
				}
				rivals = append(rivals, seen)
				parts = append(parts, faces)
				full = append(full, false)
				continue
			}
			for i := range faces {
				for j := i + 1; j < len(faces); j++ {
					f, g := faces[i], faces[j]
					if f.value > 0 && g.value > 0 && sideFacePair(img, f, g) {
						// One die's top face and its own side face, cut apart: either
						// may be the top one.
						why := "a face and the side face beside it, with no seam between them: one die seen obliquely"
						faces[i] = face{why: why, square: f.square, col: f.col}
						faces[j] = face{why: why, square: g.square, col: g.col}
					}
				}
			}
			for i, c := range alt {
				f := faces[i]
				if f.notDie {
					score -= 0.5
					continue
				}
				d := f.die(c, off)
				if d.Value > 0 && d.Confidence < r.o.MinConfidence {
					d.Why = fmt.Sprintf("read %d with low confidence %.2f", d.Value, d.Confidence)
					d.Value = 0
				}
				if d.Value > 0 {
					score++
					seen = append(seen, f)
				} else {
					score -= 0.5
				}
				dice = append(dice, d)
			}
			score -= 0.6 * float64(len(alt)-1) // each extra die must earn its place
			if score > bestScore {
				best, bestScore, bestSeen = dice, score, seen
			}
			all := len(dice) > 0 && len(seen) == len(dice)
			complete = complete || all
			rivals = append(rivals, seen)
			parts = append(parts, nil)
			full = append(full, all)
		}
		// Every way of cutting touching dice must read each die it reads as the best way
		// reads the die at that place: two touching 2s read whole as a 1 and split as a 2
		// and a face that fits nothing, or read as [4 4] one way and [2 4 4] another, are
		// ambiguous. A way that reads all its dice but fewer of them (the blob uncut reads
		// one of two touching 4s) agrees with it unless a die it misses has fewer than three
		// pips and adjoins one of its dice: one or two pips fit a 1 or a 2 wherever they are,
		// so such a die, seen by one way only, may be a side face split off its die in an
		// oblique view. A face of one or two pips that a split whose faces overlap reads
		// over a die the best way reads alike is that die's side face (see sideFace).
		conflict := false
		for i, seen := range rivals {
			for _, f := range seen {
				if sideFace(f, parts[i], bestSeen) {
					continue
				}
				conflict = conflict || complete && !readAlike(f, bestSeen) && !partOf(f, bestSeen)
			}
			for _, f := range bestSeen {
				conflict = conflict || full[i] && f.value < 3 && !readAlike(f, seen) && adjoins(f, seen)
			}
		}
		if conflict {
			for i := range best {
				best[i].Value = 0
				best[i].Why = "touching dice read differently depending on where they are split"
			}
		}
		out = append(out, best...)
	}
	return out
}

// sideFace says whether face f, read by a split that is no way to cut (whose faces are
// faces), is a side face of a die the best way reads: f has one or two pips and overlaps
// another face of that split that the best way reads alike. Two dice cannot share the
// space, the best way's die is there, and one or two pips beside a top face are what a side
// face shows in an oblique view (foreshortened, so its fitted face reaches into the top
// face's). A face of three or more pips fits a layout with its free places clear and still
// counts (a small 5 beside a 1 in nell-byler/IMG_20191208_112426.jpg). Dropping f can only
// leave a die out of the reading, never read one as another value.
func sideFace(f face, faces, best []face) bool {
	if f.value >= 3 {
		return false
	}
	for _, g := range faces {
		if g.face == f.face || g.value == 0 || g.face.w == 0 || !readAlike(g, best) {
			continue
		}
		if overlap([]face{f, g}) {
			return true
		}
	}
	return false
}

// adjoins says whether face f lies within one and a half sides of one of the faces fs: where
// a side face of that die would be.
func adjoins(f face, fs []face) bool {
	for _, g := range fs {
		if math.Hypot(f.face.cx-g.face.cx, f.face.cy-g.face.cy) < 1.5*g.face.w {
			return true
		}
	}
	return false
}

// partOf says whether every pip of face f is a pip of one of the faces fs that has three or
// more pips, more than f: f is then that face seen in part (the halves of a 4 cut apart read
// as 2s, a row of two of its pips read as a diagonal 2), no rival reading. Pips belong to one
// face, and a face of three or more pips in a canonical layout with its free places clear is
// not made up of a side face's pips, as a 1 and such a pip can make a 2. Pips are the same
// when within half a pip spacing: no two pips of a face lie closer.
func partOf(f face, fs []face) bool {
	for _, g := range fs {
		if g.value < 3 || g.value <= f.value || len(f.pips) == 0 {
			continue
		}
		all := true
		for _, p := range f.pips {
			hit := false
			for _, q := range g.pips {
				hit = hit || math.Hypot(p[0]-q[0], p[1]-q[1]) < 0.5*g.face.w/3.6
			}
			all = all && hit
		}
		if all {
			return true
		}
	}
	return false
}

// readAlike says whether one of the faces fs was fitted at f's place with f's value.
func readAlike(f face, fs []face) bool {
	for _, g := range fs {
		if g.value == f.value && math.Hypot(f.face.cx-g.face.cx, f.face.cy-g.face.cy) < 0.5*math.Min(f.face.w, g.face.w) {
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

// pipLike says whether pip p looks like the pips of one face, ps: as strong as their weakest
// but for the spread among one face's pips (about 15%), and of their size within 1.67 times.
func pipLike(p pip, ps []pip) bool {
	if len(ps) == 0 {
		return true
	}
	weakest, d := math.Inf(1), 0.0
	for _, q := range ps {
		weakest = math.Min(weakest, q.c)
		d += q.d / float64(len(ps))
	}
	return p.c >= weakest/1.25 && p.d > 0.6*d && p.d < 1.67*d
}

// plausibleSplit says whether the parts of a split blob each look like one die.
func plausibleSplit(parts []cand) bool {
	var sides []float64
	for _, c := range parts {
		if c.r.aspect() > 1.6 {
			return false
		}
		sides = append(sides, c.r.side())
	}
	m := median(sides)
	for _, s := range sides {
		if s < 0.6*m {
			return false
		}
	}
	return true
}

// explainsPips says whether a split of a blob into dice accounts for its pips: a pip that a
// part saw but did not use, like the pips it used and nearer that part than any other, means
// the split cut through a face (two halves of a 6 read as two 2s). A spot unlike them is no
// pip of that face (the crease of a die's own side face, fainter and longer), nor is a pip
// foreshortened as a side face's beside it (see sideOf; S is the patch's die side: an ivory
// 2 seen obliquely shows its side face's pips as strong as its own once the light is
// brighter). Not beside a face of three or more pips: fitted with its free places clear and
// no stray pip on it, that face is whole (part of a 5 or 6 leaves pips on it), and a pip
// beside it is on one of its die's side faces (in an oblique view, the row of pips on the
// side face of the die behind).
func explainsPips(parts []cand, faces []face, S float64) bool {
	for i, f := range faces {
		if f.value == 0 || f.value >= 3 {
			continue
		}
		top := faceCentre(f.look)
		for k, p := range f.extra {
			if k < len(f.extraLook) && (!pipLike(f.extraLook[k], f.look) || sideOf(f.extraLook[k], top, S)) {
				continue
			}
			near, best := -1, math.Inf(1)
			for j, c := range parts {
				if d := math.Hypot(p[0]-c.r.cx, p[1]-c.r.cy); d < best {
					near, best = j, d
				}
			}
			if near == i && best < 0.5*parts[i].side {
				return false
			}
		}
	}
	return true
}

// faceCentre is the centre of a face's pips (patch pixels), as sideOf takes it: the mean of
// the pips of a canonical layout is the face's centre, their roundness the least of theirs.
func faceCentre(ps []pip) pip {
	top := pip{q: math.Inf(1)}
	for _, p := range ps {
		top.x += p.x / float64(len(ps))
		top.y += p.y / float64(len(ps))
		top.d += p.d / float64(len(ps))
		top.q = math.Min(top.q, p.q)
	}
	return top
}

// overlap says whether two of the faces fitted in the parts of a split blob overlap: two dice
// cannot share the space, so the split took pips of one face for two (a 4 cut into two 2s).
// The centres of touching dice lie at least a side apart; those of two halves of one face
// much less, and those of a top face and the side face below it in an oblique view (a 4 and
// the 2 beside it) less too, since the side face is foreshortened.
func overlap(faces []face) bool {
	for i, f := range faces {
		for _, g := range faces[i+1:] {
			if f.face.w > 0 && g.face.w > 0 &&
				math.Hypot(f.face.cx-g.face.cx, f.face.cy-g.face.cy) < (f.face.w+g.face.w)/2 {
				return true
			}
		}
	}
	return false
}

// printedAlike refuses a 1 printed the other way from the dice read: the dice of a game are
// printed alike, their pips all darker than their faces or all lighter. A 1 is a single mark,
// the least evidence of a die; a light mark on a dark face unlike (by more than 5t, as in
// odd) a die of two or more dark pips on its pale face is something else among the dice (a
// laptop key's light symbol on its dark cap). It is refused, not left out: it may hide a die.
func printedAlike(img gocv.Mat, off image.Point, dice []Die, t float64) {
	// lighter says whether the die's first pip is lighter than its face around it (at a
	// quarter of the die's side from the pip: on the face, clear of the pip).
	lighter := func(d Die) bool {
		if len(d.Pips) == 0 {
			return false
		}
		lum := func(x, y int) float64 {
			x, y = x-off.X, y-off.Y
			if x < 0 || y < 0 || x >= img.Cols() || y >= img.Rows() {
				return -1
			}
			v := img.GetVecbAt(y, x)
			return (float64(v[0]) + float64(v[1]) + float64(v[2])) / 3
		}
		p := d.Pips[0]
		r := 0.25 * float64(d.Box.Dx()+d.Box.Dy()) / 2
		var ring []float64
		for a := 0.0; a < 2*math.Pi; a += math.Pi / 12 {
			if l := lum(p.X+int(math.Round(r*math.Cos(a))), p.Y+int(math.Round(r*math.Sin(a)))); l >= 0 {
				ring = append(ring, l)
			}
		}
		return len(ring) > 0 && lum(p.X, p.Y) > median(ring)
	}
	// The dice read with two or more pips must be one game's: alike in colour (within t of
	// their median, as in odd), all with dark pips. Photos of mixed dice give no rule.
	var refuse []int
	for i, d := range dice {
		if d.Value != 1 || len(d.Pips) != 1 || !lighter(d) {
			continue
		}
		m, n := medianColour(dice, i, 2)
		if n == 0 {
			continue
		}
		game := true
		for j, o := range dice {
			if j != i && o.Value >= 2 {
				game = game && len(o.Pips) > 0 && labDist(o.col, m) < t && !lighter(o)
			}
		}
		if game && labDist(d.col, m) > 5*t {
			refuse = append(refuse, i)
		}
	}
	for _, i := range refuse {
		dice[i].Value, dice[i].Why = 0, "a light mark on a dark face, unlike the dice's dark pips: something else among them (dice printed both ways: calibrate the tray)"
	}
}
