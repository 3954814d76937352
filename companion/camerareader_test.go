package companion

import (
	"context"
	"fmt"
	"image"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
)

// The camera reader hands the dice of its last reading, labelled as the players played them,
// to Learn once; a roll not read by it teaches nothing.
func TestCameraReaderLearns(t *testing.T) {
	frames := loadFrames(t)
	cur := 0
	src := camera.NewImageSource(func(ctx context.Context) (image.Image, error) { return frames[cur].img, nil })
	defer src.Close()
	r, err := dice.NewReader(dice.Opts{Expect: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cr := NewCameraReader(src, r)
	var learnt [][]dice.Example
	cr.Learn = func(c dice.Confirmation) { learnt = append(learnt, c.Examples) }

	cr.Confirm([]int{1, 1, 2, 6}) // nothing read yet
	// The first frame read in full (the simulated table's 1s are sometimes missed).
	var res DiceResult
	for cur = range frames {
		if res, err = cr.ReadDice(context.Background(), 4); err == nil && res.Status == Read && fmt.Sprint(res.Values) == "["+frames[cur].values+"]" {
			break
		}
	}
	if res.Status != Read {
		t.Fatalf("no frame read in full: last %+v, %v", res, err)
	}
	cr.Confirm(res.Values)
	cr.Confirm(res.Values) // once only
	if len(learnt) != 1 || len(learnt[0]) != 4 {
		t.Fatalf("learnt %d batches, want one of 4 dice", len(learnt))
	}
	var n [7]int
	for _, e := range learnt[0] {
		n[e.Value]++
		if len(e.Square) != dice.SquareBytes || e.Weight != 1 {
			t.Errorf("example %d: %d bytes, weight %g", e.Value, len(e.Square), e.Weight)
		}
	}
	var want [7]int
	for _, v := range res.Values {
		want[v]++
	}
	if n != want {
		t.Errorf("learnt values %v, want %v (%s)", n, want, frames[cur].values)
	}
}

// An unread roll carries the reader's guesses for the dice it could not read: the read values
// first, then the values it leaned to, which the correction screen starts from. On the recorded
// nell-byler frame two of its four dice are not read surely; one guess is right.
func TestCameraReaderGuesses(t *testing.T) {
	var fr *frame
	for _, f := range loadFrames(t) {
		if f.name == "IMG_20191209_095929.jpg" {
			fr = &f
		}
	}
	if fr == nil {
		t.Fatal("no IMG_20191209_095929.jpg in testdata/frames")
	}
	src := camera.NewImageSource(func(ctx context.Context) (image.Image, error) { return fr.img, nil })
	defer src.Close()
	r, err := dice.NewReader(dice.Opts{Expect: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := NewCameraReader(src, r).ReadDice(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Unreadable || res.Unsure == 0 || len(res.Guess) != 4 || res.Unsure != 4-len(res.Values) ||
		!slices.Equal(res.Guess[:len(res.Values)], res.Values) {
		t.Fatalf("got %+v, want unreadable with the read values first and a guess for each die not read", res)
	}
	left := strings.Fields(fr.values)
	for _, v := range res.Guess {
		if i := slices.Index(left, strconv.Itoa(v)); i >= 0 {
			left = slices.Delete(left, i, i+1)
		}
	}
	if len(left) > 1 {
		t.Errorf("guesses %v of roll %s: %d dice to change, want at most 1", res.Guess, fr.values, len(left))
	}
}
