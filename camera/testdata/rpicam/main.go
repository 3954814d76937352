// Command rpicam-vid is a stand-in for Raspberry Pi's rpicam-vid in tests: it
// accepts the options the camera package passes, rejects others as the real
// program does, and streams recorded JPEG frames (resized to --width x
// --height, at --framerate) on stdout as --codec mjpeg -o - would.
//
// The test drives it through the environment:
//
//	FAKE_RPICAM_FRAMES=DIR      JPEG files to stream, in name order, cycled (required)
//	FAKE_RPICAM_DIE_AFTER=N     exit 1 after N frames
//	FAKE_RPICAM_LOG=FILE        append "PID ARGS..." at start
//	FAKE_RPICAM_IGNORE_TERM=1   ignore SIGTERM (to test the SIGKILL fallback)
//	FAKE_RPICAM_MESSY=1         write frames in small random pieces, with an EXIF
//	                            thumbnail (its own FFD8..FFD9) inside each and junk between
//
// The test builds it with go build; it is not part of the module's packages.
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "ERROR: *** "+format+" ***\n", a...)
	os.Exit(255)
}

type opts struct {
	timeoutMS      int
	width, height  int
	fps            float64
	codec, output  string
	camera         int
	shutter        int
	gain           float64
	awbR, awbB     float64
	lens           float64
	quality        int
	flush, preview bool
}

func parse(args []string) opts {
	o := opts{fps: 30, codec: "h264", timeoutMS: 5000, preview: true, quality: 50}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if i+1 >= len(args) {
				fail("the required argument for option '%s' is missing", a)
			}
			i++
			return args[i]
		}
		num := func(v string) float64 {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				fail("the argument ('%s') for option '%s' is invalid", v, a)
			}
			return f
		}
		switch a {
		case "-t", "--timeout":
			o.timeoutMS = int(num(val()))
		case "-n", "--nopreview":
			o.preview = false
		case "--flush":
			o.flush = true
		case "--codec":
			o.codec = val()
		case "-o", "--output":
			o.output = val()
		case "--width":
			o.width = int(num(val()))
		case "--height":
			o.height = int(num(val()))
		case "--framerate":
			o.fps = num(val())
		case "--camera":
			o.camera = int(num(val()))
		case "--shutter":
			o.shutter = int(num(strings.TrimSuffix(val(), "us")))
		case "--gain":
			o.gain = num(val())
		case "--lens-position":
			o.lens = num(val())
		case "-q", "--quality":
			o.quality = int(num(val()))
		case "--awbgains":
			v := val()
			r, b, ok := strings.Cut(v, ",")
			if !ok {
				fail("the argument ('%s') for option '--awbgains' is invalid", v)
			}
			o.awbR, o.awbB = num(r), num(b)
		default:
			fail("unrecognised option '%s'", a)
		}
	}
	switch {
	case o.codec != "mjpeg":
		fail("stand-in rpicam-vid only does --codec mjpeg, got %q", o.codec)
	case o.output != "-":
		fail("stand-in rpicam-vid only writes to stdout (-o -), got %q", o.output)
	case o.camera != 0:
		fail("no camera available at index %d", o.camera)
	case o.width < 0 || o.height < 0 || o.fps <= 0 || o.fps > 120:
		fail("invalid size %dx%d or framerate %g", o.width, o.height, o.fps)
	case o.quality < 1 || o.quality > 100:
		fail("invalid MJPEG quality %d", o.quality)
	}
	return o
}

// resize scales nearest-neighbour: enough for a stand-in camera.
func resize(src image.Image, w, h int) image.Image {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dst.Set(x, y, src.At(b.Min.X+x*b.Dx()/w, b.Min.Y+y*b.Dy()/h))
		}
	}
	return dst
}

func frames(dir string, w, h, quality int, messy bool) [][]byte {
	names, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	sort.Strings(names)
	if len(names) == 0 {
		fmt.Fprintln(os.Stderr, "stand-in rpicam-vid: no *.jpg in FAKE_RPICAM_FRAMES")
		os.Exit(2)
	}
	var thumb bytes.Buffer
	_ = jpeg.Encode(&thumb, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	var out [][]byte
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			panic(err)
		}
		img, err := jpeg.Decode(f)
		f.Close()
		if err != nil {
			panic(err)
		}
		if w > 0 && h > 0 {
			img = resize(img, w, h)
		}
		var b bytes.Buffer
		_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: quality})
		data := b.Bytes()
		if messy { // APP1 "Exif" segment holding a whole JPEG, right after SOI
			seg := append([]byte("Exif\x00\x00"), thumb.Bytes()...)
			app1 := []byte{0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
			data = append(append(append([]byte{0xFF, 0xD8}, app1...), seg...), data[2:]...)
		}
		out = append(out, data)
	}
	return out
}

func main() {
	o := parse(os.Args[1:])
	if log := os.Getenv("FAKE_RPICAM_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, os.Getpid(), strings.Join(os.Args[1:], " "))
			f.Close()
		}
	}
	if os.Getenv("FAKE_RPICAM_IGNORE_TERM") == "1" {
		signal.Ignore(syscall.SIGTERM)
	}
	messy := os.Getenv("FAKE_RPICAM_MESSY") == "1"
	imgs := frames(os.Getenv("FAKE_RPICAM_FRAMES"), o.width, o.height, o.quality, messy)
	dieAfter, _ := strconv.Atoi(os.Getenv("FAKE_RPICAM_DIE_AFTER"))
	fmt.Fprintf(os.Stderr, "stand-in rpicam-vid: %d frames, %dx%d at %g fps\n", len(imgs), o.width, o.height, o.fps)

	rnd := rand.New(rand.NewSource(int64(os.Getpid())))
	start := time.Now()
	tick := time.Duration(float64(time.Second) / o.fps)
	for n := 0; ; n++ {
		if o.timeoutMS > 0 && time.Since(start) > time.Duration(o.timeoutMS)*time.Millisecond {
			return
		}
		if dieAfter > 0 && n == dieAfter {
			fmt.Fprintf(os.Stderr, "stand-in rpicam-vid: dying after %d frames as told\n", n)
			os.Exit(1)
		}
		data := imgs[n%len(imgs)]
		if messy {
			os.Stdout.Write([]byte{0x00, 0xFF, 0x00, 0xFF, 'j', 'u', 'n', 'k'})
			for len(data) > 0 {
				k := min(len(data), 1+rnd.Intn(4096))
				if _, err := os.Stdout.Write(data[:k]); err != nil {
					os.Exit(1)
				}
				data = data[k:]
			}
		} else if _, err := os.Stdout.Write(data); err != nil {
			os.Exit(1) // reader went away
		}
		time.Sleep(tick)
	}
}
