package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// blanks returns, as unread dice, the candidates of the chosen hypothesis (one entry per blob,
// each a list of ways to cut it) inside the picture and the tray whose face showed no pips at
// all (face.notDie) or pips in no layout: readBlobs leaves out the first, since a die has no
// blank face, and the second when another way of cutting their blob won. A dark die with dark
// red pips, or a blue one with red pips, can show the pip finder nothing while the face
// network still reads it (see netBlanks). Only candidates with square edges (see edgeTurn),
// not much longer than wide, are returned: a round tray foot or a strip of the tray's frame
// is no die, and each look costs the network one to twenty-four passes.
func blanks(hyp [][][]cand, read map[cand]face, off image.Point) []Die {
	var out []Die
	for _, alts := range hyp {
		for _, alt := range alts {
			for _, c := range alt {
				f, ok := read[faceKey(c)]
				if ok && (f.notDie || f.unlaid) && f.square >= minSquare && c.r.aspect() < 1.4 && !c.edge && !c.wall {
					out = append(out, f.die(c, off))
				}
			}
		}
	}
	return out
}

// netBlanks adds to dice those of the blank candidates of hyp that the face networks read
// surely (netVote, as when they overturn the pip fitter's refusals, but at netBlankSure with
// every turn agreeing), of about the picture's die size and a die's side away from every die
// found or added before. The dice it adds are marked Net, so netConfirm then checks the dice
// read from pips against it, and every check after netRead applies to them.
func (r *Reader) netBlanks(img gocv.Mat, off image.Point, dice []Die, hyp [][][]cand, read map[cand]face) []Die {
	if r.nets[0] == nil {
		return dice
	}
	side := dieSide(dice)
	if side <= 0 {
		return dice
	}
	for _, b := range blanks(hyp, read, off) {
		if s := b.src.side; s < 0.75*side || s > 1.33*side || near(b, dice, 0.75*side, off) {
			continue
		}
		cx, cy, s := netSquare(b, side)
		v, p := r.netStrict(img, cx, cy, s)
		if v == 0 {
			continue
		}
		h := s / netCrop / 2
		b.Value, b.Confidence, b.Why, b.Net, b.Pips = v, p, "", true, nil
		b.Box = image.Rect(int(cx-h), int(cy-h), int(cx+h+1), int(cy+h+1)).Add(off)
		dice = append(dice, b)
	}
	return dice
}

// near says whether the candidate of d lies within dist of the centre of one of dice.
func near(d Die, dice []Die, dist float64, off image.Point) bool {
	x, y := d.src.r.cx+float64(off.X), d.src.r.cy+float64(off.Y)
	for _, o := range dice {
		ox, oy := float64(o.Box.Min.X+o.Box.Max.X)/2, float64(o.Box.Min.Y+o.Box.Max.Y)/2
		if math.Hypot(x-ox, y-oy) < dist {
			return true
		}
	}
	return false
}
