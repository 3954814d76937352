package camera

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

const (
	// netCrop is the side of the square the network looks at, in die sides: the top face with
	// a margin, as it was trained (scripts/facenet).
	netCrop = 1.5
	// netSure is the least mean probability, over the eight turns and mirrors of a crop, at
	// which a network's value is taken; all but netDissent of the eight must also pick it,
	// and both networks the same value (netVote).
	netSure = 0.6
	// netDissent is how many of a crop's eight turns may pick another value when a refusal
	// is overturned: glare on a glossy face does not turn with the die, so one turn of a
	// clear face may take it for a pip or miss a pip it washes out. The mean probability
	// still counts every turn.
	netDissent = 1
	// netBlankSure is netSure for the dice netBlanks adds, with no turn dissenting: nothing
	// but the networks backs such a die. When IMG_20191208_112419 is blurred, both read the
	// glare streak on its smoky 1 as a 2 in every turn of every square, the least mean being
	// 0.6975 (TestNetBlanksOnlyDice): this rule keeps it out only just.
	netBlankSure = 0.7
	// netConfirm is the least mean probability at which both networks must pick, in the
	// same way but in all eight turns, a value read from pips in a photo the network
	// completes (see netConfirm): a turn that sees the face otherwise is what exposes a pip
	// misreading both networks lean to.
	netConfirm = 0.5
	// netInside is how far inside the picture, in die sides, a die's square must lie for
	// netRead to overturn its refusal: the networks were trained on whole faces and cannot
	// tell one from the part of a face the picture's edge leaves (half a 2 cut through its
	// diagonal is a 1 to both, matteop65/two_6.jpg cut below its pip).
	netInside = 0.5
)

// unlaidRefusal says whether die d is still refused for its pips fitting no layout, the only
// refusal that unglare and netRead may overturn: not for anything else, not as clutter.
func unlaidRefusal(d Die) bool {
	return d.Value == 0 && d.unlaid != "" && d.Why == d.unlaid && !d.clutter
}

// netRead reads with the face network the dice on which the pip reader found pips but could
// fit no canonical layout: small dice whose coloured pips merge or break up, marbled and
// translucent bodies, glare (and a lone pip that reads as a 1 at some pip thresholds only,
// its partner perhaps hidden by glare). Those are the only refusals it may overturn, and
// only while the die still carries one: a die refused for being part of something else (a
// side face, a split read two ways, one body with its neighbour, the picture's edge) stays
// refused, and so does a die within netInside sides of the picture's edge or one whose
// candidate holds another die's pip (holdsPip: a blob cut through that die). A value is taken
// only when both networks read it surely in the square and in one a little wider and one a
// little narrower (netVote); the checks after netRead still apply.
//
// Photos the network reads nothing in are left as the pip reader read them; in the others
// netConfirm checks the dice read from pips.
//
// Where the picture's side, guessed from blobs with their shadows, is far bigger than the
// dice read from their pips (splitMeasured), a die the networks cannot read in its blob's
// square is read in one of their size: a small die is too little of the bigger square
// (IMG_20191209_100127's navy 1, its blob half as big again as the dice). A die read so
// shows the guess too big for this photo: the dice the networks read in squares that big
// are then refused where either network, at the dice's size, rates another value higher
// (netPrefersOther), for in a square too big a glare streak reads as a pip
// (TestNetReadMeasured).
func (r *Reader) netRead(img gocv.Mat, off image.Point, dice []Die) {
	if r.nets[0] == nil {
		return
	}
	side, m := dieSide(dice), measuredSide(dice)
	var big []int // dice read in a square far bigger than the dice read from their pips
	small := false
	for i, d := range dice {
		if !unlaidRefusal(d) || holdsPip(d, dice, 0.5*side, off) {
			continue
		}
		cx, cy, s := netSquare(d, side)
		if ds := s / netCrop; !inPicture(rotRect{cx: cx, cy: cy, w: ds, h: ds}.grown(netInside*ds), img.Cols(), img.Rows()) {
			continue
		}
		far := guessTooBig(s/netCrop, m)
		v, p := r.netVote(img, cx, cy, s, netSure, netDissent)
		switch {
		case v != 0 && far:
			big = append(big, i)
		case v == 0 && far:
			// Nothing but the networks backs the value: the strict rule.
			s = netCrop * m
			v, p = r.netStrict(img, cx, cy, s)
			small = small || v != 0
		}
		if v != 0 {
			dice[i].Value, dice[i].Confidence, dice[i].Why, dice[i].Net = v, p, "", true
			// The die's own square, not its blob's box (which may hold its shadow).
			h := s / netCrop / 2
			dice[i].Box = image.Rect(int(cx-h), int(cy-h), int(cx+h+1), int(cy+h+1)).Add(off)
		}
	}
	if !small {
		return
	}
	for _, i := range big {
		d := dice[i]
		if r.netPrefersOther(img, d.src.r.cx, d.src.r.cy, netCrop*m, d.Value) {
			dice[i].Why = fmt.Sprintf("read %d by the face networks in its blob's square, but not in a square the dice's size", d.Value)
			dice[i].Value, dice[i].Net, dice[i].doubted = 0, false, d.Value
		}
	}
}

// netPrefersOther says whether either network, its probabilities averaged over the eight turns
// of the square of side s at (cx, cy), rates some other value above v.
func (r *Reader) netPrefersOther(img gocv.Mat, cx, cy, s float64, v int) bool {
	x, ok := netInput(img, cx, cy, s)
	if !ok {
		return false
	}
	for _, n := range r.nets {
		p := n.meanProbs(x)
		for w := 1; w < len(p); w++ {
			if w != v && p[w] > p[v] {
				return true
			}
		}
	}
	return false
}

// holdsPip says whether a pip of another die read lies closer than half (netRead passes half
// a die side) to the centre of d's candidate: d is then part of that die (a blob cut through
// it), and the networks, looking at a die's square around it, would read that die again.
func holdsPip(d Die, dice []Die, half float64, off image.Point) bool {
	x, y := d.src.r.cx+float64(off.X), d.src.r.cy+float64(off.Y)
	for _, o := range dice {
		if o.Value == 0 || o.src == d.src {
			continue
		}
		for _, p := range o.Pips {
			if math.Hypot(float64(p.X)-x, float64(p.Y)-y) < half {
				return true
			}
		}
	}
	return false
}

// netConfirm checks the dice read from pips in a photo the network completed (a die marked
// Net, by netRead or netBlanks). The photo was refused for the dice the network read, and
// that refusal also hid any wrong value among the dice read from their pips (a translucent 4
// whose back shows a fifth pip, a marbled 5 read as a 1 from one pip, a smoky 1 whose glare
// streak makes a 2). So each of them must be read the same by both networks, by netVote's
// rule at netConfirm but with no turn dissenting (with one allowed, 112419's smoky 1 read as
// a 2 passed under scale0.6), and in the die's square and the narrower one only: the wider
// square may take in a neighbour's edge, which says nothing against a face read from its own
// pips (IMG_20191209_100510's 5 lost one turn of one network to it). Else it is refused. Like
// stable, it is spent only on a reading that would be trusted: a photo with a die unread,
// or with the wrong count, is left alone.
//
// A die read from the directed hue map (hued, see pipHue) completes a photo the same way: it
// overturns a refusal of the contrast maps, so the other dice are checked too (under gamma0.7
// 112419's 3 is read so, and the smoky 1 as a 2 went through). The hued die itself is not:
// the networks, which saw few coloured pips on marbled dice, refuse it where it is right
// (112451's magenta 4 on blue, 112648's red 6 on smoky).
//
// Nor are 4s and 6s. The wrong values this check exists for are a pip made or lost: a
// translucent 4's back pip or a glare streak added (a 5, a 2), a faint pip lost (a 5 or a 3
// read as a 1, a 5 as a 3). Four or six pips in their layout, with its free places clear, are
// not made so. Over the plain photos and eight variations that keep their geometry, this
// check refused 56 dice: the 10 wrong ones were 1s, 2s, 3s and 5s, and the 18 4s and 6s were
// all right (IMG_20191208_112857's smoky 4 in five of them).
//
// Where the picture's side, guessed from blobs with their shadows, is far bigger than the
// dice read from their pips (splitMeasured), a die the networks do not confirm in its square
// is looked at again, by the same rule, in one of their size: small in the bigger square, a
// 3 of 18 px is too little of it for the networks to agree on (TestNetConfirmMeasured).
func (r *Reader) netConfirm(img gocv.Mat, dice []Die) {
	if r.nets[0] == nil || !r.trusted(dice) {
		return
	}
	if !netCompleted(dice) {
		return
	}
	// The dice's size is measured before any of them is refused here: a refusal says
	// nothing of the others' size.
	side, m := dieSide(dice), measuredSide(dice)
	for i, d := range dice {
		if d.Net || d.hued || d.Value == 4 || d.Value == 6 {
			continue
		}
		cx, cy, s := netSquare(d, side)
		v, _ := r.netAgree(img, cx, cy, s, netConfirm, 0, []float64{1, stableShrink})
		if v != d.Value && v != -1 && guessTooBig(s/netCrop, m) {
			v, _ = r.netAgree(img, cx, cy, netCrop*m, netConfirm, 0, []float64{1, stableShrink})
		}
		if v != d.Value && v != -1 {
			dice[i].Why = fmt.Sprintf("read %d from its pips, but the face networks do not both read a %d", d.Value, d.Value)
			dice[i].Value, dice[i].doubted = 0, d.Value
		}
	}
}

// netCompleted says whether the networks, or the directed hue map, read some of the dice.
func netCompleted(dice []Die) bool {
	for _, d := range dice {
		if d.Net || d.hued {
			return true
		}
	}
	return false
}

// dieSide is the median of the die sides guessed for the picture by the candidates that
// have one (0 when none has).
func dieSide(dice []Die) float64 {
	var sides []float64
	for _, d := range dice {
		if d.src.die > 0 {
			sides = append(sides, d.src.die)
		}
	}
	return median(sides)
}

// netSquare is the square the network looks at for a die, in the picture searched: centred
// on its candidate, netCrop die sides wide (the picture's die side when the candidate has
// none, else its own box's).
func netSquare(d Die, picture float64) (cx, cy, side float64) {
	side = d.src.die
	if side <= 0 {
		side = picture
	}
	if side <= 0 {
		side = math.Max(d.src.r.w, d.src.r.h)
	}
	return d.src.r.cx, d.src.r.cy, netCrop * side
}

// netVote reads the square of side s at (cx, cy) and, as stable does for pip layouts, the
// squares stableGrow and stableShrink times as wide: a whole face reads the same when the
// square it is looked at in changes a little, while a face made up of glare, a neighbour's
// edge or pips seen through a translucent body comes and goes. Both networks must read
// each square surely (a mean of sure, all but dissent turns picking the value): one network
// can be sure of a wrong value that another, trained alike, is not (of the networks trained
// for BENCHMARKS-dice.md, one read a held-out die wrongly on its own; no pair did), so
// neither alone is trusted. It returns the value all agree on and the least of their
// probabilities, or 0.
func (r *Reader) netVote(img gocv.Mat, cx, cy, s, sure float64, dissent int) (int, float64) {
	v, p := r.netAgree(img, cx, cy, s, sure, dissent, []float64{1, stableGrow, stableShrink})
	return max(v, 0), p
}

// netStrict is netVote at netBlankSure with no turn dissenting: the rule for a value nothing
// but the networks backs (a die with no pips found, one found only by them) or for one that
// overturns a check's refusal.
func (r *Reader) netStrict(img gocv.Mat, cx, cy, s float64) (int, float64) {
	return r.netVote(img, cx, cy, s, netBlankSure, 0)
}

// netAgree is netVote at sureness sure with dissent turns of a crop allowed to differ, in
// the squares scales times s wide, and -1 when one cannot be cut (a die at the picture's
// corner).
func (r *Reader) netAgree(img gocv.Mat, cx, cy, s, sure float64, dissent int, scales []float64) (int, float64) {
	want, least := 0, 1.0
	for _, k := range scales {
		x, ok := netInput(img, cx, cy, k*s)
		if !ok {
			return -1, 0
		}
		for _, n := range r.nets {
			v, p := n.vote(x, sure, dissent)
			if v == 0 || want != 0 && v != want {
				return 0, 0
			}
			want, least = v, math.Min(least, p)
		}
	}
	return want, least
}

// vote runs the network on the eight turns and mirrors of a crop and returns the value that
// all but at most dissent of the eight pick, with its mean probability, when that reaches
// sure; else 0. It stops as soon as no value can still be taken, so a face it will not read
// costs dissent+1 passes or a few more instead of eight.
func (n *netRunner) vote(x []float32, sure float64, dissent int) (int, float64) {
	var sum [7]float64
	var picks [7]int
	t := make([]float32, len(x))
	for k := 0; k < 8; k++ {
		dihedral(x, t, k)
		p := n.probs(t)
		for j := range p {
			sum[j] += p[j]
		}
		picks[argmax(p)]++
		left, alive := 7-k, false
		for v := 1; v < len(sum); v++ {
			alive = alive || picks[v]+left >= 8-dissent && sum[v]+float64(left) >= 8*sure
		}
		if !alive {
			return 0, 0
		}
	}
	for v := 1; v < len(sum); v++ {
		if picks[v] >= 8-dissent && sum[v] >= 8*sure {
			return v, sum[v] / 8
		}
	}
	return 0, 0
}

// argmax is the index of the largest of p (the first of equals).
func argmax(p [7]float64) int {
	best := 0
	for j := range p {
		if p[j] > p[best] {
			best = j
		}
	}
	return best
}

// dihedral writes into dst the k-th of the eight turns (k%4 quarter turns) and mirrors
// (k >= 4) of the netSide×netSide planes of src. A die's faces read the same in all eight.
func dihedral(src, dst []float32, k int) {
	n := netSide
	for c := 0; c < len(src)/(n*n); c++ {
		s, d := src[c*n*n:(c+1)*n*n], dst[c*n*n:(c+1)*n*n]
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				sx, sy := x, y
				if k >= 4 {
					sx = n - 1 - sx
				}
				for q := 0; q < k%4; q++ {
					sx, sy = sy, n-1-sx
				}
				d[y*n+x] = s[sy*n+sx]
			}
		}
	}
}

// netInput crops a square of side s centred at (cx, cy) out of a BGR picture, resampled to
// netSide pixels (smoothed first when it shrinks, as in training; the picture's border
// repeated beyond its edge), normalised for the network.
func netInput(img gocv.Mat, cx, cy, s float64) ([]float32, bool) {
	if s < 4 || img.Empty() {
		return nil, false
	}
	sc := netSide / s
	sigma := 0.0
	if sc < 0.7 {
		sigma = 0.45 / sc
	}
	m := s/2 + 3*sigma + 2
	roi := image.Rect(int(cx-m), int(cy-m), int(cx+m)+1, int(cy+m)+1).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	if roi.Dx() < 2 || roi.Dy() < 2 {
		return nil, false
	}
	part := img.Region(roi)
	defer part.Close()
	src := part
	if sigma > 0 {
		blurred := gocv.NewMat()
		defer blurred.Close()
		gocv.GaussianBlur(part, &blurred, image.Point{}, sigma, sigma, gocv.BorderReflect101)
		src = blurred
	}
	x0, y0 := cx-float64(roi.Min.X), cy-float64(roi.Min.Y)
	M := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer M.Close()
	M.SetDoubleAt(0, 0, sc)
	M.SetDoubleAt(0, 2, netSide/2-sc*x0)
	M.SetDoubleAt(1, 1, sc)
	M.SetDoubleAt(1, 2, netSide/2-sc*y0)
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpAffineWithParams(src, &out, M, image.Pt(netSide, netSide), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	px, err := out.DataPtrUint8()
	if err != nil || len(px) != netSide*netSide*3 {
		return nil, false
	}
	return normalise(px), true
}

// normalise turns a netSide×netSide BGR crop into channel planes in [0,1], each less its
// mean, over the crop's spread (about the three channels' common mean, with n-1, as
// torch's std in training) plus 0.02, so that a flat crop's noise is not blown up.
func normalise(px []byte) []float32 {
	const plane = netSide * netSide
	x := make([]float32, 3*plane)
	var mean [3]float64
	for i := 0; i < plane; i++ {
		for c := 0; c < 3; c++ {
			v := float32(px[3*i+c]) / 255
			x[c*plane+i] = v
			mean[c] += float64(v)
		}
	}
	all := 0.0
	for c := range mean {
		mean[c] /= plane
		all += mean[c] / 3
	}
	ss := 0.0
	for c := 0; c < 3; c++ {
		for _, v := range x[c*plane : (c+1)*plane] {
			d := float64(v) - all
			ss += d * d
		}
	}
	sd := math.Sqrt(ss/float64(3*plane-1)) + 0.02
	for c := 0; c < 3; c++ {
		for i := range x[c*plane : (c+1)*plane] {
			x[c*plane+i] = float32((float64(x[c*plane+i]) - mean[c]) / sd)
		}
	}
	return x
}

// netAmbiguous reads with the face networks the dice refused because their pips fit two
// faces (values or places: see ambiguity), taking one of those values when both networks read
// it as netBlanks takes a die, at netBlankSure with every turn of three squares agreeing. The
// pips fit both readings; the networks look at the whole face (IMG_20191209_095958's dark
// green 2, re-encoded at JPEG quality 40, reads 2 or 1 depending on how its turn is
// measured). The die is then marked Net, so netConfirm checks the dice read from pips and
// every later check applies to it. Read calls it only for a photo still refused for
// ambiguous dice alone once the pips alone have been tried (see resolves): with a die the
// networks read, netConfirm, strict, can refuse a die read right from its pips
// (TestNetAmbiguous). A die whose pips read one value from other pips in each turn is left
// refused: those are pips of two faces, and the networks, seeing the whole die, may read its
// side face (TestNetAmbiguousPlaced).
func (r *Reader) netAmbiguous(img gocv.Mat, dice []Die) {
	if r.nets[0] == nil {
		return
	}
	side := dieSide(dice)
	for i, d := range dice {
		if d.Value != 0 || !d.amb.is() || d.amb.placed() || d.clutter || d.src.edge || d.src.wall {
			continue
		}
		cx, cy, s := netSquare(d, side)
		if v, p := r.netStrict(img, cx, cy, s); d.amb.allows(v) {
			dice[i].Value, dice[i].Confidence, dice[i].Why, dice[i].Net = v, p, "", true
		}
	}
}
