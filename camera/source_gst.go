package camera

import (
	"fmt"

	"gocv.io/x/gocv"
)

// OpenGStreamer runs a GStreamer pipeline through OpenCV's GStreamer back-end.
// The pipeline must end in appsink, e.g.
// "libcamerasrc ! video/x-raw,width=1280,height=960 ! videoconvert ! appsink".
// Frame returns io.EOF when the pipeline ends.
func OpenGStreamer(pipeline string) (Source, error) {
	open := func() (*gocv.VideoCapture, error) {
		vc, err := gocv.VideoCaptureFileWithAPI(pipeline, gocv.VideoCaptureGstreamer)
		if err != nil || !vc.IsOpened() {
			closeFailed(vc)
			return nil, fmt.Errorf("GStreamer pipeline %q did not start: check it with gst-launch-1.0 (replacing appsink by fakesink) and that its plugins are installed (gstreamer1.0-plugins-base, -good; gstreamer1.0-libcamera for libcamerasrc)", pipeline)
		}
		return vc, nil
	}
	return openCapture("gst:"+pipeline, open, false)
}
