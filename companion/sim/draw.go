package sim

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
)

// Look is how one simulated roll looks: the tray, the light, each die's
// colours, size, place and rotation. RandomLook draws one at random within
// what a real tray under a camera looks like.
type Look struct {
	Width, Height int
	Tray          color.RGBA // felt colour at the centre
	Rim           color.RGBA // the tray's wooden border
	RimPx         int
	Light         float64   // brightness falloff towards the corners, 0..0.4
	Grain         float64   // felt texture amplitude, 0..1 (in 8-bit levels ×10)
	Seed          uint64    // texture noise seed
	Kit           []DieLook // the players' dice, unthrown
	Dice          []DieLook // the dice thrown
}

// DieLook is one die: its centre, side, rotation and colours.
type DieLook struct {
	Value  int
	X, Y   float64 // centre in pixels
	Side   float64 // side of the top face in pixels
	Angle  float64 // radians
	Face   color.RGBA
	Pip    color.RGBA
	Corner float64 // corner radius as a fraction of the side
	OnePip float64 // size of the single pip of a 1 relative to the others
}

// diceSets are colour schemes of ordinary dice: face, pips.
var diceSets = [][2]color.RGBA{
	{{245, 242, 230, 255}, {20, 20, 20, 255}},   // ivory, black pips
	{{250, 250, 250, 255}, {30, 30, 30, 255}},   // white
	{{200, 30, 35, 255}, {250, 250, 250, 255}},  // red, white pips
	{{25, 25, 28, 255}, {245, 245, 245, 255}},   // black, white pips
	{{30, 70, 170, 255}, {250, 250, 250, 255}},  // blue
	{{30, 140, 70, 255}, {250, 250, 250, 255}},  // green
	{{240, 200, 40, 255}, {20, 20, 20, 255}},    // yellow
	{{120, 50, 150, 255}, {250, 250, 250, 255}}, // purple
}

// trays are felt colours a dice tray comes in.
var trays = []color.RGBA{
	{40, 100, 60, 255},  // green felt
	{70, 70, 75, 255},   // grey felt
	{35, 60, 120, 255},  // blue felt
	{120, 35, 40, 255},  // burgundy
	{140, 110, 80, 255}, // light wood
}

// RandomLook is a random rig (RandomRig) with values thrown on it (Throw).
func RandomLook(rng *rand.Rand, w, h int, values []int) Look {
	return RandomRig(rng, w, h).Throw(rng, values)
}

// RandomRig is a tray under a camera: felt colour, rim, light falloff and
// texture, and the players' dice (one colour scheme, or a different one per
// die as when players bring their own), with no dice thrown yet.
func RandomRig(rng *rand.Rand, w, h int) Look {
	l := Look{
		Width: w, Height: h,
		Tray:  trays[rng.IntN(len(trays))],
		Rim:   color.RGBA{uint8(90 + rng.IntN(40)), uint8(60 + rng.IntN(25)), uint8(30 + rng.IntN(20)), 255},
		RimPx: h/20 + rng.IntN(h/30+1),
		Light: 0.1 + 0.25*rng.Float64(),
		Grain: 0.3 + 0.5*rng.Float64(),
		Seed:  rng.Uint64(),
	}
	set := l.contrasting(rng)
	mixed := rng.IntN(3) == 0
	side := float64(h) * (0.09 + 0.04*rng.Float64())
	for i := 0; i < 4; i++ {
		d := DieLook{Side: side * (0.97 + 0.06*rng.Float64()), Face: set[0], Pip: set[1],
			Corner: 0.12 + 0.1*rng.Float64(), OnePip: 1 + 0.5*rng.Float64()}
		if mixed {
			s := l.contrasting(rng)
			d.Face, d.Pip = s[0], s[1]
		}
		l.Kit = append(l.Kit, d)
	}
	return l
}

// Throw places the rig's dice showing values at random places and angles,
// never overlapping (touching is allowed).
func (l Look) Throw(rng *rand.Rand, values []int) Look {
	l.Dice = nil
	for i, v := range values {
		d := l.Kit[i%len(l.Kit)]
		d.Value, d.Angle = v, rng.Float64()*math.Pi/2
		d.X, d.Y = l.place(rng, d.Side)
		l.Dice = append(l.Dice, d)
	}
	return l
}

// Tray is the felt inside the rim: where dice land (a calibration's tray).
func (l Look) TrayRect() image.Rectangle {
	return image.Rect(l.RimPx, l.RimPx, l.Width-l.RimPx, l.Height-l.RimPx)
}

// contrasting picks a dice colour scheme that stands out from the tray, as
// nobody plays green dice on green felt.
func (l *Look) contrasting(rng *rand.Rand) [2]color.RGBA {
	for {
		s := diceSets[rng.IntN(len(diceSets))]
		dr, dg, db := float64(s[0].R)-float64(l.Tray.R), float64(s[0].G)-float64(l.Tray.G), float64(s[0].B)-float64(l.Tray.B)
		if math.Sqrt(dr*dr+dg*dg+db*db) > 90 {
			return s
		}
	}
}

// place finds a centre inside the tray at least a die's diagonal away from
// every die placed so far (touching but never overlapping).
func (l *Look) place(rng *rand.Rand, side float64) (float64, float64) {
	m := float64(l.RimPx) + side*0.9
	var x, y float64
	for try := 0; try < 500; try++ {
		x = m + rng.Float64()*(float64(l.Width)-2*m)
		y = m + rng.Float64()*(float64(l.Height)-2*m)
		ok := true
		for _, d := range l.Dice {
			if math.Hypot(x-d.X, y-d.Y) < (side+d.Side)*0.78 {
				ok = false
				break
			}
		}
		if ok {
			return x, y
		}
	}
	return x, y
}

// Draw renders the look as a camera frame seen from straight above.
func Draw(l Look) *image.RGBA {
	img := Background(l)
	DrawDice(img, l)
	return img
}

// Background draws the empty tray.
func Background(l Look) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
	cx, cy := float64(l.Width)/2, float64(l.Height)/2
	diag := math.Hypot(cx, cy)
	for y := 0; y < l.Height; y++ {
		for x := 0; x < l.Width; x++ {
			dx, dy := (float64(x)-cx)/diag, (float64(y)-cy)/diag
			fall := 1 - l.Light*(dx*dx+dy*dy)
			c := l.Tray
			if x < l.RimPx || y < l.RimPx || x >= l.Width-l.RimPx || y >= l.Height-l.RimPx {
				c = l.Rim
				fall *= 1 + 0.08*math.Sin(float64(y+2*x)/7) // wood grain
			}
			n := (noise(l.Seed, x, y) - 0.5) * l.Grain * 10
			img.SetRGBA(x, y, shade(c, fall, n))
		}
	}
	return img
}

// DrawDice draws the thrown dice and their shadows onto img.
func DrawDice(img *image.RGBA, l Look) {
	for _, d := range l.Dice {
		drawShadow(img, d)
	}
	for _, d := range l.Dice {
		drawDie(img, d)
	}
}

// pipOffsets are the canonical pip places in units of the pip spacing.
var pipOffsets = [7][][2]float64{
	1: {{0, 0}},
	2: {{-1, -1}, {1, 1}},
	3: {{-1, -1}, {0, 0}, {1, 1}},
	4: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	5: {{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}},
	6: {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}},
}

func drawShadow(img *image.RGBA, d DieLook) {
	off := d.Side * 0.06
	half := d.Side / 2
	forBox(img, d, d.Side*0.2, func(x, y int, u, v float64) {
		u, v = u-off, v-off
		s := roundBox(u, v, half, half*2*d.Corner) - d.Side*0.06
		a := clamp01(-s/(d.Side*0.12)) * 0.35
		if a > 0 {
			img.SetRGBA(x, y, mix(img.RGBAAt(x, y), color.RGBA{0, 0, 0, 255}, a))
		}
	})
}

func drawDie(img *image.RGBA, d DieLook) {
	half := d.Side / 2
	r := d.Side * d.Corner
	spacing := d.Side * 0.27
	pr := d.Side * 0.085
	pips := pipOffsets[d.Value]
	forBox(img, d, 2, func(x, y int, u, v float64) {
		s := roundBox(u, v, half, r)
		a := clamp01(0.5 - s) // anti-aliased edge
		if a <= 0 {
			return
		}
		// A bevel darkens the rim; a soft highlight from the top left.
		bevel := clamp01(-s / (d.Side * 0.08))
		light := 0.78 + 0.22*bevel - 0.06*(u+v)/d.Side
		face := shade(d.Face, light, 0)
		for _, p := range pips {
			rr := pr
			if d.Value == 1 {
				rr *= d.OnePip
			}
			ps := math.Hypot(u-p[0]*spacing, v-p[1]*spacing) - rr
			if pa := clamp01(0.5 - ps); pa > 0 {
				face = mix(face, d.Pip, pa)
			}
		}
		img.SetRGBA(x, y, mix(img.RGBAAt(x, y), face, a))
	})
}

// forBox calls f for every pixel near the die with the pixel's coordinates in
// the die's own frame (origin at its centre, axes along its sides).
func forBox(img *image.RGBA, d DieLook, pad float64, f func(x, y int, u, v float64)) {
	ext := d.Side*0.75 + pad
	b := img.Bounds()
	sin, cos := math.Sincos(d.Angle)
	for y := max(b.Min.Y, int(d.Y-ext)); y < min(b.Max.Y, int(d.Y+ext)+1); y++ {
		for x := max(b.Min.X, int(d.X-ext)); x < min(b.Max.X, int(d.X+ext)+1); x++ {
			dx, dy := float64(x)+0.5-d.X, float64(y)+0.5-d.Y
			f(x, y, dx*cos+dy*sin, -dx*sin+dy*cos)
		}
	}
}

// roundBox is the signed distance from (u,v) to a square of half side h with
// corners rounded by r (negative inside).
func roundBox(u, v, h, r float64) float64 {
	qx, qy := math.Abs(u)-(h-r), math.Abs(v)-(h-r)
	out := math.Hypot(math.Max(qx, 0), math.Max(qy, 0))
	return out + math.Min(math.Max(qx, qy), 0) - r
}

// noise is a cheap deterministic hash noise in [0,1) for felt texture.
func noise(seed uint64, x, y int) float64 {
	h := seed ^ uint64(x)*0x9E3779B97F4A7C15 ^ uint64(y)*0xC2B2AE3D27D4EB4F
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	return float64(h>>11) / (1 << 53)
}

func shade(c color.RGBA, k, add float64) color.RGBA {
	f := func(v uint8) uint8 { return uint8(math.Max(0, math.Min(255, float64(v)*k+add))) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), 255}
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// values are the thrown dice's values, in throw order.
func (l Look) values() []int {
	v := make([]int, len(l.Dice))
	for i, d := range l.Dice {
		v[i] = d.Value
	}
	return v
}
