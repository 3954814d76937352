package companion

import (
	"context"
	"fmt"

	"github.com/cantstop/cantstop/camera"
)

// CameraReader is the DiceReader over a camera source and the dice reader:
// camera.Settle waits until the dice are still and consecutive frames agree,
// and that reading is reported. OpenCV stays inside package camera; the
// loop only sees DiceResult.
type CameraReader struct {
	Source camera.Source
	Reader *camera.Reader
	Settle camera.SettleOpts
}

// NewCameraReader reads dice from src with r, settling with camera's defaults.
func NewCameraReader(src camera.Source, r *camera.Reader) *CameraReader {
	return &CameraReader{Source: src, Reader: r, Settle: camera.DefaultSettleOpts()}
}

// ReadDice waits for the dice to settle and reads them. want is the number of
// dice rolled; a reading of that many dice is accepted even when the reader
// was set up to expect another count (the roll-off uses two dice).
func (c *CameraReader) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	rd, err := camera.Settle(ctx, c.Source, c.Reader, c.Settle)
	if err != nil {
		return DiceResult{}, fmt.Errorf("read dice: %w", err)
	}
	return result(rd, want), nil
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
