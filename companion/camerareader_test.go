package companion

import (
	"context"
	"fmt"
	"image"
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
