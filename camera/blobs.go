package camera

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// readBlobs reads the faces of one hypothesis of the dice (one entry per blob, each a list of
// ways to cut it) and keeps the best way for each blob.
func (r *Reader) readBlobs(img gocv.Mat, off image.Point, blobs [][][]cand, read map[cand]face) []Die {
	// faceOf reads a candidate once: the hypotheses share many candidates.
	faceOf := func(c cand) face {
		key := faceKey(c)
		f, ok := read[key]
		if !ok {
			f = r.readFace(img, c)
			read[key] = f
		}
		return f
	}
	// peek reads a candidate without keeping the face: netBlanks looks again at the
	// candidates read, and these are only looked at for pips.
	peek := func(c cand) face {
		if f, ok := read[faceKey(c)]; ok {
			return f
		}
		return r.readFace(img, c)
	}
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
				f := faceOf(c)
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
				} else if c.wall && f.value == 0 && c.side < 0.85*c.die {
					// Peeled off the wall smaller than the picture's dice: the peel may
					// have taken part of the die with the wall's shade (a smoky 4 at the
					// tray's foot in IMG_20191208_112857, peeled 26 px wide of 37). Read
					// at the picture's die size, three or more pips in a layout are a die
					// (the wall's texture fits a 1 or a 2, see above); else it is taken for
					// what is left of the wall, as below.
					c2 := c
					c2.side, c2.r.w, c2.r.h = c.die, c.die, c.die
					if g := faceOf(c2); g.value >= 3 && !g.amb.is() {
						f, alt[i] = g, c2
					} else {
						f.clutter = true
					}
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
						// One die's top face and its own side face, cut apart: the side
						// face is left out where the picture tells which it is (see
						// sideBelow), else either may be the top one.
						if s, ok := sideBelow([]Die{f.die(alt[i], off), g.die(alt[j], off)}, 0, 1); ok {
							side := i
							if s == 1 {
								side = j
							}
							faces[side] = face{why: "a side face below its die's top face", notDie: true, square: faces[side].square, col: faces[side].col}
							continue
						}
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
		if math.IsInf(bestScore, -1) && len(alts) > 0 {
			// No way of cutting the blob was one (parts not shaped like dice, a cut through
			// a face, faces that overlap), yet its parts show pips: the blob holds dice that
			// could not be told apart. Left out, they would go missing from a reading that
			// says read (a black 4 touching a white 3 in nell-byler/IMG_20191209_100026).
			// A longer row of dice (see rowOfDice) is refused too, but faces read from their
			// pips inside it replace it (see holdsFace).
			w := wholeOf(alts)
			if few := fewDice(alts, w); (few || rowOfDice(alts, w)) && pipsSeen(alts, peek) {
				d := face{why: "touching dice that no way of splitting tells apart"}.die(w, off)
				d.row = !few
				best = []Die{d}
			}
		}
		out = append(out, best...)
	}
	return out
}

// besideRead leaves out of dice the rows refused whole (Die.row) that overlap a die read by a
// quarter of its box or more: under a die size guessed too small, one die's side faces, seen
// obliquely beside its top face (read from its own blob or from its pips), make such a row
// (matteop65/dice_3.jpg brightened). Rows were left out before they were refused, so this
// loses nothing that was read. It runs once faces are proposed from pips.
func besideRead(dice []Die) []Die {
	kept := make([]Die, 0, len(dice)) // not in place: the inner loop reads every die
	for _, d := range dice {
		if !d.row || !overRead(d, dice) {
			kept = append(kept, d)
		}
	}
	return kept
}

// overRead says whether d covers a quarter or more of the box of a die of dice read (a
// quarter of the read die's box, where ones.go's overlapsRead takes a quarter of its own).
func overRead(d Die, dice []Die) bool {
	for _, o := range dice {
		if a := o.Box.Intersect(d.Box); o.Value > 0 && 4*a.Dx()*a.Dy() >= o.Box.Dx()*o.Box.Dy() {
			return true
		}
	}
	return false
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

// fewDice says whether a blob, given its ways of cutting, may be a few touching dice: inside
// the picture and off the tray's walls (clutter and a box's frame run off it), and no longer
// than three dice side by side (w is the whole blob, see wholeOf).
func fewDice(alts [][]cand, w cand) bool {
	return inside(alts) && math.Max(w.r.w, w.r.h) <= 3*w.die
}

// rowOfDice says whether a blob longer than fewDice's may be a row of touching dice: inside
// the picture and off the walls, no longer than six dice, every part of its first way at
// least half a die thick (a cable or a pen is thinner) and no longer than one and a half (a
// die with its shadow; a strip of plastic at the tray's foot, its hole read as a pip, is cut
// into longer parts: nell-byler/IMG_20191208_111858 with sensor noise). Dice huddled in a
// row under a die size guessed too small (from clutter's specks) are cut into too many parts
// to be dice (nell-byler/IMG_20191208_112517 under a lamp: four dice in a row, cut into seven
// or eight).
func rowOfDice(alts [][]cand, w cand) bool {
	if !inside(alts) || math.Max(w.r.w, w.r.h) > 6*w.die {
		return false
	}
	for _, c := range alts[0] {
		if math.Min(c.r.w, c.r.h) < 0.5*w.die || math.Max(c.r.w, c.r.h) > 1.5*w.die {
			return false
		}
	}
	return true
}

// inside says whether no part of any way of cutting a blob meets the picture's edge or the
// tray's wall.
func inside(alts [][]cand) bool {
	for _, alt := range alts {
		for _, c := range alt {
			if c.edge || c.wall {
				return false
			}
		}
	}
	return true
}

// faceKey is the key of a candidate's face in the faces read: the face depends neither on the
// die size guessed for the picture nor on whether the blob was taken whole.
func faceKey(c cand) cand {
	c.die, c.lone = 0, false
	return c
}

// pipsSeen says whether a part of one of the ways of cutting a blob shows pips: read, or
// pips in no layout (neither blank nor taken for clutter).
func pipsSeen(alts [][]cand, readFace func(cand) face) bool {
	for _, alt := range alts {
		for _, c := range alt {
			if f := readFace(c); f.value > 0 || !f.notDie && !f.clutter {
				return true
			}
		}
	}
	return false
}

// wholeOf is a candidate for a whole blob, given its ways of cutting: the upright rectangle
// holding the parts of the first way, which has the blob's flags.
func wholeOf(alts [][]cand) cand {
	c := alts[0][0]
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range alts[0] {
		a, b, e, f := p.r.bounds()
		x0, y0, x1, y1 = math.Min(x0, a), math.Min(y0, b), math.Max(x1, e), math.Max(y1, f)
	}
	c.r = rotRect{cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, w: x1 - x0, h: y1 - y0}
	c.side = math.Sqrt(c.r.w * c.r.h)
	return c
}
