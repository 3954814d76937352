package dicebench

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"gocv.io/x/gocv"
)

// A Variation changes a picture without changing the dice in it: another camera, another
// light, another way up. The bench applies one to every photo to measure how the reader
// holds up on rigs it has not seen (the shared photos come from a few rigs only).
type Variation func(gocv.Mat) gocv.Mat

// variations returns the named variations: rotations, scales, exposure, gamma, JPEG
// compression, a colour cast, a soft focus, sensor noise, uneven light and the negative, each
// a plausible difference between two rigs.
func variations() map[string]Variation {
	return map[string]Variation{
		"rot90":     rotate(gocv.Rotate90Clockwise),
		"rot180":    rotate(gocv.Rotate180Clockwise),
		"scale0.6":  rescale(0.6, gocv.InterpolationArea),
		"scale1.5":  rescale(1.5, gocv.InterpolationLinear),
		"bright0.6": curve(func(_ int, v float64) float64 { return 0.6 * v }),
		"bright1.4": curve(func(_ int, v float64) float64 { return 1.4 * v }),
		"gamma0.7":  curve(func(_ int, v float64) float64 { return 255 * math.Pow(v/255, 0.7) }),
		"gamma1.5":  curve(func(_ int, v float64) float64 { return 255 * math.Pow(v/255, 1.5) }),
		"jpeg40":    recompress(40),
		"blur":      soften(0.0025),
		"noise8":    noise(8),
		"blue0.8": curve(func(c int, v float64) float64 {
			if c == 0 { // BGR: a warmer light, less blue
				return 0.8 * v
			}
			return v
		}),
		// Uneven light (x, y from 0 to 1 across the picture): a wide lens without shading
		// correction, dimmer by 45% in the corners; a lamp at one side, half the light at
		// the far corner. Not among the twelve the benchmark totals, which were settled first.
		"vignette": light(func(x, y float64) float64 { return 1 - 0.45*((2*x-1)*(2*x-1)+(2*y-1)*(2*y-1))/2 }),
		"lamp":     light(func(x, y float64) float64 { return 1 - 0.25*(x+y) }),
		// The negative: dark dice with light pips on a dark tray, from pale ones (harder than
		// a real one: shadows turn to light, and hues to their opposites).
		"invert": curve(func(_ int, v float64) float64 { return 255 - v }),
	}
}

// Variations lists the names VariationNamed accepts.
func Variations() []string {
	var names []string
	for n := range variations() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// VariationNamed returns the variation of that name (see Variations), noise8@SEED: noise8
// drawn from another seed, another frame of the same sensor (noise8 is noise8@1), or scaleK:
// the picture resized by any K from 0.2 to 4 (scale0.6 and scale1.5 are two of them), or
// jpegQ: recompressed at any JPEG quality Q from 1 to 100 (jpeg40 is one).
// Names joined by "+" apply in turn, left first: "blur+noise8@3" is a soft lens's frame
// with its sensor noise, as a real rig has both.
func VariationNamed(name string) (Variation, error) {
	if parts := strings.Split(name, "+"); len(parts) > 1 {
		var vs []Variation
		for _, p := range parts {
			v, err := variationNamed(p)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
		return func(m gocv.Mat) gocv.Mat {
			d := m.Clone()
			for _, v := range vs {
				n := v(d)
				d.Close()
				d = n
			}
			return d
		}, nil
	}
	return variationNamed(name)
}

func variationNamed(name string) (Variation, error) {
	if v, ok := variations()[name]; ok {
		return v, nil
	}
	if k, ok := strings.CutPrefix(name, "scale"); ok {
		// Any other scale: dice bigger or smaller in the picture, as a camera mounted lower
		// or higher, or at another resolution, sees them (BENCHMARKS-dice.md, "How small
		// dice may be").
		s, err := strconv.ParseFloat(k, 64)
		if err != nil || !(s >= 0.2 && s <= 4) {
			return nil, fmt.Errorf("picture variation %q: the factor after scale must be a number from 0.2 to 4, as in scale0.5", name)
		}
		if s < 1 {
			return rescale(s, gocv.InterpolationArea), nil
		}
		return rescale(s, gocv.InterpolationLinear), nil
	}
	if k, ok := strings.CutPrefix(name, "jpeg"); ok {
		// Any other JPEG quality: 50 is what rpicam-vid streams unless told otherwise.
		q, err := strconv.Atoi(k)
		if err != nil || q < 1 || q > 100 {
			return nil, fmt.Errorf("picture variation %q: the quality after jpeg must be a whole number from 1 to 100, as in jpeg50", name)
		}
		return recompress(q), nil
	}
	if seed, ok := strings.CutPrefix(name, "noise8@"); ok {
		n, err := strconv.ParseUint(seed, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("picture variation %q: the seed after noise8@ must be a whole number, as in noise8@7", name)
		}
		return noiseSeeded(8, n), nil
	}
	return nil, fmt.Errorf("no picture variation %q: use one of %s, noise8@SEED, scaleK or jpegQ", name, strings.Join(Variations(), ", "))
}

func rotate(code gocv.RotateFlag) Variation {
	return func(m gocv.Mat) gocv.Mat {
		d := gocv.NewMat()
		gocv.Rotate(m, &d, code)
		return d
	}
}

func rescale(s float64, in gocv.InterpolationFlags) Variation {
	return func(m gocv.Mat) gocv.Mat {
		d := gocv.NewMat()
		size := image.Pt(int(math.Round(float64(m.Cols())*s)), int(math.Round(float64(m.Rows())*s)))
		gocv.Resize(m, &d, size, 0, 0, in)
		return d
	}
}

// curve maps each channel c (0 blue, 1 green, 2 red) of every pixel through f, clipped to
// 0-255: exposure, gamma and colour casts.
func curve(f func(c int, v float64) float64) Variation {
	return func(m gocv.Mat) gocv.Mat {
		t := gocv.NewMatWithSize(1, 256, gocv.MatTypeCV8UC3)
		defer t.Close()
		for i := 0; i < 256; i++ {
			for c := 0; c < 3; c++ {
				t.SetUCharAt(0, i*3+c, uint8(math.Max(0, math.Min(255, math.Round(f(c, float64(i)))))))
			}
		}
		d := gocv.NewMat()
		gocv.LUT(m, t, &d)
		return d
	}
}

// light multiplies every pixel by gain(x, y), x and y its place from 0 to 1 across the
// picture, clipped to 0-255: light that falls unevenly on the tray.
func light(gain func(x, y float64) float64) Variation {
	return func(m gocv.Mat) gocv.Mat {
		b, w, h := m.ToBytes(), m.Cols(), m.Rows()
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				g := gain(float64(x)/float64(max(w-1, 1)), float64(y)/float64(max(h-1, 1)))
				for c, i := 0, 3*(y*w+x); c < 3; c++ {
					b[i+c] = uint8(math.Min(255, math.Round(g*float64(b[i+c]))))
				}
			}
		}
		d, err := gocv.NewMatFromBytes(h, w, m.Type(), b)
		if err != nil {
			return m.Clone() // cannot happen: the bytes are the picture's own
		}
		return d
	}
}

// recompress encodes the picture as a JPEG of quality q and decodes it again: a cheap
// camera's or a stream's blocking and smeared colour.
func recompress(q int) Variation {
	return func(m gocv.Mat) gocv.Mat {
		b, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, q})
		if err != nil {
			return m.Clone() // cannot happen for an 8-bit BGR picture; leave it unchanged
		}
		defer b.Close()
		d, err := gocv.IMDecode(b.GetBytes(), gocv.IMReadColor)
		if err != nil {
			return m.Clone()
		}
		return d
	}
}

// soften blurs the picture with a Gaussian of s times its longer side (1.6 pixels at 640):
// a fixed-focus camera module closer to the tray than its focus, or a smudged lens.
func soften(s float64) Variation {
	return func(m gocv.Mat) gocv.Mat {
		d := gocv.NewMat()
		sigma := s * float64(max(m.Cols(), m.Rows()))
		gocv.GaussianBlur(m, &d, image.Point{}, sigma, sigma, gocv.BorderReflect101)
		return d
	}
}

// noise adds Gaussian noise of standard deviation sd to every channel of every pixel: a
// small sensor at high gain in a dim room. The generator is seeded alike for every picture,
// so a bench run is repeatable.
func noise(sd float64) Variation { return noiseSeeded(sd, 1) }

// noiseSeeded is noise from the generator seeded with seed: another frame of the same
// sensor.
func noiseSeeded(sd float64, seed uint64) Variation {
	return func(m gocv.Mat) gocv.Mat {
		b := m.ToBytes()
		rng := rand.New(rand.NewPCG(seed, 2))
		for i, v := range b {
			b[i] = uint8(math.Max(0, math.Min(255, math.Round(float64(v)+sd*rng.NormFloat64()))))
		}
		d, err := gocv.NewMatFromBytes(m.Rows(), m.Cols(), m.Type(), b)
		if err != nil {
			return m.Clone() // cannot happen: the bytes are the picture's own
		}
		return d
	}
}
