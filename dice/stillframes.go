package dice

import "gocv.io/x/gocv"

// stillFrames averages the frames of a still scene as they come: the mean of the first
// o.Average, then each new frame weighted 1/o.Average against the average so far. It keeps
// one 8-bit picture, not the frames: the companion's memory budget has no room for four
// frames and a float sum (BENCHMARKS-companion.md). Rounding the average to 8 bits each time
// leaves it within about 2 levels of the float mean, far below the sensor's noise.
type stillFrames struct {
	avg    gocv.Mat // valid when n > 0
	n      int      // frames averaged since the last reset
	thumbs [][]byte // the latest frames' thumbnails, at most o.Average-1
}

// add takes frame (and its thumbnail) into the average and closes it. It returns the
// average, owned by s: valid until the next add or reset. A frame that differs from one of
// the latest frames by more than o.Still (a die still creeping, a change of light too slow
// to count as movement), or of another size or type, starts the average again, so that it
// never blurs what moved.
func (s *stillFrames) add(frame gocv.Mat, thumb []byte, o SettleOpts) gocv.Mat {
	restart := s.n == 0 || s.avg.Rows() != frame.Rows() || s.avg.Cols() != frame.Cols() || s.avg.Type() != frame.Type() ||
		frame.Type() != gocv.MatTypeCV8UC3
	for _, t := range s.thumbs {
		if meanAbsDiff(t, thumb) > o.Still {
			restart = true
		}
	}
	if restart {
		s.reset()
		s.avg, s.n = frame, 1
	} else {
		s.n++
		w := 1 / float64(min(s.n, o.Average))
		gocv.AddWeighted(s.avg, 1-w, frame, w, 0, &s.avg)
		frame.Close()
	}
	s.thumbs = append(s.thumbs, thumb)
	if len(s.thumbs) >= o.Average {
		s.thumbs = s.thumbs[len(s.thumbs)-(o.Average-1):]
	}
	return s.avg
}

// reset lets the average go.
func (s *stillFrames) reset() {
	if s.n > 0 {
		s.avg.Close()
	}
	s.n, s.thumbs = 0, s.thumbs[:0]
}
