package camera

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// A die showing a 1 has a single pip, so the dice proposed from clusters of pips (see
// proposeFromPips) never include it, and on pale wood the finder often misses an ivory die
// altogether. Its face is still plain to see: a pip centred on a blank square that ends in an
// outline on every side. These are the limits of that square, measured from the pip.
const (
	// oneReach: the farthest a walk looks for the face's edge, in pip diameters.
	oneReach = 6
	// oneOff: how far off centre the pip may sit, as a fraction of the width across it
	// (a 1's pip is centred; the walks' ends are a pixel or two off, and a bevel blurs them).
	oneOff = 0.2
	// oneMinRatio, oneMaxRatio: the face's side in pip diameters (a 1's pip is a fifth to
	// a sixth of its side on the shared photos; 4.4 to 7.5 measured from the black-hat spot).
	oneMinRatio, oneMaxRatio = 3.5, 9
	// oneWidths: the longest width of the face over the shortest. A camera over a tray looks
	// down steeply, 42° or more (matteop65's rig is a little flatter than 45°: an ivory 1 in
	// dice_12.jpg measures 1.42), so the top face is foreshortened by no more than about
	// 1/sin 42° = 1.5.
	oneWidths = 1.5
	// oneBlob: an unread candidate holding the pip of a 1 found this way is that die seen
	// with its side faces and shadow when no more than this many sides long (a die turned
	// 45° spans √2 sides, and each side face seen from above 45° adds up to √½).
	oneBlob = 2.5
)

// grayImg is the picture's lightness as darkSpots sees it: 8-bit grey, scaled by scale.
type grayImg struct {
	w, h  int
	p     []byte
	scale float64
}

// at is the lightness at (x, y), nearest pixel, or -1 outside the picture.
func (g grayImg) at(x, y float64) float64 {
	xi, yi := int(x+0.5), int(y+0.5)
	if x < -0.5 || y < -0.5 || xi >= g.w || yi >= g.h {
		return -1
	}
	return float64(g.p[yi*g.w+xi])
}

// probeOne looks for the square outline of a face around the spot (x, y, diameter d, scaled
// pixels). The edges' turn comes from the 4-fold average of the gradient directions around
// the spot; then four walks from the pip along the edges' normals, each looking at a strip
// three pips long across the walk, stop where the strip's median falls below the face's
// lightness (next to the pip) by t: the median ignores a pip or a speck the strip crosses,
// so only a straight outline ends a walk. It returns the turn and the four walk lengths
// (along ang, ang+90°, ang+180°, ang+270°), or ok false unless the pip is centred between
// opposite outlines (within off of their distance) on both axes, the face no longer than
// oneWidths times its width, or on one axis with the third outline half that distance
// away, or less in a foreshortened face, and the fourth missing or further (see below).
func probeOne(g grayImg, x, y, d, reach, t, off float64) (ang float64, walk [4]float64, ok bool) {
	// Stride 2: the turn of edges a few pips long needs no more.
	rt := math.Min(reach, 4.5*d)
	x0, x1 := max(1, int(x-rt)), min(g.w-2, int(x+rt))
	y0, y1 := max(1, int(y-rt)), min(g.h-2, int(y+rt))
	var c4, s4 float64
	for yy := y0; yy <= y1; yy += 2 {
		for xx := x0; xx <= x1; xx += 2 {
			dx, dy := float64(xx)-x, float64(yy)-y
			if r2 := dx*dx + dy*dy; r2 > rt*rt || r2 < d*d {
				continue
			}
			i := yy*g.w + xx
			gx := float64(g.p[i+1]) - float64(g.p[i-1])
			gy := float64(g.p[i+g.w]) - float64(g.p[i-g.w])
			w := gx*gx + gy*gy
			if w == 0 {
				continue
			}
			c2, s2 := (gx*gx-gy*gy)/w, 2*gx*gy/w
			c4 += w * (c2*c2 - s2*s2)
			s4 += w * 2 * c2 * s2
		}
	}
	if c4 == 0 && s4 == 0 {
		return 0, walk, false
	}
	ang = math.Atan2(s4, c4) / 4
	// Nine samples across, a pip's width and a half each way.
	var strip [9]float64
	line := func(k int, r float64) float64 {
		a := ang + float64(k)*math.Pi/2
		ux, uy := math.Cos(a), math.Sin(a)
		for i := range strip {
			s := (float64(i) - 4) * 1.5 * d / 4
			v := g.at(x+r*ux-s*uy, y+r*uy+s*ux)
			if v < 0 {
				return -1
			}
			strip[i] = v
		}
		return nth(strip[:], 4) // the strip is ours: select in place
	}
	var near []float64
	for k := 0; k < 4; k++ {
		for r := d; r <= 1.5*d; r++ {
			if v := line(k, r); v >= 0 {
				near = append(near, v)
			}
		}
	}
	if len(near) == 0 {
		return 0, walk, false
	}
	face := median(near)
	if face < t {
		return 0, walk, false
	}
	// The four walks, each no further than reach; an open side may be missing (0).
	open := -1
	for k := 0; k < 4; k++ {
		for r := d; r <= reach; r++ {
			v := line(k, r)
			if v < 0 {
				break
			}
			if v < face-t {
				walk[k] = r
				break
			}
		}
		if walk[k] == 0 {
			if open >= 0 {
				return ang, walk, false
			}
			open = k
		}
	}
	centred := func(k int) bool { return math.Abs(walk[k]-walk[k+2]) <= off*(walk[k]+walk[k+2]) }
	if open < 0 && centred(0) && centred(1) {
		a, b := walk[0]+walk[2], walk[1]+walk[3]
		return ang, walk, math.Max(a, b) <= oneWidths*math.Min(a, b)
	}
	// In an oblique view one side of the top face may run into a side face as pale as
	// itself: the walk there finds no outline, or one beyond the crease, further than the
	// others. The face is then that of the other axis's width, centred on the pip.
	if open < 0 {
		// The longest walk, if the only one off centre, is taken for the open side.
		for k := 0; k < 4; k++ {
			if open < 0 || walk[k] > walk[open] {
				open = k
			}
		}
	}
	k2 := (open + 1) % 2 // the other axis
	if !centred(k2) {
		return ang, walk, false
	}
	a := walk[k2] + walk[k2+2]
	opp := walk[(open+2)%4]
	if walk[open] != 0 && walk[open] < opp {
		return ang, walk, false
	}
	if math.Abs(2*opp-a) <= off*a {
		walk[open] = a - opp
		return ang, walk, true
	}
	// Foreshortened: the face's outline across the open side, then, is as far from the pip
	// as the opposite one, and the face no narrower than 1/oneWidths of its width (the
	// camera looks down steeply). The side face seen is the one towards the camera:
	// the dice's vertical edges converge below the picture, so the open side must point
	// down in it (within 45°), away from the foreshortened face's far outline.
	if 2*opp > a || 2*opp < (1-off)*a/oneWidths || math.Sin(ang+float64(open)*math.Pi/2) < 1/math.Sqrt2 {
		return ang, walk, false
	}
	walk[open] = opp
	return ang, walk, true
}

// oneDice adds the dice showing a 1 that the finder missed, or found only as an unreadable
// blob, to dice (all dice found so far, image offset off), proposing each from a dark spot
// that sits at the centre of a blank square face (see probeOne), and returns the new list.
// A false 1 is a misread, and a lone dark spot is common (a key's symbol, a knot in the
// wood, a cable's end), so the square must pass every test a die's face passes, and the face
// reader must then read it as a clean 1.
func (r *Reader) oneDice(img gocv.Mat, off image.Point, spots []darkSpot, g grayImg, dice []Die) []Die {
	// No smaller than the smallest blob findDice keeps.
	minSide := 0.012 * float64(max(img.Cols(), img.Rows()))
	// The dice read in the photo give the die's size: a face's box is up to √2 its side
	// (turned 45°), and perspective makes near dice up to about twice as big as far ones,
	// so a face more than three times bigger or smaller than their median box is no die.
	var boxes []float64
	for _, d := range dice {
		if d.Value > 0 {
			boxes = append(boxes, math.Sqrt(float64(d.Box.Dx()*d.Box.Dy())))
		}
	}
	size := median(boxes)
	inRead := func(p image.Point) bool {
		for _, d := range dice {
			if d.Value > 0 && p.In(d.Box.Sub(off)) {
				return true
			}
		}
		return false
	}
	// A 1's face is blank but for its pip (see below), and reaches at least 1.5 pips from it
	// every way (4.4 pips wide at least, foreshortened by √2 at most): a 1 read with a spot
	// like a pip nearer is a lone pip of some other face (a side face's 4 cut apart).
	for i, d := range dice {
		if d.Value != 1 || len(d.Pips) != 1 {
			continue
		}
		p := d.Pips[0].Sub(off)
		px, py := float64(p.X), float64(p.Y)
		pd := 0.0
		for _, o := range spots {
			if math.Hypot(o.x-px, o.y-py) < math.Max(2, o.d/2) {
				pd = math.Max(pd, o.d)
			}
		}
		for _, o := range spots {
			if r := math.Hypot(o.x-px, o.y-py); pd > 0 && o.d > pd/2 && r > pd/2 && r < 1.5*pd {
				dice[i].Value, dice[i].Why = 0, "a 1 with another pip beside its own"
				break
			}
		}
	}
	for _, s := range spots {
		if j := readAt(dice, image.Pt(int(s.x), int(s.y)).Add(off)); j >= 0 {
			// A pip of a die already read. If that die is a 2 but this pip is the centre of
			// a 1's face outlined all round, its other pip on another face, the die reads
			// either way (a top face's 1 and a side face's pip read as a 2): it is left unread.
			if dice[j].Value == 2 && r.contested(img, off, s, g, spots, dice[j]) {
				dice[j].Why = fmt.Sprintf("ambiguous: reads %d, or 1 from a face outlined around one pip", dice[j].Value)
				dice[j].Value, dice[j].amb = 0, ambiguity{a: 2, b: 1}
			}
			continue
		}
		f, c, ok := r.oneFace(img, s, g, spots, minSide, size)
		if !ok {
			continue
		}
		one := f.die(c, off)
		if inRead(one.Box.Min.Add(one.Box.Max).Div(2).Sub(off)) || overlapsRead(one.Box, dice) {
			continue
		}
		// Dice cannot overlap: an unread candidate that holds this pip, is centred less than
		// a side from the face and is no longer than one die seen obliquely is this die (its
		// top face with its side faces, whose pips fit no layout).
		// One whose blob meets the picture's edge may be cut, this pip the one its cut left
		// (a 4's corner pip): it stays refused.
		kept, cut := dice[:0:0], false
		for _, d := range dice {
			ctr := d.Box.Min.Add(d.Box.Max).Div(2).Sub(off)
			b := d.Box.Sub(off)
			if d.Value == 0 && math.Hypot(float64(ctr.X)-c.r.cx, float64(ctr.Y)-c.r.cy) < c.side &&
				image.Pt(int(s.x), int(s.y)).In(b) && float64(max(b.Dx(), b.Dy())) <= oneBlob*c.side {
				cut = cut || d.src.edge
				continue
			}
			kept = append(kept, d)
		}
		if !cut {
			dice = append(kept, one)
		}
	}
	return dice
}

// oneFace reads the face of a 1 around the spot s (see oneDice): it returns the face and
// the candidate read, and ok only for a sure 1 on a face outlined all round.
func (r *Reader) oneFace(img gocv.Mat, s darkSpot, g grayImg, spots []darkSpot, minSide, size float64) (face, cand, bool) {
	sc := g.scale
	x, y, d := (s.x+0.5)*sc-0.5, (s.y+0.5)*sc-0.5, s.d*sc
	ang, w, ok := probeOne(g, x, y, d, oneReach*d, r.o.MinContrast, oneOff)
	if !ok {
		return face{}, cand{}, false
	}
	a, b := w[0]+w[2], w[1]+w[3]
	side := (a + b) / 2
	if side < oneMinRatio*d || side > oneMaxRatio*d || side/sc < minSide || size > 0 && math.Abs(math.Log(side/sc/size)) > math.Log(3) {
		return face{}, cand{}, false
	}
	// The face's centre: midway between its edges.
	ca, sa := math.Cos(ang), math.Sin(ang)
	du, dv := (w[0]-w[2])/2, (w[1]-w[3])/2
	cx, cy := x+ca*du-sa*dv, y+sa*du+ca*dv
	c0x, c0y := (cx+0.5)/sc-0.5, (cy+0.5)/sc-0.5
	// A 1's face is blank but for its pip: a spot like a pip elsewhere on the face
	// makes it another value (a 3's centre pip between its corners).
	other := false
	for _, o := range spots {
		u, v := ca*(o.x-c0x)+sa*(o.y-c0y), -sa*(o.x-c0x)+ca*(o.y-c0y)
		other = other || o != s && o.d > s.d/2 && math.Max(math.Abs(u), math.Abs(v)) < side/sc/2
	}
	if other {
		return face{}, cand{}, false
	}
	// The face as the pip proposals see it (see pipDice): paler than the ring around
	// it, and ending in an outline, here on all four sides: one pip, unlike a layout of
	// several, says nothing of its own that it lies on a die. Then the face reader must
	// read a 1 surely, at every pip threshold, with no pip left out on the face.
	c := cand{r: rotRect{cx: c0x, cy: c0y, w: side / sc, h: side / sc, ang: ang}, side: side / sc}
	fL, ringL, ends := faceRegion(img, c, s.d/2/c.side, r.o.MinContrast)
	if fL < ringL+r.o.MinContrast/2 || ends < 4 {
		return face{}, cand{}, false
	}
	// Its outline seen all round, the face ends there: a spot beyond it is on another
	// face, and no partner of the pip in a 2 (a side face's pip in an oblique view).
	c.outlined = true
	f := r.readFace(img, c)
	if f.value != 1 || f.amb.is() || f.mixed || f.conf < 2*r.o.MinConfidence || pipInside(f, c) || !outlineInPicture(c.r, img) {
		return face{}, cand{}, false
	}
	return f, c, true
}

// overlapsRead says whether a quarter or more of box b (frame pixels) lies in the box of a
// die read. Dice cannot overlap: a 1 proposed there is a side face of that die, its lone pip
// just beyond the top face (a read die's box is at most √2 times its face when turned, so a
// neighbour touching it overlaps less).
func overlapsRead(b image.Rectangle, dice []Die) bool {
	a := b.Dx() * b.Dy()
	for _, d := range dice {
		if i := b.Intersect(d.Box); d.Value > 0 && 4*i.Dx()*i.Dy() >= a {
			return true
		}
	}
	return false
}

// readAt is the index of the read die whose box holds p (frame pixels), or -1.
func readAt(dice []Die, p image.Point) int {
	for i, d := range dice {
		if d.Value > 0 && p.In(d.Box) {
			return i
		}
	}
	return -1
}

// contested says whether the pip s of the die d (read as a 2; off: the image's offset in
// the frame) is the centre of a sure 1's face outlined all round (oneFace) with
// every other pip of d on another face: beyond its outline by a pip's width at least, as a
// side face's pips lie inside its own edges. A pip of a 4 or 2 seen as the centre of a face
// reaching just short of its neighbours is no such case.
func (r *Reader) contested(img gocv.Mat, off image.Point, s darkSpot, g grayImg, spots []darkSpot, d Die) bool {
	minSide := 0.012 * float64(max(img.Cols(), img.Rows()))
	_, c, ok := r.oneFace(img, s, g, spots, minSide, 0)
	if !ok {
		return false
	}
	ca, sa := math.Cos(c.r.ang), math.Sin(c.r.ang)
	for _, p := range d.Pips {
		x, y := float64(p.X-off.X)-c.r.cx, float64(p.Y-off.Y)-c.r.cy
		if math.Hypot(float64(p.X-off.X)-s.x, float64(p.Y-off.Y)-s.y) < s.d {
			continue // s itself
		}
		if math.Max(math.Abs(ca*x+sa*y), math.Abs(-sa*x+ca*y)) < c.side/2+s.d {
			return false
		}
	}
	return true
}
