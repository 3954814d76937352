package camera

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"gocv.io/x/gocv"
)

// settleFrames is how many frames are dropped after controls change: UVC
// cameras take a few frames to apply a new exposure or white balance.
const settleFrames = 5

// V4L2Source is a USB (UVC) webcam read through OpenCV's V4L2 back-end.
type V4L2Source struct {
	dev string
	mu  sync.Mutex
	vc  *gocv.VideoCapture
}

// devicePath turns "0" into "/dev/video0" and resolves /dev/v4l/by-id links.
func devicePath(dev string) string {
	if _, err := strconv.Atoi(dev); err == nil {
		return "/dev/video" + dev
	}
	return dev
}

// checkDevice explains, before OpenCV tries, why a device cannot be opened.
func checkDevice(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return deviceError(path, err)
	}
	if fi.Mode()&fs.ModeCharDevice == 0 {
		return fmt.Errorf("%s is not a video device: name the camera's /dev/videoN (`v4l2-ctl --list-devices`)", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return deviceError(path, err)
	}
	return f.Close()
}

func deviceError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist: is the camera plugged in? `ls /dev/video*` lists the cameras: %w", path, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("no permission to open %s: user not in group video: sudo usermod -aG video $USER, then log in again: %w", path, err)
	case errors.Is(err, syscall.EBUSY):
		return fmt.Errorf("%s is busy: another program is using the camera (`fuser %s`): %w", path, path, err)
	}
	return fmt.Errorf("open %s: %w", path, err)
}

// OpenV4L2 opens a webcam ("/dev/video0" or "0") and fixes its controls.
func OpenV4L2(dev string, c Controls, log *slog.Logger) (*V4L2Source, error) {
	path := devicePath(dev)
	if err := checkDevice(path); err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, deviceError(path, err)
	}
	var vc *gocv.VideoCapture
	if n, err := strconv.Atoi(strings.TrimPrefix(real, "/dev/video")); err == nil && strings.HasPrefix(real, "/dev/video") {
		vc, err = gocv.VideoCaptureDeviceWithAPI(n, gocv.VideoCaptureV4L2)
	} else {
		vc, err = gocv.VideoCaptureFileWithAPI(real, gocv.VideoCaptureV4L2)
	}
	if err != nil || !vc.IsOpened() {
		closeFailed(vc)
		return nil, fmt.Errorf("V4L2 could not open %s as a camera: is it a capture device (`v4l2-ctl -d %s --all`)?", path, path)
	}
	for _, w := range applyControls(vc, c) {
		log.Warn("camera control not applied", "device", path, "detail", w)
	}
	if err := checkAnnounced(vc); err != nil {
		vc.Close()
		return nil, fmt.Errorf("%s: %w: ask the camera for a smaller size (cantstop calibrate --width 1280 --height 960)", path, err)
	}
	vc.Grab(settleFrames)
	return &V4L2Source{dev: path, vc: vc}, nil
}

// propSetter is the part of gocv.VideoCapture that controls are set through.
type propSetter interface {
	Set(gocv.VideoCaptureProperties, float64)
	Get(gocv.VideoCaptureProperties) float64
}

// applyControls sets c in the order V4L2 needs (automatic mode off before the
// manual value) and returns what the camera did not take.
func applyControls(p propSetter, c Controls) []string {
	var warnings []string
	set := func(name string, prop gocv.VideoCaptureProperties, v float64) {
		p.Set(prop, v)
		if got := p.Get(prop); got != v {
			warnings = append(warnings, fmt.Sprintf("%s: asked %g, camera reports %g", name, v, got))
		}
	}
	if c.Width > 0 {
		p.Set(gocv.VideoCaptureFOURCC, fourcc("MJPG")) // UVC needs MJPEG for large frames at speed
		set("width", gocv.VideoCaptureFrameWidth, float64(c.Width))
		set("height", gocv.VideoCaptureFrameHeight, float64(c.Height))
	}
	if c.FPS > 0 {
		set("fps", gocv.VideoCaptureFPS, c.FPS)
	}
	if c.Exposure > 0 {
		set("auto exposure (1 = manual)", gocv.VideoCaptureAutoExposure, 1)
		set("exposure", gocv.VideoCaptureExposure, c.Exposure)
	}
	if c.WBTemperature > 0 {
		set("auto white balance", gocv.VideoCaptureAutoWB, 0)
		set("white balance temperature", gocv.VideoCaptureWBTemperature, c.WBTemperature)
	}
	if c.Focus != nil {
		set("autofocus", gocv.VideoCaptureAutoFocus, 0)
		set("focus", gocv.VideoCaptureFocus, *c.Focus)
	}
	return warnings
}

func fourcc(s string) float64 {
	return float64(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24)
}

// Frame returns the next frame from the camera.
func (s *V4L2Source) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vc == nil {
		return gocv.Mat{}, errClosed
	}
	m := gocv.NewMat()
	if !s.vc.Read(&m) || m.Empty() {
		m.Close()
		if err := checkDevice(s.dev); err != nil {
			return gocv.Mat{}, fmt.Errorf("read %s: %w", s.dev, err)
		}
		return gocv.Mat{}, fmt.Errorf("read %s: the camera gave no frame (unplugged, or another program took it?)", s.dev)
	}
	// A camera set to a size over WorkingSide gives frames scaled down to it.
	return FitFrame(m, s.dev)
}

func (s *V4L2Source) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vc != nil {
		s.vc.Close()
		s.vc = nil
	}
	return nil
}
