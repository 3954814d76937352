package camera_test

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cantstop/cantstop/camera"
)

// A folder of photos replays a session; the same names open a webcam
// ("v4l2:/dev/video0") or a Pi Camera Module ("rpicam:1280x960").
func ExampleOpen() {
	ctx := context.Background()
	src, err := camera.Open(ctx, "dir:testdata/frames", camera.Controls{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	for {
		frame, err := src.Frame(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(frame.Cols(), frame.Rows())
		frame.Close() // the caller owns each frame
	}
	_, err = camera.Open(ctx, "usb:0", camera.Controls{}, nil)
	fmt.Println(err)
	// Output:
	// 640 640
	// 640 640
	// 640 640
	// open camera: unknown camera source scheme "usb" in "usb:0": valid schemes are v4l2, rpicam, gst, file, dir, video (e.g. v4l2:/dev/video0, v4l2:0, rpicam, rpicam:1280x960, gst:PIPELINE, file:roll.jpg, dir:photos/, video:roll.mp4)
}
