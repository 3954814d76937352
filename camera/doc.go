// Package camera gives the companion its frames: it opens a frame source named by a spec
// (V4L2 webcams, Pi cameras through rpicam-vid's MJPEG stream, GStreamer pipelines, picture
// files, folders, videos, synthetic images) and loads pictures safely. It holds no dice
// reading: package dice reads the frames, and package dicebench scores that reader.
//
//	src, err := camera.Open(ctx, "v4l2:/dev/video0", camera.Controls{}, log) // or "rpicam:1280x960", "dir:photos/"
//	if err != nil { ... }
//	defer src.Close()
//	frame, err := src.Frame(ctx) // a BGR gocv.Mat the caller must Close
//
// Specs are listed by Schemes and parsed by ParseSpec; Controls fix exposure, white balance,
// gain and focus so every frame looks alike. Picture files are loaded with bounds
// (imagefile.go: LoadImage, DecodeImage): the header is checked (package imghdr) before
// anything is decoded, a JPEG cut short is refused, formats this build's OpenCV lacks
// (codecs_*.go) are refused by name, and frames are scaled to at most WorkingSide (2048)
// pixels. rpicam-vid's stream is cut into images by package mjpeg. Overexposed is the check of a
// picture clipped white that calibration and cantstop doctor make; OpenCVVersion reports the
// OpenCV linked in.
package camera
