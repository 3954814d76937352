package companion

import (
	"context"
	"fmt"
	"slices"

	"github.com/cantstop/cantstop/camera"
)

// CameraReader is the DiceReader over a camera source and the dice reader:
// it reads frames until consecutive readings agree that the dice are still,
// then reports that reading. OpenCV stays inside package camera; the loop
// only sees DiceResult.
type CameraReader struct {
	Source camera.Source
	Reader *camera.Reader
	// Agree is how many consecutive frames must give the same reading; default 2.
	Agree int
	// MaxFrames bounds the frames read per roll before giving up as not settled; default 30.
	MaxFrames int
}

// NewCameraReader reads dice from src with r.
func NewCameraReader(src camera.Source, r *camera.Reader) *CameraReader {
	return &CameraReader{Source: src, Reader: r, Agree: 2, MaxFrames: 30}
}

// ReadDice waits for the dice to settle and reads them. want is the number of
// dice rolled; a reading of that many dice is accepted even when the reader
// was set up to expect another count (the roll-off uses two dice).
func (c *CameraReader) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	agree, maxFrames := max(c.Agree, 1), max(c.MaxFrames, 1)
	var last camera.Reading
	same := 0
	for i := 0; i < maxFrames; i++ {
		rd, err := c.frame(ctx)
		if err != nil {
			return DiceResult{}, err
		}
		if i > 0 && sameReading(rd, last) {
			same++
		} else {
			same = 1
		}
		last = rd
		if same >= agree {
			return result(rd, want), nil
		}
	}
	r := result(last, want)
	r.Status = NotSettled
	r.Why = fmt.Sprintf("the reading changed over %d frames: dice still moving? (last: %s)", maxFrames, last.Why)
	return r, nil
}

func (c *CameraReader) frame(ctx context.Context) (camera.Reading, error) {
	m, err := c.Source.Frame(ctx)
	if err != nil {
		return camera.Reading{}, fmt.Errorf("camera frame: %w", err)
	}
	defer m.Close()
	return c.Reader.Read(m), nil
}

func sameReading(a, b camera.Reading) bool {
	return a.Status == b.Status && len(a.Dice) == len(b.Dice) && slices.Equal(a.Values(), b.Values())
}

// result maps the camera's reading to the loop's, judged against want dice.
func result(rd camera.Reading, want int) DiceResult {
	r := DiceResult{Values: rd.Values(), Why: rd.Why}
	switch {
	case rd.Status == camera.StatusUnreadable:
		r.Status = Unreadable
	case rd.Status == camera.StatusNotSettled:
		r.Status = NotSettled
	case len(rd.Dice) != want:
		r.Status = WrongCount
		if r.Why == "" || rd.Status == camera.StatusRead {
			r.Why = fmt.Sprintf("%d dice in the tray, expected %d", len(rd.Dice), want)
		}
	default:
		r.Status, r.Why = Read, ""
	}
	return r
}
