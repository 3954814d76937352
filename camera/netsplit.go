package camera

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

const (
	// splitStep is the coarse grid netSplit scans a refused blob on, in die sides: a die's
	// centre is then within a third of a side of a grid point, where the face networks, trained
	// on crops jittered that much, still see its face.
	splitStep = 1.0 / 3
	// splitSeen is the least probability of a top face (1 less that of none), by the first
	// network on the crop as it is, at which a grid point may be a die's centre.
	splitSeen = 0.5
	// splitGrid is the most grid points netSplit scans in one box (a box 3 sides square): more
	// than a handful of dice, a hand, a box's frame. Two ivory dice seen obliquely, their side
	// faces in the blob (matteop65/six_20), take 72.
	splitGrid = 100
	// splitApart is how far apart, in die sides, two peaks of a box must be to be two faces.
	splitApart = 0.75
	// besideRoom is how far, in face sizes, a read die's blob must reach beyond its face on
	// one side for missedBeside to look in it: room for another face (1.5 in
	// IMG_20191209_095613). A die's shadow and side faces reach less in nine blobs of ten,
	// which are then not scanned: scanning them all trebled the reader's median time.
	besideRoom = 1.0
	// splitMeasured: a refused box no scan at the picture's side reads is scanned again at
	// the size of the dice read from their pips, when the side guessed from the blobs is this
	// much bigger (IMG_20191209_100026: 47 px guessed, its 5 and 6 are 34 and 37). Scanned at
	// that size first, boxes read now were lost (BENCHMARKS-dice.md).
	splitMeasured = 1.3
)

// netSplit reads touching dice that no way of cutting their blob told apart (a red 5 pressed
// between two 3s, two ivory 1s side by side) by where the face networks see a top face: a die's
// face fills the network's square only when the square is centred on it, so the probability of
// "no top face" dips at each die's centre and rises between them. Each refused die's box is
// scanned on a coarse grid, the peaks refined and each read by netVote's rule at netBlankSure
// with no turn dissenting, as netBlanks reads a blank blob, and the pip reader, read at the peak,
// finds no other value. The refused die is replaced only when the box holds two faces or more
// (one face is netRead's) and every peak that is not a die already read is so read: a peak the
// networks cannot read may be a die that would go missing. The dice added are marked Net, so
// netConfirm checks the others and every later check applies to them. The blobs of dice read
// from their pips are looked in too, for a die their cut missed (missedBeside).
// A box the scan cannot read is scanned again at the read dice's size where the picture's
// side, guessed from blobs with their shadows, is far bigger (splitMeasured).
func (r *Reader) netSplit(img gocv.Mat, off image.Point, dice []Die) []Die {
	if r.nets[0] == nil {
		return dice
	}
	side := dieSide(dice)
	if side <= 0 {
		return dice
	}
	var read, out, added []Die
	for _, d := range dice {
		if d.Value > 0 {
			read = append(read, d)
		}
	}
	measured := measuredSide(dice)
	for _, d := range dice {
		added = append(added, r.missedBeside(img, off, d, read, added, side)...)
		if d.Value != 0 || d.clutter || d.amb.is() || d.src.edge || d.src.wall || !twoWide(d.Box, side) {
			out = append(out, d)
			continue
		}
		got, ok := r.splitBlob(img, off, d, read, added, side, false)
		if !ok && guessTooBig(side, measured) {
			got, ok = r.splitBlob(img, off, d, read, added, measured, false)
		}
		if !ok {
			out = append(out, d)
			continue
		}
		added = append(added, got...)
	}
	return append(out, added...)
}

// missedBeside looks in the blob of a die read from its pips for a die its cut missed (a red 2
// touching the red 4 above it, both in the 4's blob: IMG_20191209_095613). The blob is scanned
// as netSplit scans a refused one, but with the read die as a measure (splitBlob's known): the
// picture's side, guessed from blobs with their shadows, can be half as big again as the dice,
// and the die found, next to one already read, must not be taken for it. A die found must lie
// at least the read die's box from its face: two dice's top faces cannot overlap, while its own
// side face, which the networks read as a face (matteop65/three_27's 5 below its 3), lies
// nearer. It is boxed as the read die is: one game's dice are one size. A 1's face is its
// blob, so 1s, and dice read by the networks, which have no fitted face, are not looked beside.
func (r *Reader) missedBeside(img gocv.Mat, off image.Point, d Die, read, added []Die, side float64) []Die {
	if d.Value < 2 || d.Net || d.fc.w == 0 || d.src.r.w == 0 {
		return nil
	}
	x0, y0, x1, y1 := d.src.r.bounds()
	fx0, fy0, fx1, fy1 := d.fc.bounds()
	if math.Max(math.Max(fx0-x0, x1-fx1), math.Max(fy0-y0, y1-fy1)) < besideRoom*math.Max(fx1-fx0, fy1-fy0) {
		return nil
	}
	blob := d
	blob.Box = image.Rect(int(x0), int(y0), int(x1+1), int(y1+1)).Add(off)
	if !twoWide(blob.Box, side) {
		return nil
	}
	got, ok := r.splitBlob(img, off, blob, read, added, side, true)
	if !ok {
		return nil
	}
	reach, h := float64(max(d.Box.Dx(), d.Box.Dy())), d.Box.Size().Div(2)
	for i, g := range got {
		if math.Hypot(g.src.r.cx-d.fc.cx, g.src.r.cy-d.fc.cy) < reach {
			return nil
		}
		c := g.Box.Min.Add(g.Box.Max).Div(2)
		got[i].Box = image.Rectangle{c.Sub(h), c.Add(h)}
	}
	return got
}

// splitBlob reads the dice in refused die d's box (see netSplit); ok is false when they
// cannot all be read. known: d was read from its pips and the box is its blob (see
// missedBeside); peaks nearer than splitApart sides are then kept apart where seen dips
// between them, and each is read in a square no wider than netCrop times the distance to
// the nearest other peak, so that it does not take in the die read.
func (r *Reader) splitBlob(img gocv.Mat, off image.Point, d Die, read, added []Die, side float64, known bool) ([]Die, bool) {
	b := d.Box.Sub(off)
	x0, y0 := float64(b.Min.X), float64(b.Min.Y)
	x1, y1 := float64(b.Max.X), float64(b.Max.Y)
	s := netCrop * side
	seen := func(x, y float64) float64 {
		in, ok := netInput(img, x, y, s)
		if !ok {
			return 0
		}
		return 1 - r.nets[0].probs(in)[0]
	}
	step := splitStep * side
	nx, ny := int(math.Ceil((x1-x0)/step))+1, int(math.Ceil((y1-y0)/step))+1
	if nx*ny > splitGrid {
		return nil, false
	}
	grid := make([]float64, nx*ny)
	at := func(i, j int) (float64, float64) {
		return x0 + (x1-x0)*float64(i)/math.Max(1, float64(nx-1)), y0 + (y1-y0)*float64(j)/math.Max(1, float64(ny-1))
	}
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			grid[j*nx+i] = seen(at(i, j))
		}
	}
	type peak struct{ x, y, p float64 }
	var peaks []peak
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			p := grid[j*nx+i]
			top := p >= splitSeen
			for dj := -1; dj <= 1 && top; dj++ {
				for di := -1; di <= 1; di++ {
					if u, v := i+di, j+dj; (di != 0 || dj != 0) && u >= 0 && v >= 0 && u < nx && v < ny && grid[v*nx+u] > p {
						top = false
					}
				}
			}
			if !top {
				continue
			}
			// Climb to the face's centre in steps of a twelfth of a side.
			x, y := at(i, j)
			for k := 0; k < 6; k++ {
				bx, by, bp := x, y, p
				for _, o := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					u, v := x+o[0]*side/12, y+o[1]*side/12
					if q := seen(u, v); q > bp {
						bx, by, bp = u, v, q
					}
				}
				if bp == p {
					break
				}
				x, y, p = bx, by, bp
			}
			peaks = append(peaks, peak{x, y, p})
		}
	}
	sort.Slice(peaks, func(i, j int) bool { return peaks[i].p > peaks[j].p })
	var kept []peak
	for _, p := range peaks {
		alone := true
		for _, q := range kept {
			alone = alone && (math.Hypot(p.x-q.x, p.y-q.y) >= splitApart*side || known && dipsBetween(p.x, p.y, p.p, q.x, q.y, q.p, side, seen))
		}
		if alone {
			kept = append(kept, p)
		}
	}
	if len(kept) < 2 {
		return nil, false // one face: netRead's to read, at the candidate's centre
	}
	var out []Die
	split := false // a peak is a die this split reads, or another refused box's split did
	for _, p := range kept {
		here := Die{src: cand{r: rotRect{cx: p.x, cy: p.y}}}
		if near(here, added, 0.6*side, off) {
			split = true
			continue
		}
		if near(here, read, 0.6*side, off) {
			continue // a die already read
		}
		if ds := s / netCrop; !inPicture(rotRect{cx: p.x, cy: p.y, w: ds, h: ds}.grown(netInside*ds), img.Cols(), img.Rows()) {
			return nil, false
		}
		ps := s
		for _, q := range kept {
			if known && q != p {
				ps = math.Min(ps, netCrop*math.Hypot(p.x-q.x, p.y-q.y))
			}
		}
		v, conf := r.netStrict(img, p.x, p.y, ps)
		if v == 0 {
			return nil, false
		}
		c := d.src
		c.r = rotRect{cx: p.x, cy: p.y, w: side, h: side}
		c.side, c.die, c.lone, c.edge, c.wall = side, side, false, false, false
		f := r.readFace(img, c)
		if f.value != 0 && f.value != v {
			return nil, false
		}
		n := Die{Value: v, Confidence: conf, Net: true, src: c, col: f.col}
		h := side / 2
		n.Box = image.Rect(int(p.x-h), int(p.y-h), int(p.x+h+1), int(p.y+h+1)).Add(off)
		out = append(out, n)
	}
	return out, split || len(out) > 0
}

// dipsBetween says whether seen dips between two of its peaks, at (x0, y0) and (x1, y1) with
// values p0 and p1, at least half a side apart (below 0.8 of the lower, a quarter, half or
// three quarters of the way): two faces, where one face's own peak spreads flat over it.
func dipsBetween(x0, y0, p0, x1, y1, p1, side float64, seen func(x, y float64) float64) bool {
	if math.Hypot(x1-x0, y1-y0) < 0.5*side {
		return false
	}
	lo := math.Min(p0, p1)
	for _, f := range []float64{0.25, 0.5, 0.75} {
		if seen(x0+f*(x1-x0), y0+f*(y1-y0)) < 0.8*lo {
			return true
		}
	}
	return false
}

// twoWide says whether a box is wide enough, one way, to hold two dice's centres netSplit
// keeps apart (splitApart side) with a margin: touching dice in one blob make a box 1.3
// sides long or more, one die with its shadow one of about 1.1.
func twoWide(b image.Rectangle, side float64) bool {
	return float64(max(b.Dx(), b.Dy())) >= 1.2*side
}

// guessTooBig says whether the picture's die side guessed from the blobs (with their
// shadows) is more than splitMeasured times measured, the size of the dice read (measuredSide;
// 0 when none was read from its pips): a die is then small in the networks' square.
func guessTooBig(guess, measured float64) bool {
	return measured > 0 && splitMeasured*measured < guess
}

// measuredSide is the median box of the dice read from two pips or more: the dice's size as
// their faces show it, where the picture's side is guessed from blobs with their shadows.
func measuredSide(dice []Die) float64 {
	var faces []float64
	for _, d := range dice {
		if d.Value >= 2 && !d.Net && d.fc.w > 0 {
			faces = append(faces, float64(max(d.Box.Dx(), d.Box.Dy())))
		}
	}
	return median(faces)
}
