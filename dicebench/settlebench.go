package dicebench

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// noisyFrames is a Source that gives one photo as a still camera gives a scene: each frame
// with its own sensor noise (noise8@1, @2, ...), n frames, then io.EOF.
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
	return noiseSeeded(8, uint64(s.i))(s.img), nil
}

func (s *noisyFrames) Close() error { return nil }

// settleNoisy reads img as dice.Settle reads a still scene from a camera (dice.DefaultSettleOpts, no
// time limit) over at most n frames of sensor noise. When no reading gets the votes in n
// frames, it returns StatusNotSettled: a camera would go on giving frames, the bench stops.
func settleNoisy(ctx context.Context, img gocv.Mat, r *dice.Reader, n int) (dice.Reading, error) {
	o := dice.DefaultSettleOpts()
	o.MaxWait = 0
	rd, err := dice.Settle(ctx, &noisyFrames{img: img, n: n}, r, o)
	if errors.Is(err, io.EOF) {
		return dice.Reading{Status: dice.StatusNotSettled, Why: fmt.Sprintf("no reading had %d votes of %d in %d frames", o.Agree, o.Window, n)}, nil
	}
	return rd, err
}
