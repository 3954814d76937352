package camera

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gocv.io/x/gocv"
)

// A Source yields frames; the caller owns (and must Close) each returned Mat.
// A Source is not safe for concurrent Frame calls; Close may be called from
// any goroutine. Sources that run out of frames (folders, videos, finite
// GStreamer pipelines) return io.EOF.
type Source interface {
	Frame(ctx context.Context) (gocv.Mat, error)
	Close() error
}

// Spec names a frame source. Its text form, accepted by ParseSpec and Open and
// used on the command line and in the config file, is SCHEME:ARG[?OPTIONS]:
//
//	v4l2:/dev/video0  v4l2:0        USB (UVC) webcam through V4L2
//	rpicam  rpicam:1280x960         Raspberry Pi Camera Module through rpicam-vid
//	gst:PIPELINE                    GStreamer pipeline ending in appsink
//	file:roll.jpg                   one image, returned on every call
//	dir:photos/                     the images of a folder in name order
//	video:roll.mp4                  the frames of a video file
//
// Options: "loop" (dir, video: start again at the end instead of io.EOF),
// "camera=N" and "bin=PATH" (rpicam: camera index, rpicam-vid program).
// Shorthands: "/dev/video0" and "0" mean v4l2, an existing folder means dir,
// an existing file means video or file by its extension.
type Spec struct {
	Scheme string // one of Schemes
	Arg    string // device, size, pipeline or path
	Loop   bool   // dir, video
	Camera int    // rpicam --camera
	Binary string // rpicam: program to run instead of rpicam-vid
}

// Schemes lists the source kinds Open understands.
func Schemes() []string { return []string{"v4l2", "rpicam", "gst", "file", "dir", "video"} }

func (s Spec) String() string {
	out := s.Scheme
	if s.Arg != "" {
		out += ":" + s.Arg
	}
	var opts []string
	if s.Loop {
		opts = append(opts, "loop")
	}
	if s.Camera != 0 {
		opts = append(opts, "camera="+strconv.Itoa(s.Camera))
	}
	if s.Binary != "" {
		opts = append(opts, "bin="+s.Binary)
	}
	if len(opts) > 0 {
		out += "?" + strings.Join(opts, "&")
	}
	return out
}

func isVideoFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg", ".h264", ".m4v":
		return true
	}
	return false
}

// ParseSpec parses a source name (see Spec). It does not touch the device.
func ParseSpec(text string) (Spec, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Spec{}, fmt.Errorf("empty camera source: use one of %s", schemeHelp())
	}
	scheme, arg, found := strings.Cut(text, ":")
	if !found { // "rpicam", "rpicam?camera=1"
		scheme, arg, found = strings.Cut(text, "?")
		if found {
			arg = "?" + arg
		}
		found = isScheme(scheme)
	}
	if !found || !isScheme(scheme) {
		return shorthand(text)
	}
	s := Spec{Scheme: scheme, Arg: arg}
	if scheme == "gst" { // pipelines may contain '?' and '&'
		if !strings.Contains(arg, "appsink") {
			return s, fmt.Errorf("gst:%s: a GStreamer pipeline for OpenCV must end in appsink (e.g. gst:videotestsrc ! videoconvert ! appsink)", arg)
		}
		return s, nil
	}
	if i := strings.LastIndex(arg, "?"); i >= 0 {
		s.Arg = arg[:i]
		if err := s.setOptions(arg[i+1:]); err != nil {
			return s, fmt.Errorf("camera source %q: %w", text, err)
		}
	}
	switch scheme {
	case "rpicam":
		if s.Arg != "" {
			if _, _, err := parseSize(s.Arg); err != nil {
				return s, fmt.Errorf("camera source %q: %w", text, err)
			}
		}
	case "v4l2":
		if s.Arg == "" {
			s.Arg = "/dev/video0"
		}
	default:
		if s.Arg == "" {
			return s, fmt.Errorf("camera source %q: give a path after %s:", text, scheme)
		}
	}
	return s, nil
}

func isScheme(s string) bool {
	for _, k := range Schemes() {
		if s == k {
			return true
		}
	}
	return false
}

func schemeHelp() string {
	return "v4l2:/dev/video0, v4l2:0, rpicam, rpicam:1280x960, gst:PIPELINE, file:roll.jpg, dir:photos/, video:roll.mp4"
}

func shorthand(text string) (Spec, error) {
	if _, err := strconv.Atoi(text); err == nil || strings.HasPrefix(text, "/dev/video") {
		return Spec{Scheme: "v4l2", Arg: text}, nil
	}
	if text == "rpicam" {
		return Spec{Scheme: "rpicam"}, nil
	}
	if fi, err := os.Stat(text); err == nil {
		switch {
		case fi.IsDir():
			return Spec{Scheme: "dir", Arg: text}, nil
		case isVideoFile(text):
			return Spec{Scheme: "video", Arg: text}, nil
		default:
			return Spec{Scheme: "file", Arg: text}, nil
		}
	}
	if scheme, _, ok := strings.Cut(text, ":"); ok {
		return Spec{}, fmt.Errorf("unknown camera source scheme %q in %q: valid schemes are %s (e.g. %s)",
			scheme, text, strings.Join(Schemes(), ", "), schemeHelp())
	}
	return Spec{}, fmt.Errorf("camera source %q: no such file or folder, and not a source name: use one of %s", text, schemeHelp())
}

func (s *Spec) setOptions(q string) error {
	vals, err := url.ParseQuery(q)
	if err != nil {
		return fmt.Errorf("options %q: %w", q, err)
	}
	for k, v := range vals {
		val := v[len(v)-1]
		switch {
		case k == "loop" && (s.Scheme == "dir" || s.Scheme == "video"):
			s.Loop = val == "" || val == "1" || val == "true"
		case k == "camera" && s.Scheme == "rpicam":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return fmt.Errorf("option camera=%q: want a camera index 0, 1, ...", val)
			}
			s.Camera = n
		case k == "bin" && s.Scheme == "rpicam":
			s.Binary = val
		default:
			return fmt.Errorf("unknown option %q for %s: valid options are loop (dir, video), camera=N and bin=PATH (rpicam)", k, s.Scheme)
		}
	}
	return nil
}

// parseSize parses "1280x960".
func parseSize(s string) (w, h int, err error) {
	ws, hs, ok := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("frame size %q: want WIDTHxHEIGHT, e.g. 1280x960", s)
	}
	return w, h, nil
}

// Open opens the frame source named by spec (see Spec), with its camera
// controls fixed from c. ctx bounds the life of a subprocess (rpicam-vid):
// cancelling it stops the camera as Close does. log may be nil.
func Open(ctx context.Context, spec string, c Controls, log *slog.Logger) (Source, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, fmt.Errorf("open camera: %w", err)
	}
	return OpenSpec(ctx, s, c, log)
}

// OpenSpec is Open for a parsed Spec.
func OpenSpec(ctx context.Context, s Spec, c Controls, log *slog.Logger) (Source, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("open camera %s: %w", s, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open camera %s: %w", s, err)
	}
	var (
		src Source
		err error
	)
	switch s.Scheme {
	case "v4l2":
		src, err = OpenV4L2(s.Arg, c, log)
	case "rpicam":
		o := RpicamOpts{Binary: s.Binary, Camera: s.Camera, Controls: c}
		if s.Arg != "" {
			o.Controls.Width, o.Controls.Height, _ = parseSize(s.Arg)
		}
		src, err = OpenRpicam(ctx, o, log)
	case "gst":
		src, err = OpenGStreamer(s.Arg)
	case "file":
		src, err = OpenFile(s.Arg)
	case "dir":
		src, err = OpenDir(s.Arg, s.Loop)
	case "video":
		src, err = OpenVideo(s.Arg, s.Loop)
	default:
		err = fmt.Errorf("unknown scheme %q: valid schemes are %s", s.Scheme, strings.Join(Schemes(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("open camera %s: %w", s, err)
	}
	log.Info("camera opened", "source", s.String())
	return src, nil
}
