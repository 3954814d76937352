package camera

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera/imghdr"
)

// imageExts are the still-image formats Debian's OpenCV decodes.
func isImageFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".pgm", ".ppm", ".pnm":
		return true
	}
	return false
}

// readImage decodes one image file with a clear error for each way it fails;
// its size is checked before decoding and large images come out at most
// WorkingSide (LoadImage).
func readImage(path string) (gocv.Mat, error) { return LoadImage(path) }

// FileSource returns the same image on every call.
type FileSource struct {
	mu  sync.Mutex
	img gocv.Mat
}

// OpenFile reads one image file, returned (as a fresh copy) by every Frame.
func OpenFile(path string) (*FileSource, error) {
	m, err := readImage(path)
	if err != nil {
		return nil, err
	}
	return &FileSource{img: m}, nil
}

func (s *FileSource) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.img.Ptr() == nil {
		return gocv.Mat{}, errClosed
	}
	return s.img.Clone(), nil
}

func (s *FileSource) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.img.Ptr() != nil {
		s.img.Close()
		s.img = gocv.Mat{}
	}
	return nil
}

var errClosed = errors.New("camera source is closed")

// DirSource returns the images of a folder in name order.
type DirSource struct {
	dir   string
	files []string
	loop  bool

	mu     sync.Mutex
	next   int
	closed bool
}

// OpenDir lists the images in dir (by extension, in name order). Frame returns
// them one by one, then io.EOF, or starts again if loop is set.
func OpenDir(dir string, loop bool) (*DirSource, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &DirSource{dir: dir, loop: loop}
	for _, e := range entries {
		if !e.IsDir() && isImageFile(e.Name()) {
			s.files = append(s.files, e.Name())
		}
	}
	if len(s.files) == 0 {
		return nil, fmt.Errorf("%s holds no images (.jpg, .png, .bmp, .webp, .tif)", dir)
	}
	sort.Strings(s.files)
	return s, nil
}

// Files returns the image names in the order Frame returns them.
func (s *DirSource) Files() []string { return append([]string(nil), s.files...) }

// Frame returns the next image. An image that cannot be decoded gives an
// error naming it; the following call moves on to the next image.
func (s *DirSource) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return gocv.Mat{}, errClosed
	}
	if s.next == len(s.files) {
		if !s.loop {
			return gocv.Mat{}, io.EOF
		}
		s.next = 0
	}
	name := s.files[s.next]
	s.next++
	m, err := readImage(filepath.Join(s.dir, name))
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("frame %d of %s: %w", s.next, s.dir, err)
	}
	return m, nil
}

func (s *DirSource) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}

// captureSource reads frames from an OpenCV VideoCapture (video files and
// GStreamer pipelines). reopen, when set, starts it again at the end.
type captureSource struct {
	name   string
	open   func() (*gocv.VideoCapture, error)
	loop   bool
	mu     sync.Mutex
	vc     *gocv.VideoCapture
	first  *gocv.Mat // read by openCapture, not yet returned
	frames int       // read since the last (re)open
}

// openCapture opens and reads the first frame, so that a file or pipeline
// that opens but gives nothing fails here rather than at the first Frame.
func openCapture(name string, open func() (*gocv.VideoCapture, error), loop bool) (*captureSource, error) {
	vc, err := open()
	if err != nil {
		return nil, err
	}
	if err := checkAnnounced(vc); err != nil {
		vc.Close()
		return nil, fmt.Errorf("%s: %w: scale the video down (e.g. ffmpeg -i IN -vf scale=1280:-2 OUT.mp4) or ask the pipeline for a smaller size", name, err)
	}
	first := gocv.NewMat()
	if !vc.Read(&first) || first.Empty() {
		first.Close()
		vc.Close()
		return nil, fmt.Errorf("%s opened but gave no frame", name)
	}
	return &captureSource{name: name, open: open, loop: loop, vc: vc, first: &first, frames: 1}, nil
}

// checkAnnounced refuses a capture whose announced frame size (the container's,
// the pipeline's caps, the camera's format) is over the limits, before a frame
// is decoded; 0 where the back-end cannot tell until it decodes one (FitFrame
// checks the frames themselves).
func checkAnnounced(vc propSetter) error {
	w, h := int(vc.Get(gocv.VideoCaptureFrameWidth)), int(vc.Get(gocv.VideoCaptureFrameHeight))
	if (imghdr.Header{Format: "video", Width: w, Height: h}).Check() != nil {
		return fmt.Errorf("frames of %dx%d px announced, more than the %d px a side and %d MP read",
			w, h, imghdr.MaxSide, imghdr.MaxFullDecodePixels/1_000_000)
	}
	return nil
}

// closeFailed frees a VideoCapture that gocv returned with an error.
func closeFailed(vc *gocv.VideoCapture) {
	if vc != nil {
		vc.Close()
	}
}

func (s *captureSource) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.vc == nil {
		return gocv.Mat{}, errClosed
	}
	if s.first != nil {
		m := *s.first
		s.first = nil
		return FitFrame(m, s.name)
	}
	m := gocv.NewMat()
	if s.vc.Read(&m) && !m.Empty() {
		s.frames++
		return FitFrame(m, s.name)
	}
	if !s.loop || s.frames == 0 {
		m.Close()
		return gocv.Mat{}, io.EOF
	}
	s.vc.Close()
	s.vc = nil
	vc, err := s.open()
	if err != nil {
		m.Close()
		return gocv.Mat{}, fmt.Errorf("reopen %s: %w", s.name, err)
	}
	s.vc, s.frames = vc, 0
	if s.vc.Read(&m) && !m.Empty() {
		s.frames++
		return FitFrame(m, s.name)
	}
	m.Close()
	return gocv.Mat{}, io.EOF
}

func (s *captureSource) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first != nil {
		s.first.Close()
		s.first = nil
	}
	if s.vc != nil {
		s.vc.Close()
		s.vc = nil
	}
	return nil
}

// videoCaptureMJPEG is OpenCV's built-in MJPEG .avi reader (cv::CAP_OPENCV_MJPEG),
// which gocv v0.31.0 does not name. It is the one video back-end the lean
// appliance build (scripts/opencv-lean.sh, no FFmpeg) always has.
const videoCaptureMJPEG gocv.VideoCaptureAPI = 2200

// OpenVideo opens a video file: anything FFmpeg or GStreamer reads, or an MJPEG
// .avi. Frame returns io.EOF at the end, or starts again if loop is set.
func OpenVideo(path string, loop bool) (Source, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a folder: use dir:%s", path, path)
	}
	open := func() (*gocv.VideoCapture, error) {
		for _, api := range []gocv.VideoCaptureAPI{gocv.VideoCaptureFFmpeg, gocv.VideoCaptureGstreamer, videoCaptureMJPEG} {
			vc, err := gocv.VideoCaptureFileWithAPI(path, api)
			if err == nil && vc.IsOpened() {
				return vc, nil
			}
			closeFailed(vc)
		}
		return nil, errors.New("neither FFmpeg, GStreamer nor OpenCV's MJPEG reader opens it")
	}
	src, err := openCapture(path, open, loop)
	if err != nil {
		return nil, fmt.Errorf("%s: not a video OpenCV can decode (try an .mp4 or .avi; check it plays with ffprobe %s): %w", path, path, err)
	}
	return src, nil
}
