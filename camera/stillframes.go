package camera

import "gocv.io/x/gocv"

// stillFrames holds the latest frames of a still scene, to be read as their mean.
type stillFrames struct {
	frames []gocv.Mat
	thumbs [][]byte
}

// add takes frame (and its thumbnail) into the stack and returns the mean of the stack, a new
// Mat. Frames older than o.Average, or that differ from frame by more than o.Still (a die
// still creeping, a change of light too slow to count as movement), or of another size, are
// let go first, so that the mean never blurs what moved.
func (s *stillFrames) add(frame gocv.Mat, thumb []byte, o SettleOpts) gocv.Mat {
	keep := 0
	for i := len(s.frames) - 1; i >= 0 && len(s.frames)-i < o.Average; i-- {
		f := s.frames[i]
		if f.Rows() != frame.Rows() || f.Cols() != frame.Cols() || f.Type() != frame.Type() || meanAbsDiff(s.thumbs[i], thumb) > o.Still {
			break
		}
		keep++
	}
	drop := len(s.frames) - keep
	for _, f := range s.frames[:drop] {
		f.Close()
	}
	s.frames = append(s.frames[drop:], frame)
	s.thumbs = append(s.thumbs[drop:], thumb)
	return meanOf(s.frames)
}

// reset lets every frame go.
func (s *stillFrames) reset() {
	for _, f := range s.frames {
		f.Close()
	}
	s.frames, s.thumbs = s.frames[:0], s.thumbs[:0]
}

// meanOf returns the pixel-wise mean of frames of one size and type, rounded to the frames'
// 8-bit depth.
func meanOf(frames []gocv.Mat) gocv.Mat {
	if len(frames) == 1 || frames[0].Type() != gocv.MatTypeCV8UC3 {
		return frames[len(frames)-1].Clone()
	}
	sum := gocv.NewMat()
	defer sum.Close()
	f32 := gocv.NewMat()
	defer f32.Close()
	for i, f := range frames {
		if i == 0 {
			f.ConvertTo(&sum, gocv.MatTypeCV32FC3)
			continue
		}
		f.ConvertTo(&f32, gocv.MatTypeCV32FC3)
		gocv.Add(sum, f32, &sum)
	}
	out := gocv.NewMat()
	sum.ConvertToWithParams(&out, gocv.MatTypeCV8UC3, 1/float32(len(frames)), 0)
	return out
}
