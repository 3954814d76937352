package camera

import (
	"context"
	"errors"
	"image"
	"image/color"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"gocv.io/x/gocv"
)

// The recorded frames (three 640×640 dice photos, see testdata/frames/README.md).
var testFrames = []string{"IMG_20191208_112833.jpg", "IMG_20191209_100506.jpg", "IMG_20191209_100620.jpg"}

func framePath(name string) string { return filepath.Join("testdata", "frames", name) }

// sameImage reports whether a and b are the same size and nearly the same pixels
// (mean absolute difference per channel, to allow for lossy codecs).
func meanDiff(t *testing.T, a, b gocv.Mat) float64 {
	t.Helper()
	if a.Rows() != b.Rows() || a.Cols() != b.Cols() || a.Type() != b.Type() {
		t.Fatalf("frame %dx%d %v, want %dx%d %v", a.Cols(), a.Rows(), a.Type(), b.Cols(), b.Rows(), b.Type())
	}
	d := gocv.NewMat()
	defer d.Close()
	gocv.AbsDiff(a, b, &d)
	s := d.Mean()
	return (s.Val1 + s.Val2 + s.Val3) / 3
}

func TestParseSpec(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "roll.jpg")
	vid := filepath.Join(dir, "roll.mp4")
	for _, f := range []string{img, vid} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		in   string
		want Spec
	}{
		{"v4l2:/dev/video0", Spec{Scheme: "v4l2", Arg: "/dev/video0"}},
		{"v4l2:0", Spec{Scheme: "v4l2", Arg: "0"}},
		{"v4l2:", Spec{Scheme: "v4l2", Arg: "/dev/video0"}},
		{"/dev/video2", Spec{Scheme: "v4l2", Arg: "/dev/video2"}},
		{"1", Spec{Scheme: "v4l2", Arg: "1"}},
		{"rpicam", Spec{Scheme: "rpicam"}},
		{"rpicam:1280x960", Spec{Scheme: "rpicam", Arg: "1280x960"}},
		{"rpicam:1280x960?camera=1&bin=/opt/rpicam-vid", Spec{Scheme: "rpicam", Arg: "1280x960", Camera: 1, Binary: "/opt/rpicam-vid"}},
		{"gst:videotestsrc ! video/x-raw,width=64,height=48 ! videoconvert ! appsink", Spec{Scheme: "gst", Arg: "videotestsrc ! video/x-raw,width=64,height=48 ! videoconvert ! appsink"}},
		{"file:roll.jpg", Spec{Scheme: "file", Arg: "roll.jpg"}},
		{"dir:photos/", Spec{Scheme: "dir", Arg: "photos/"}},
		{"dir:photos/?loop", Spec{Scheme: "dir", Arg: "photos/", Loop: true}},
		{"video:roll.mp4?loop=1", Spec{Scheme: "video", Arg: "roll.mp4", Loop: true}},
		{" " + dir + " ", Spec{Scheme: "dir", Arg: dir}},
		{img, Spec{Scheme: "file", Arg: img}},
		{vid, Spec{Scheme: "video", Arg: vid}},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		if again, err := ParseSpec(got.String()); err != nil || again != got {
			t.Errorf("ParseSpec(%q.String() = %q) = %+v, %v", tt.in, got.String(), again, err)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty camera source"},
		{"usb:0", `unknown camera source scheme "usb"`},
		{"usb:0", "valid schemes are v4l2, rpicam, gst, file, dir, video"},
		{"no-such-thing.jpg", "no such file or folder"},
		{"rpicam:big", "want WIDTHxHEIGHT"},
		{"rpicam:0x480", "want WIDTHxHEIGHT"},
		{"rpicam?camera=-1", "want a camera index"},
		{"dir:photos?camera=1", `unknown option "camera" for dir`},
		{"file:", "give a path after file:"},
		{"gst:videotestsrc ! autovideosink", "must end in appsink"},
	}
	for _, tt := range tests {
		_, err := ParseSpec(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSpec(%q) error = %v, want it to mention %q", tt.in, err, tt.want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notImage := filepath.Join(dir, "notes.jpg")
	os.WriteFile(notImage, []byte("not a jpeg"), 0o644)
	empty := filepath.Join(dir, "empty.png")
	os.WriteFile(empty, nil, 0o644)
	noImages := filepath.Join(dir, "nothing")
	os.Mkdir(noImages, 0o755)
	tests := []struct {
		spec string
		c    Controls
		want []string
		is   error
	}{
		{"v4l2:/dev/video97", Controls{}, []string{"/dev/video97 does not exist: is the camera plugged in? `ls /dev/video*`"}, fs.ErrNotExist},
		{"v4l2:96", Controls{}, []string{"/dev/video96 does not exist"}, fs.ErrNotExist},
		{"v4l2:" + notImage, Controls{}, []string{"is not a video device"}, nil},
		{"rpicam?bin=" + filepath.Join(dir, "rpicam-vid"), Controls{}, []string{"not found", "sudo apt install rpicam-apps"}, nil},
		{"file:" + notImage, Controls{}, []string{"not an image OpenCV can decode"}, nil},
		{"file:" + empty, Controls{}, []string{"is empty (0 bytes)"}, nil},
		{"file:" + filepath.Join(dir, "gone.jpg"), Controls{}, []string{"gone.jpg"}, fs.ErrNotExist},
		{"file:" + dir, Controls{}, []string{"is a folder: use dir:"}, nil},
		{"dir:" + noImages, Controls{}, []string{"holds no images"}, nil},
		{"video:" + notImage, Controls{}, []string{"not a video OpenCV can decode"}, nil},
		{"gst:nosuchelement ! appsink", Controls{}, []string{"did not start", "gst-launch-1.0"}, nil},
		{"file:" + framePath(testFrames[0]), Controls{Width: 640}, []string{"give both width and height"}, nil},
		{"file:" + framePath(testFrames[0]), Controls{AWBGains: [2]float64{1.5, 0}}, []string{"give both red and blue gains"}, nil},
	}
	for _, tt := range tests {
		src, err := Open(ctx, tt.spec, tt.c, nil)
		if err == nil {
			src.Close()
			t.Errorf("Open(%q) succeeded, want an error", tt.spec)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Open(%q) error = %q, want it to say %q", tt.spec, err, w)
			}
		}
		if !strings.HasPrefix(err.Error(), "open camera ") {
			t.Errorf("Open(%q) error = %q, want it to start with the source it was opening", tt.spec, err)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("Open(%q) error = %v, want errors.Is %v", tt.spec, err, tt.is)
		}
	}
}

func TestDeviceErrorPermission(t *testing.T) {
	// Root (this test machine) is never refused, so check the explanation itself.
	err := deviceError("/dev/video0", &fs.PathError{Op: "open", Path: "/dev/video0", Err: syscall.EACCES})
	if !strings.Contains(err.Error(), "user not in group video: sudo usermod -aG video $USER") || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("permission error = %q", err)
	}
	err = deviceError("/dev/video0", &fs.PathError{Op: "open", Path: "/dev/video0", Err: syscall.EBUSY})
	if !strings.Contains(err.Error(), "busy") {
		t.Errorf("busy error = %q", err)
	}
}

func TestOpenFileSource(t *testing.T) {
	ctx := context.Background()
	want := gocv.IMRead(framePath(testFrames[0]), gocv.IMReadColor)
	defer want.Close()
	src, err := Open(ctx, "file:"+framePath(testFrames[0]), Controls{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for i := 0; i < 3; i++ { // the same image every time, each a fresh Mat
		m, err := src.Frame(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := meanDiff(t, m, want); d != 0 {
			t.Errorf("frame %d differs from the file by %g", i, d)
		}
		gocv.Rectangle(&m, image.Rect(0, 0, 100, 100), color.RGBA{255, 0, 0, 0}, -1) // the caller owns it
		m.Close()
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := src.Frame(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Frame with a cancelled context: %v", err)
	}
	src.Close()
	if _, err := src.Frame(ctx); err == nil {
		t.Error("Frame after Close succeeded")
	}
}

func TestOpenDirSource(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// Copy in reverse name order with a non-image among them: order is by name.
	for i := len(testFrames) - 1; i >= 0; i-- {
		data, err := os.ReadFile(framePath(testFrames[i]))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, testFrames[i]), data, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "labels.csv"), []byte("file,values\n"), 0o644)

	for _, loop := range []bool{false, true} {
		spec := "dir:" + dir
		if loop {
			spec += "?loop"
		}
		src, err := Open(ctx, spec, Controls{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2*len(testFrames); i++ {
			m, err := src.Frame(ctx)
			if !loop && i >= len(testFrames) {
				if err != io.EOF {
					t.Errorf("frame %d past the end: %v, want io.EOF", i, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s frame %d: %v", spec, i, err)
			}
			want := gocv.IMRead(framePath(testFrames[i%len(testFrames)]), gocv.IMReadColor)
			if d := meanDiff(t, m, want); d != 0 {
				t.Errorf("%s frame %d is not %s (diff %g)", spec, i, testFrames[i%len(testFrames)], d)
			}
			want.Close()
			m.Close()
		}
		src.Close()
	}

	// A broken image names itself and does not stop the folder.
	os.WriteFile(filepath.Join(dir, testFrames[0][:len(testFrames[0])-4]+"a.jpg"), []byte("broken"), 0o644)
	src, err := OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var got []string
	for {
		m, err := src.Frame(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "error")
			if !strings.Contains(err.Error(), "a.jpg: not an image") {
				t.Errorf("broken image error: %v", err)
			}
			continue
		}
		got = append(got, "ok")
		m.Close()
	}
	if strings.Join(got, " ") != "ok error ok ok" {
		t.Errorf("frames from a folder with one broken image: %v", got)
	}
}

// writeVideo writes the test frames into an MJPG .avi, as a user's recording would be.
func writeVideo(t *testing.T, repeat int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "roll.avi")
	vw, err := gocv.VideoWriterFile(path, "MJPG", 10, 640, 640, true)
	if err != nil {
		t.Fatal(err)
	}
	if !vw.IsOpened() {
		t.Fatal("cannot write an MJPG .avi with this OpenCV")
	}
	for r := 0; r < repeat; r++ {
		for _, f := range testFrames {
			m := gocv.IMRead(framePath(f), gocv.IMReadColor)
			vw.Write(m)
			m.Close()
		}
	}
	vw.Close()
	return path
}

func TestOpenVideoSource(t *testing.T) {
	ctx := context.Background()
	path := writeVideo(t, 1)
	for _, loop := range []bool{false, true} {
		spec := "video:" + path
		if loop {
			spec += "?loop"
		}
		src, err := Open(ctx, spec, Controls{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2*len(testFrames); i++ {
			m, err := src.Frame(ctx)
			if !loop && i >= len(testFrames) {
				if err != io.EOF {
					t.Errorf("video frame %d past the end: %v, want io.EOF", i, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s frame %d: %v", spec, i, err)
			}
			want := gocv.IMRead(framePath(testFrames[i%len(testFrames)]), gocv.IMReadColor)
			if d := meanDiff(t, m, want); d > 4 { // MJPG re-encoding
				t.Errorf("%s frame %d differs from %s by %g", spec, i, testFrames[i%len(testFrames)], d)
			}
			want.Close()
			m.Close()
		}
		src.Close()
	}
	// The shorthand: an existing video file by its extension.
	src, err := Open(ctx, path, Controls{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := src.(*captureSource); !ok {
		t.Errorf("Open(%q) = %T, want a video source", path, src)
	}
	src.Close()
}

// TestOpenOversizeVideo: a video file or pipeline whose announced frame size is
// over the limits is refused when it is opened, before a frame is decoded.
func TestOpenOversizeVideo(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wide.avi")
	vw, err := gocv.VideoWriterFile(path, "MJPG", 10, 12016, 16, true)
	if err != nil || !vw.IsOpened() {
		t.Fatalf("cannot write a 12016x16 MJPG .avi: %v", err)
	}
	m := gocv.NewMatWithSize(16, 12016, gocv.MatTypeCV8UC3)
	vw.Write(m)
	vw.Write(m)
	m.Close()
	vw.Close()
	for spec, want := range map[string]string{
		"video:" + path: "frames of 12016x16 px announced",
		"gst:videotestsrc num-buffers=2 ! video/x-raw,width=12800,height=8 ! videoconvert ! video/x-raw,format=BGR ! appsink": "frames of 12800x8 px announced",
	} {
		src, err := Open(ctx, spec, Controls{}, nil)
		if err == nil {
			src.Close()
			t.Errorf("%s opened, want refused", spec)
			continue
		}
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "12000 px a side") {
			t.Errorf("%s: error %q lacks %q and the limit", spec, err, want)
		}
	}
}

func TestOpenGStreamerSource(t *testing.T) {
	ctx := context.Background()
	src, err := Open(ctx, "gst:videotestsrc num-buffers=3 ! video/x-raw,width=160,height=120 ! videoconvert ! video/x-raw,format=BGR ! appsink", Controls{}, nil)
	if err != nil {
		t.Fatalf("%v (OpenCV's GStreamer back-end needs gstreamer1.0-plugins-base)", err)
	}
	defer src.Close()
	for i := 0; i < 3; i++ {
		m, err := src.Frame(ctx)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if m.Cols() != 160 || m.Rows() != 120 || m.Channels() != 3 {
			t.Errorf("frame %d is %dx%d×%d, want 160x120×3", i, m.Cols(), m.Rows(), m.Channels())
		}
		if s := m.Mean(); s.Val1+s.Val2+s.Val3 == 0 {
			t.Errorf("frame %d is black: the test pattern did not arrive", i)
		}
		m.Close()
	}
	if _, err := src.Frame(ctx); err != io.EOF {
		t.Errorf("after num-buffers=3: %v, want io.EOF", err)
	}
}

func TestImageSource(t *testing.T) {
	ctx := context.Background()
	want := gocv.IMRead(framePath(testFrames[1]), gocv.IMReadColor)
	defer want.Close()
	rgba, err := want.ToImage()
	if err != nil {
		t.Fatal(err)
	}
	// The same picture as RGBA, NRGBA, a sub-image and YCbCr-less paletted forms.
	nrgba := image.NewNRGBA(rgba.Bounds())
	for y := 0; y < 640; y++ {
		for x := 0; x < 640; x++ {
			nrgba.Set(x, y, rgba.At(x, y))
		}
	}
	big := image.NewRGBA(image.Rect(-5, -7, 700, 700))
	for y := 0; y < 640; y++ {
		for x := 0; x < 640; x++ {
			big.Set(x+3, y+4, rgba.At(x, y))
		}
	}
	sub := big.SubImage(image.Rect(3, 4, 643, 644))
	imgs := []image.Image{rgba, nrgba, sub}
	n := 0
	src := NewImageSource(func(ctx context.Context) (image.Image, error) {
		if n == len(imgs) {
			return nil, io.EOF
		}
		n++
		return imgs[n-1], nil
	})
	defer src.Close()
	for i := range imgs {
		m, err := src.Frame(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := meanDiff(t, m, want); d != 0 {
			t.Errorf("image %d (%T) converts with mean difference %g", i, imgs[i], d)
		}
		m.Close()
	}
	if _, err := src.Frame(ctx); err != io.EOF {
		t.Errorf("after the last image: %v, want io.EOF", err)
	}
	if _, err := ImageToMat(image.NewRGBA(image.Rect(0, 0, 0, 5))); err == nil {
		t.Error("a zero-size image converted without error")
	}
}

// recordingCapture records the properties set, as a camera that takes them all.
type recordingCapture struct {
	set  []string
	vals map[gocv.VideoCaptureProperties]float64
	deaf map[gocv.VideoCaptureProperties]bool // properties the camera ignores
}

func (r *recordingCapture) Set(p gocv.VideoCaptureProperties, v float64) {
	r.set = append(r.set, p.String())
	if !r.deaf[p] {
		r.vals[p] = v
	}
}
func (r *recordingCapture) Get(p gocv.VideoCaptureProperties) float64 { return r.vals[p] }

// TestCheckAnnounced: the size a capture announces is checked before a frame
// is read (V4L2 cameras, video files, GStreamer caps); 0 (unknown) passes.
func TestCheckAnnounced(t *testing.T) {
	for _, c := range []struct {
		w, h float64
		ok   bool
	}{{1280, 960, true}, {0, 0, true}, {3840, 2160, true}, {12800, 8, false}, {8000, 7000, false}} {
		r := &recordingCapture{vals: map[gocv.VideoCaptureProperties]float64{gocv.VideoCaptureFrameWidth: c.w, gocv.VideoCaptureFrameHeight: c.h}}
		err := checkAnnounced(r)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "announced") {
			t.Errorf("%gx%g: %v, want ok %v", c.w, c.h, err, c.ok)
		}
	}
}

func TestApplyControls(t *testing.T) {
	focus := 0.0
	c := Controls{Width: 1280, Height: 720, FPS: 30, Exposure: 156, WBTemperature: 4600, Focus: &focus}
	r := &recordingCapture{vals: map[gocv.VideoCaptureProperties]float64{}, deaf: map[gocv.VideoCaptureProperties]bool{gocv.VideoCaptureFocus: true}}
	r.vals[gocv.VideoCaptureFocus] = 40
	warnings := applyControls(r, c)
	want := []gocv.VideoCaptureProperties{gocv.VideoCaptureFOURCC, gocv.VideoCaptureFrameWidth, gocv.VideoCaptureFrameHeight,
		gocv.VideoCaptureFPS, gocv.VideoCaptureAutoExposure, gocv.VideoCaptureExposure,
		gocv.VideoCaptureAutoWB, gocv.VideoCaptureWBTemperature, gocv.VideoCaptureAutoFocus, gocv.VideoCaptureFocus}
	var ws []string
	for _, p := range want {
		ws = append(ws, p.String())
	}
	if strings.Join(r.set, " ") != strings.Join(ws, " ") {
		t.Errorf("controls set in order\n %v\nwant\n %v", r.set, ws)
	}
	if r.vals[gocv.VideoCaptureAutoExposure] != 1 || r.vals[gocv.VideoCaptureAutoWB] != 0 || r.vals[gocv.VideoCaptureAutoFocus] != 0 {
		t.Errorf("automatic modes not switched to manual: %v", r.vals)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "focus: asked 0, camera reports 40") {
		t.Errorf("warnings = %q, want one about the ignored focus", warnings)
	}
	r = &recordingCapture{vals: map[gocv.VideoCaptureProperties]float64{}}
	if applyControls(r, Controls{}); len(r.set) != 0 {
		t.Errorf("zero Controls set %v, want nothing (camera automatic)", r.set)
	}
}
