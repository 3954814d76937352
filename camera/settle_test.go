package camera

import (
	"context"
	"errors"
	"image"
	"io"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// listSource plays back a list of frames, then io.EOF: a camera stand-in for Settle.
type listSource struct {
	frames []gocv.Mat
	i      int
}

func (s *listSource) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.NewMat(), err
	}
	if s.i >= len(s.frames) {
		return gocv.NewMat(), io.EOF
	}
	s.i++
	return s.frames[s.i-1].Clone(), nil
}

func (s *listSource) Close() error {
	for _, m := range s.frames {
		m.Close()
	}
	s.frames = nil
	return nil
}

// newListSource returns `moving` frames of the photo shifted further each time (dice rolling),
// then `still` copies of the photo itself.
func newListSource(t testing.TB, photo string, moving, still int) *listSource {
	t.Helper()
	img := gocv.IMRead(photo, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatalf("cannot read %s", photo)
	}
	s := &listSource{}
	for i := 0; i < moving; i++ {
		m := gocv.NewMat()
		shift := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
		shift.SetDoubleAt(0, 0, 1)
		shift.SetDoubleAt(1, 1, 1)
		shift.SetDoubleAt(0, 2, float64(25*(moving-i)))
		shift.SetDoubleAt(1, 2, float64(15*(moving-i)))
		gocv.WarpAffineWithParams(img, &m, shift, image2(img.Cols(), img.Rows()), gocv.InterpolationLinear, gocv.BorderReplicate, black())
		shift.Close()
		s.frames = append(s.frames, m)
	}
	for i := 0; i < still; i++ {
		s.frames = append(s.frames, img.Clone())
	}
	return s
}

func TestSettleWaitsForStillFrames(t *testing.T) {
	photo := filepath.Join("testdata", "dice", "nell-byler", "IMG_20191208_112600.jpg")
	r := NewReader(DefaultReaderOpts())
	img := gocv.IMRead(photo, gocv.IMReadColor)
	want := r.Read(img)
	img.Close()

	src := newListSource(t, photo, 4, 5)
	defer src.Close()
	got, err := Settle(context.Background(), src, r, SettleOpts{Window: 5, Agree: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Values(), want.Values()) || got.Status != want.Status {
		t.Errorf("settled %v %v, the still photo reads %v %v", got.Status, got.Values(), want.Status, want.Values())
	}
	// 4 moving frames, then the first still frame only sets the reference: agreement comes
	// with the 4th still frame (3 votes), leaving one frame unread.
	if src.i != 8 {
		t.Errorf("settle used %d frames, want 8", src.i)
	}
}

func TestSettleNeverStill(t *testing.T) {
	photo := filepath.Join("testdata", "dice", "tai-studio", "eyes_1_1.jpg")
	src := newListSource(t, photo, 6, 0)
	defer src.Close()
	_, err := Settle(context.Background(), src, NewReader(DefaultReaderOpts()), DefaultSettleOpts())
	if !errors.Is(err, io.EOF) {
		t.Errorf("source ran out while moving: got %v, want io.EOF", err)
	}

	// MaxWait passes while the source keeps delivering moving frames.
	slow := &slowSource{listSource: newListSource(t, photo, 6, 0), delay: 20 * time.Millisecond}
	defer slow.Close()
	rd, err := Settle(context.Background(), slow, NewReader(DefaultReaderOpts()), SettleOpts{MaxWait: 50 * time.Millisecond})
	if err != nil || rd.Status != StatusNotSettled {
		t.Errorf("got %v %v, want not settled", rd.Status, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src2 := newListSource(t, photo, 0, 5)
	defer src2.Close()
	if _, err := Settle(ctx, src2, NewReader(DefaultReaderOpts()), DefaultSettleOpts()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

type slowSource struct {
	*listSource
	delay time.Duration
}

func (s *slowSource) Frame(ctx context.Context) (gocv.Mat, error) {
	time.Sleep(s.delay)
	return s.listSource.Frame(ctx)
}

func TestWatchRolls(t *testing.T) {
	a := filepath.Join("testdata", "dice", "tai-studio", "eyes_3_2.jpg")
	b := filepath.Join("testdata", "dice", "tai-studio", "eyes_5_3.jpg")
	// Still on roll A, then roll B tumbles in and settles, then roll A again.
	src := &listSource{}
	for _, part := range []*listSource{newListSource(t, a, 0, 3), newListSource(t, b, 3, 5), newListSource(t, a, 3, 5)} {
		src.frames = append(src.frames, part.frames...)
	}
	defer src.Close()
	var got [][]int
	err := WatchRolls(context.Background(), src, NewReader(DefaultReaderOpts()), DefaultSettleOpts(), func(rd Reading) error {
		got = append(got, rd.Values())
		return nil
	})
	if !errors.Is(err, io.EOF) {
		t.Fatalf("watch ended with %v, want io.EOF from the source", err)
	}
	if want := [][]int{{5}, {3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("rolls reported %v, want %v", got, want)
	}
}

func image2(w, h int) image.Point { return image.Pt(w, h) }
