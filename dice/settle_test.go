package dice

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
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
		gocv.WarpAffineWithParams(img, &m, shift, image.Pt(img.Cols(), img.Rows()), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{0, 0, 0, 255})
		shift.Close()
		s.frames = append(s.frames, m)
	}
	for i := 0; i < still; i++ {
		s.frames = append(s.frames, img.Clone())
	}
	return s
}

func TestSettleWaitsForStillFrames(t *testing.T) {
	photo := filepath.Join("testdata", "photos", "matteop65", "four_41.jpg")
	r := settleReader(t)
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
	photo := filepath.Join("testdata", "photos", "tai-studio", "eyes_1_1.jpg")
	src := newListSource(t, photo, 6, 0)
	defer src.Close()
	_, err := Settle(context.Background(), src, settleReader(t), DefaultSettleOpts())
	if !errors.Is(err, io.EOF) {
		t.Errorf("source ran out while moving: got %v, want io.EOF", err)
	}

	// MaxWait passes while the source keeps delivering moving frames.
	slow := &slowSource{listSource: newListSource(t, photo, 6, 0), delay: 20 * time.Millisecond}
	defer slow.Close()
	rd, err := Settle(context.Background(), slow, settleReader(t), SettleOpts{MaxWait: 50 * time.Millisecond})
	if err != nil || rd.Status != StatusNotSettled {
		t.Errorf("got %v %v, want not settled", rd.Status, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src2 := newListSource(t, photo, 0, 5)
	defer src2.Close()
	if _, err := Settle(ctx, src2, settleReader(t), DefaultSettleOpts()); !errors.Is(err, context.Canceled) {
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
	a := filepath.Join("testdata", "photos", "matteop65", "three_6.jpg")
	b := filepath.Join("testdata", "photos", "matteop65", "five_4.jpg")
	// Still on roll A, then roll B tumbles in and settles, then roll A again.
	src := &listSource{}
	for _, part := range []*listSource{newListSource(t, a, 0, 3), newListSource(t, b, 3, 5), newListSource(t, a, 3, 5)} {
		src.frames = append(src.frames, part.frames...)
	}
	defer src.Close()
	var got [][]int
	err := WatchRolls(context.Background(), src, settleReader(t), DefaultSettleOpts(), func(rd Reading) error {
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

// TestSettleDisputed: when still frames of one scene read a die two ways, the majority is no
// proof: the die is refused, naming both values. Here every third frame has the middle pip of
// the 3 painted out (a speck of glare taking it, flickering light), which reads as a 2; each
// frame is read alone (Average 1), as a mean would smooth the flicker away.
func TestSettleDisputed(t *testing.T) {
	img := settlePhoto(t, "matteop65/three_1.jpg")
	defer img.Close()
	painted := img.Clone()
	defer painted.Close()
	c := painted.GetVecbAt(235, 326-12) // the face's colour left of the pip
	gocv.Circle(&painted, image.Pt(326, 235), 7, color.RGBA{c[2], c[1], c[0], 0}, -1)
	r := settleReader(t)
	if rd := r.Read(painted); fmt.Sprint(rd.Values()) != "[2]" {
		t.Fatalf("the painted frame reads %v %v, want [2]: the test needs a frame read otherwise", rd.Status, rd.Values())
	}
	src := &listSource{}
	for i := 0; i < 12; i++ {
		if i%3 == 2 {
			src.frames = append(src.frames, painted.Clone())
		} else {
			src.frames = append(src.frames, img.Clone())
		}
	}
	defer src.Close()
	rd, err := Settle(context.Background(), src, r, SettleOpts{Window: 5, Agree: 3, Average: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Status != StatusUnreadable || len(rd.Dice) != 1 || rd.Dice[0].Value != 0 || !strings.Contains(rd.Why, "read 2 or 3 in still frames") {
		t.Errorf("settled %v %v (%s), want unreadable: read 2 or 3 in still frames", rd.Status, rd.Values(), rd.Why)
	}
}

// TestDisputed: a die is disputed only by a read vote with a die in its place read another
// value, whatever the vote's other dice and however its box is drawn; a vote that is
// unreadable, refuses the die, or reads the other value elsewhere (a touching neighbour too),
// is no reading of this die.
func TestDisputed(t *testing.T) {
	die := func(v, x int) Die { return Die{Value: v, Box: image.Rect(x, 100, x+40, 140)} }
	read := func(ds ...Die) Reading { return Reading{Status: StatusRead, Dice: ds} }
	rd := read(die(3, 100), die(5, 300))
	for _, c := range []struct {
		name string
		vote Reading
		want int
	}{
		{"same reading", read(die(3, 100), die(5, 300)), -1},
		{"second die read 6", read(die(3, 100), die(6, 305)), 1},
		{"first die read 2", read(die(2, 98), die(5, 300)), 0},
		{"unreadable", Reading{Status: StatusUnreadable, Dice: []Die{die(3, 100), die(6, 300)}}, -1},
		{"another count", read(die(3, 100), die(6, 300), die(2, 500)), 1},
		{"another count, no die there", read(die(3, 100), die(2, 500)), -1},
		{"a smaller box inside it", read(die(3, 100), Die{Value: 1, Box: image.Rect(290, 112, 315, 137)}), 1},
		{"a touching neighbour", read(die(3, 100), die(6, 340)), -1},
		{"6 elsewhere", read(die(3, 100), die(6, 400)), -1},
		{"second die refused", Reading{Status: StatusUnreadable, Dice: []Die{die(3, 100), die(0, 300)}}, -1},
	} {
		if got := disputed([]Reading{rd, c.vote}, rd); got != c.want {
			t.Errorf("%s: disputed die %d, want %d", c.name, got, c.want)
		}
	}
	out := refuseDisputed(rd, []Reading{rd, read(die(3, 100), die(6, 300)), read(die(3, 100), die(4, 300))}, 1)
	if out.Status != StatusUnreadable || out.Dice[0].Value != 3 || out.Dice[1].Value != 0 ||
		!strings.Contains(out.Dice[1].Why, "read 4, 5 or 6") || !strings.HasPrefix(out.Why, "die at (320,120): ") || rd.Dice[1].Value != 5 {
		t.Errorf("refused: %v %+v (%s); the votes' own reading must stay as it was (%d)", out.Status, out.Dice, out.Why, rd.Dice[1].Value)
	}
	if got := disputed([]Reading{rd, rd}, Reading{Status: StatusUnreadable, Dice: rd.Dice}); got != -1 {
		t.Errorf("a refused reading is disputed at die %d: only a reading to be trusted can be", got)
	}
}

// TestVerdict: a reading stands when Agree of the Window frames give it; a refusal only once
// the Window is full and the last Agree frames all give it, or once twice the Window's frames
// have passed; with no agreement by then the latest reading is refused.
func TestVerdict(t *testing.T) {
	o := SettleOpts{Window: 5, Agree: 3}
	read := func(v int) Reading {
		return Reading{Status: StatusRead, Dice: []Die{{Value: v, Box: image.Rect(100, 100, 140, 140)}}}
	}
	refused := Reading{Status: StatusUnreadable, Dice: []Die{{Box: image.Rect(100, 100, 140, 140)}}}
	for _, c := range []struct {
		name   string
		frames []Reading
		at     int // the frame (1-based) the verdict comes at; 0: none
		want   Status
	}{
		{"read at once", []Reading{read(3), read(3), read(3)}, 3, StatusRead},
		{"refused, then read", []Reading{refused, refused, refused, read(3), read(3), read(3)}, 6, StatusRead},
		{"refused, read, refused", []Reading{refused, read(3), read(3), refused, refused, read(3)}, 6, StatusRead},
		{"refused throughout", []Reading{refused, refused, refused, refused, refused}, 5, StatusUnreadable},
		{"refused mostly", []Reading{refused, read(3), refused, read(2), refused, read(4), refused, read(5), refused, read(6)}, 10, StatusUnreadable},
		{"never agreed", []Reading{read(1), read(2), read(3), read(4), read(5), read(6), read(1), read(2), read(3), read(4)}, 10, StatusUnreadable},
		{"not yet", []Reading{read(1), read(2), read(3), read(4), read(5), read(6), read(1), read(2), read(3)}, 0, 0},
	} {
		var votes []Reading
		at, got := 0, Reading{}
		for i, f := range c.frames {
			votes = append(votes, f)
			if len(votes) > o.Window {
				votes = votes[1:]
			}
			if rd, ok := verdict(votes, o, i+1); ok {
				at, got = i+1, rd
				break
			}
		}
		if at != c.at || at > 0 && got.Status != c.want {
			t.Errorf("%s: verdict %v at frame %d, want %v at %d", c.name, got.Status, at, c.want, c.at)
		}
	}
	rd, _ := verdict([]Reading{read(1), read(2), read(3), read(4), read(5)}, o, 10)
	if rd.Status != StatusUnreadable || !strings.Contains(rd.Why, "not clear enough") || rd.Dice[0].Value != 5 {
		t.Errorf("no agreement after 10 frames: %v %v (%s), want the latest refused", rd.Status, rd.Values(), rd.Why)
	}
}

// settleReader is a Reader with the built-in networks, closed at the end of the test.
func settleReader(t testing.TB) *Reader {
	t.Helper()
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// settlePhoto reads testdata/photos/file.
func settlePhoto(t testing.TB, file string) gocv.Mat {
	t.Helper()
	img := gocv.IMRead(filepath.Join("testdata", "photos", file), gocv.IMReadColor)
	if img.Empty() {
		img.Close()
		t.Fatalf("cannot read testdata/photos/%s", file)
	}
	return img
}

// sensorNoise returns a copy of m with Gaussian noise of standard deviation sd added to every
// channel of every pixel, from the generator seeded with seed: one frame of a still scene
// from a small sensor at high gain.
func sensorNoise(m gocv.Mat, sd float64, seed uint64) gocv.Mat {
	b := m.ToBytes()
	rng := rand.New(rand.NewPCG(seed, 2))
	for i, v := range b {
		b[i] = uint8(math.Max(0, math.Min(255, math.Round(float64(v)+sd*rng.NormFloat64()))))
	}
	d, err := gocv.NewMatFromBytes(m.Rows(), m.Cols(), m.Type(), b)
	if err != nil {
		return m.Clone()
	}
	return d
}

// noisyFrames gives one picture as a still camera gives a scene: each frame with its own
// sensor noise of sd 8, n frames, then io.EOF.
type noisyFrames struct {
	img  gocv.Mat
	n, i int
}

func (s *noisyFrames) Frame(ctx context.Context) (gocv.Mat, error) {
	if err := ctx.Err(); err != nil {
		return gocv.Mat{}, err
	}
	if s.i >= s.n {
		return gocv.Mat{}, io.EOF
	}
	s.i++
	return sensorNoise(s.img, 8, uint64(s.i)), nil
}

func (s *noisyFrames) Close() error { return nil }
