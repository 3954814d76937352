package companion

import (
	"context"
	"fmt"
	"sync"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
)

// CameraReader is the DiceReader over a camera source and the dice reader:
// dice.Settle waits until the dice are still and consecutive frames agree,
// and that reading is reported. OpenCV stays inside packages camera and
// dice; the loop only sees DiceResult.
type CameraReader struct {
	Source camera.Source
	Reader *dice.Reader
	Settle dice.SettleOpts
	// Learn, when set, receives what each roll the players played teaches (dice.Confirm of
	// the last reading): calibration.Learner.Add keeps the dice and adapts Reader.
	Learn func(dice.Confirmation)

	mu   sync.Mutex
	last *dice.Reading // the last reading ReadDice returned, until confirmed
}

// NewCameraReader reads dice from src with r, settling with dice's defaults.
func NewCameraReader(src camera.Source, r *dice.Reader) *CameraReader {
	return &CameraReader{Source: src, Reader: r, Settle: dice.DefaultSettleOpts()}
}

// ReadDice waits for the dice to settle and reads them. want is the number of
// dice rolled; a reading of that many dice is accepted even when the reader
// was set up to expect another count (the roll-off uses two dice).
func (c *CameraReader) ReadDice(ctx context.Context, want int) (DiceResult, error) {
	rd, err := dice.Settle(ctx, c.Source, c.Reader, c.Settle)
	c.mu.Lock()
	c.last = nil
	if err == nil {
		c.last = &rd
	}
	c.mu.Unlock()
	if err != nil {
		return DiceResult{}, fmt.Errorf("read dice: %w", err)
	}
	return result(rd, want), nil
}

// Confirm hands what the last reading and the values the players played teach to Learn. A
// reading is confirmed once.
func (c *CameraReader) Confirm(values []int) {
	c.mu.Lock()
	last := c.last
	c.last = nil
	c.mu.Unlock()
	if c.Learn == nil || last == nil {
		return
	}
	c.Learn(dice.Confirm(*last, values))
}

// result maps the dice reader's reading to the loop's, judged against want dice.
func result(rd dice.Reading, want int) DiceResult {
	r := DiceResult{Values: rd.Values(), Why: rd.Why}
	r.Guess, r.Unsure = rd.Guess()
	switch {
	case rd.Status == dice.StatusUnreadable:
		r.Status = Unreadable
	case rd.Status == dice.StatusNotSettled:
		r.Status = NotSettled
	case len(rd.Dice) != want:
		r.Status = WrongCount
		if r.Why == "" || rd.Status == dice.StatusRead {
			r.Why = fmt.Sprintf("%d dice in the tray, expected %d", len(rd.Dice), want)
		}
	default:
		r.Status, r.Why = Read, ""
	}
	return r
}
