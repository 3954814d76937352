package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

type fakeFrames struct {
	w, h   int
	over   float64
	err    error
	closed bool
}

func (f *fakeFrames) Grab(ctx context.Context) (Frame, error) {
	return Frame{Width: f.w, Height: f.h, Overexposed: f.over}, f.err
}
func (f *fakeFrames) Close() error { f.closed = true; return nil }

type closer struct{ err error }

func (c closer) Close() error { return c.err }

// Errors shaped like the real drivers' (os.Open of a device file, the I2C
// ioctl's errno, exec's lookup).
var (
	eacces   = &fs.PathError{Op: "open", Path: "/dev/gpiochip0", Err: syscall.EACCES}
	enoent   = &fs.PathError{Op: "open", Path: "/dev/i2c-1", Err: syscall.ENOENT}
	nack     = fmt.Errorf("ssd1306: init: %w", syscall.EREMOTEIO)
	noRpicam = fmt.Errorf("open camera rpicam: %w", &exec.Error{Name: "rpicam-vid", Err: exec.ErrNotFound})
)

func one(t *testing.T, c Check) Result {
	t.Helper()
	rs := Run(context.Background(), []Check{c}, time.Second, io.Discard)
	return rs[0]
}

func TestChecks(t *testing.T) {
	cam := func(f *fakeFrames, err error) func(context.Context) (Frames, error) {
		return func(context.Context) (Frames, error) {
			if err != nil {
				return nil, err
			}
			return f, nil
		}
	}
	open := func(err error) func() (io.Closer, error) {
		return func() (io.Closer, error) {
			if err != nil {
				return nil, err
			}
			return closer{}, nil
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name   string
		check  Check
		status Status
		detail string // fragment
		fix    string // fragment
	}{
		{"camera ok", Camera("v4l2:/dev/video0", cam(&fakeFrames{w: 1280, h: 960}, nil)), Pass, "1280x960 frames", ""},
		{"camera none", Camera("none", nil), Warn, "entered with the buttons", "[camera] source"},
		{"camera perm", Camera("v4l2:/dev/video0", cam(nil, fmt.Errorf("open camera: %w", eacces))), Fail, "permission denied", "group video"},
		{"camera missing usb", Camera("v4l2:/dev/video0", cam(nil, errors.New("open camera v4l2:/dev/video0: cannot open"))), Fail, "cannot open", "ls /dev/video*"},
		{"rpicam-vid missing", Camera("rpicam", cam(nil, noRpicam)), Fail, "executable file not found", "apt install rpicam-apps"},
		{"rpicam no camera", Camera("rpicam", cam(nil, errors.New("rpicam-vid exited: no cameras available"))), Fail, "no cameras", "ribbon cable"},
		{"camera no frames", Camera("v4l2:/dev/video0", cam(&fakeFrames{err: errors.New("read timeout")}, nil)), Fail, "opens but gives no frame", "ls /dev/video*"},
		{"camera empty frames", Camera("v4l2:/dev/video0", cam(&fakeFrames{}, nil)), Fail, "empty frames", ""},
		{"camera tiny", Camera("v4l2:/dev/video0", cam(&fakeFrames{w: 160, h: 120}, nil)), Warn, "160x120", "640x480"},
		{"camera overexposed", Camera("rpicam", cam(&fakeFrames{w: 1280, h: 960, over: 0.23}, nil)), Warn, "23% clipped white", "--shutter and --gain"},
		{"buttons ok", Buttons("5, 6, 13, 19", open(nil)), Pass, "GPIO lines 5, 6, 13, 19", ""},
		{"buttons perm", Buttons("5, 6, 13, 19", open(eacces)), Fail, "permission denied", "group gpio"},
		{"buttons busy", Buttons("5", open(errors.New("gpioioctl: line 5: device or resource busy"))), Fail, "busy", "systemctl stop cantstop"},
		{"buttons other", Buttons("5", open(errors.New("hw: GPIO5 not found"))), Fail, "not found", "ls /dev/gpiochip*"},
		{"display ok", Display("/dev/i2c-1", 0x3C, open(nil)), Pass, "answers on /dev/i2c-1 at 0x3C", ""},
		{"display nack", Display("/dev/i2c-1", 0x3C, open(nack)), Fail, "remote I/O error", "i2cdetect -y 1"},
		{"display no bus", Display("/dev/i2c-1", 0x3C, open(enoent)), Fail, "no such file", "raspi-config nonint do_i2c 0"},
		{"display perm", Display("/dev/i2c-1", 0x3C, open(eacces)), Fail, "permission denied", "group i2c"},
		{"config ok", Config("/etc/cantstop/cantstop.conf", true, nil), Pass, "is valid", ""},
		{"config missing", Config("/etc/cantstop/cantstop.conf", false, nil), Warn, "using the defaults", "config show"},
		{"config bad", Config("c.conf", true, errors.New("c.conf:3: unknown key\nc.conf:4: bad")), Fail, "c.conf:3: unknown key\n        c.conf:4: bad", "cantstop config check c.conf"},
		{"calibration missing", Calibration(filepath.Join(dir, "none.json"), nil), Warn, "uncalibrated", "cantstop calibrate"},
		{"calibration ok", Calibration(file, func(string) (string, error) { return "profile v1", nil }), Pass, "profile v1", ""},
		{"calibration small dice", Calibration(file, func(string) (string, error) {
			return "", Warning("the dice are 15 pixels wide", "lower the camera")
		}), Warn, "15 pixels", "lower the camera"},
		{"calibration bad", Calibration(file, func(string) (string, error) { return "", errors.New("profile version 9 is newer") }), Fail, "newer", "calibrate again"},
		{"state ok", StateDir(dir), Pass, "is writable", ""},
		{"state made", StateDir(filepath.Join(dir, "new")), Pass, "is writable", ""},
		{"state unmakeable", StateDir(filepath.Join(file, "sub")), Fail, "not a directory", "writable by the user"},
		{"state is a file", StateDir(file), Fail, "not a directory", ""},
		{"state none", StateDir(""), Fail, "no state directory", "--state-dir"},
		{"groups root", Groups(0, nil, "gpio"), Pass, "root", ""},
		{"groups ok", Groups(1000, func() ([]string, error) { return []string{"pi", "gpio", "video", "i2c"}, nil }, "gpio", "video", "i2c"), Pass, "in groups gpio, video, i2c", ""},
		{"groups missing", Groups(1000, func() ([]string, error) { return []string{"pi", "video"}, nil }, "gpio", "video", "i2c"), Fail, "not in group gpio, i2c", "usermod -aG gpio,i2c"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := one(t, tc.check)
			if r.Status != tc.status || !strings.Contains(r.Detail, tc.detail) || !strings.Contains(r.Fix, tc.fix) {
				t.Fatalf("got %v %q fix %q; want %v %q fix %q", r.Status, r.Detail, r.Fix, tc.status, tc.detail, tc.fix)
			}
			if r.Status == Pass && r.Fix != "" {
				t.Errorf("a pass with a fix: %q", r.Fix)
			}
			if r.Status != Pass && r.Fix == "" && tc.fix != "" {
				t.Errorf("a %v without a fix", r.Status)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 { // file, and new/ made by "state made"
		t.Errorf("state dir check left files behind: %v", entries)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "new")); len(entries) != 0 {
		t.Errorf("state dir check left files behind: %v", entries)
	}
}

func TestRunOutputAndTimeout(t *testing.T) {
	var b strings.Builder
	checks := []Check{
		{Name: "config", Run: func(context.Context) (string, error) { return "ok.conf is valid", nil }},
		{Name: "camera", Fix: "plug it in", Run: func(ctx context.Context) (string, error) {
			<-ctx.Done() // a device that never answers
			return "", ctx.Err()
		}},
		{Name: "calibration", Run: func(context.Context) (string, error) { return "", Warning("none", "run cantstop calibrate") }},
		{Name: "display", Run: func(context.Context) (string, error) { panic("driver bug") }},
	}
	rs := Run(context.Background(), checks, 50*time.Millisecond, &b)
	want := `PASS  config       ok.conf is valid
FAIL  camera       no answer within 50ms
                   fix: plug it in
WARN  calibration  none
                   fix: run cantstop calibrate
FAIL  display      check crashed: driver bug
`
	if b.String() != want {
		t.Fatalf("output\n%s\nwant\n%s", b.String(), want)
	}
	if Failures(rs) != 2 {
		t.Fatalf("Failures = %d, want 2", Failures(rs))
	}
}

func TestCameraClosesSource(t *testing.T) {
	f := &fakeFrames{w: 640, h: 480}
	one(t, Camera("v4l2:0", func(context.Context) (Frames, error) { return f, nil }))
	if !f.closed {
		t.Fatal("camera check left the source open")
	}
}
