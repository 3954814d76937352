//go:build matprofile

package camera

import (
	"bytes"
	"context"
	"image"
	"io"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// TestSourcesLeaveNoMat reads from every kind of source this machine has and
// checks that, once the frames and sources are closed, no Mat is alive:
// go test -tags matprofile -run TestSourcesLeaveNoMat ./camera/
func TestSourcesLeaveNoMat(t *testing.T) {
	ctx := context.Background()
	video := writeVideo(t, 1)
	fake := buildFakeRpicam(t)
	frames, _ := filepath.Abs(filepath.Join("testdata", "frames"))
	before := gocv.MatProfile.Count()

	drain := func(name string, src Source, n int) {
		for i := 0; i < n; i++ {
			m, err := src.Frame(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			m.Close()
		}
		src.Close()
	}
	for _, spec := range []string{
		"file:" + framePath(testFrames[0]),
		"dir:testdata/frames?loop",
		"dir:testdata/frames",
		"video:" + video + "?loop",
		"video:" + video,
		"gst:videotestsrc num-buffers=4 ! videoconvert ! video/x-raw,format=BGR ! appsink",
		"file:testdata/frames/LICENSE", // fails to open
	} {
		src, err := Open(ctx, spec, Controls{}, nil)
		if err != nil {
			continue
		}
		drain(spec, src, 7)
	}
	// A source closed with a frame still pending.
	if src, err := Open(ctx, "video:"+video, Controls{}, nil); err == nil {
		src.Close()
	}
	drain("image", NewImageSource(func(context.Context) (image.Image, error) {
		return image.NewRGBA(image.Rect(0, 0, 64, 48)), nil
	}), 3)
	r, err := OpenRpicam(ctx, RpicamOpts{Binary: fake, Env: []string{"FAKE_RPICAM_FRAMES=" + frames, "FAKE_RPICAM_DIE_AFTER=4"},
		DropFrames: -1, MinBackoff: 10 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	drain("rpicam", r, 6)

	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats left alive:\n%s", n, b.String())
	}
}
