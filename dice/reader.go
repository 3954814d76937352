package dice

import (
	"fmt"
	"image"
	"sync"

	"gocv.io/x/gocv"
)

// Opts tunes a Reader. The zero value reads any number of dice anywhere in the frame with
// the built-in networks.
type Opts struct {
	// Expect is the number of dice that must be on the table (4 in the companion); 0 accepts any count.
	Expect int `json:"expect"`
	// Tray limits the dice to those whose centre lies in this rectangle of the frame (frame
	// pixels); empty = the whole frame.
	Tray image.Rectangle `json:"tray"`
	// Model is a folder holding detector.onnx, face.onnx and model.json to use instead of the
	// built-in networks (held-out folds, retrained weights); "" = built in.
	Model string `json:"model,omitempty"`
}

// Reader reads dice from frames with two networks run by OpenCV's dnn module: a detector that
// finds each die's centre and size, and a face network that reads each die's top face or says
// it cannot. A Reader may be used from several goroutines; Close frees the networks.
type Reader struct {
	o    Opts
	m    *model
	head *head       // the rig's own last layer (Adapt), or nil
	bg   *Background // the rig's empty table (SetBackground), or nil
	mu   sync.Mutex  // guards the networks, head and background: an OpenCV Net is not safe for concurrent use
	// LearnBackground: scenes to learn a background from (0: none), the scenes so far, and
	// whether bg was learnt so.
	learnBg  int
	bgm      *BackgroundMaker
	bgLearnt bool
}

// NewReader loads the networks (the built-in ones unless o.Model names a folder).
func NewReader(o Opts) (*Reader, error) {
	m, err := loadModel(o.Model)
	if err != nil {
		return nil, fmt.Errorf("load dice model: %w", err)
	}
	return &Reader{o: o, m: m}, nil
}

// Opts returns the options the Reader was made with.
func (r *Reader) Opts() Opts { return r.o }

// Read finds the dice in a BGR frame and reads their top faces. It never guesses: a die whose
// face is not read surely, or a spot that may be a die, makes the Reading StatusUnreadable.
func (r *Reader) Read(frame gocv.Mat) Reading {
	if frame.Empty() || frame.Channels() != 3 {
		return Reading{Status: StatusUnreadable, Why: "empty or not a colour frame"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cands, err := r.m.candidates(frame)
	if err != nil {
		return Reading{Status: StatusUnreadable, Why: err.Error()}
	}
	cands = inTray(cands, r.o.Tray)
	cands, spots := r.bg.staticDrop(frame, cands)
	th := r.m.th
	hid, err := r.m.hidFaces(frame, spots, th)
	if err != nil {
		return Reading{Status: StatusUnreadable, Why: err.Error()}
	}
	if hid {
		th = th.afterSpot()
	}
	f, err := r.m.faceProbs(frame, cands, r.head)
	if err != nil {
		return Reading{Status: StatusUnreadable, Why: err.Error()}
	}
	defer func() { f.Close() }()
	wide := r.m.wideReader(frame, cands)
	rd := decide(cands, f.probs, f.net, th, r.o.Expect, nil, wide)
	framed := cands // the candidates the dice's cand index
	if rd.Status != StatusRead && !rd.unsure() {
		// Look closer only now: a look costs about a third of a frame, and most frames are read
		// without (pipeline.decide). A die read unsurely leaves the frame unread whatever the
		// looks find: the dice are decided before the weaker candidates looked at.
		all, looks, err := r.m.withLooks(frame, cands)
		if err != nil {
			return Reading{Status: StatusUnreadable, Why: err.Error()}
		}
		if len(all) > len(cands) {
			g, err := r.m.faceProbs(frame, all[len(cands):], r.head)
			if err != nil {
				return Reading{Status: StatusUnreadable, Why: err.Error()}
			}
			f = f.join(g)
			rd = decide(all, f.probs, f.net, th, r.o.Expect, looks, wide)
			framed = all
		}
	}
	if len(rd.Dice) == 0 {
		// No die found: it may be too big for the detector, close up. Look farther away.
		far, err := r.m.farther(frame)
		if err != nil {
			return Reading{Status: StatusUnreadable, Why: err.Error()}
		}
		far, _ = r.bg.staticDrop(frame, inTray(far, r.o.Tray))
		if len(far) > 0 {
			g, err := r.m.faceProbs(frame, far, r.head)
			if err != nil {
				return Reading{Status: StatusUnreadable, Why: err.Error()}
			}
			f.Close()
			f = g
			rd = decide(far, f.probs, f.net, th, r.o.Expect, nil, r.m.wideReader(frame, far))
			framed = far
		}
	}
	rd = atEdge(rd, framed, frame.Cols(), frame.Rows())
	for i := range rd.Dice {
		d := &rd.Dice[i]
		net := f.net[d.cand]
		d.Square = f.sq[d.cand].ToBytes() // only the dice's: the other candidates teach nothing
		d.netSure = d.Value > 0 && topValue(net) == d.Value && net[d.Value] >= r.m.th.Face
	}
	return rd
}

// SetBackground has the reader drop the detector's peaks on spots that look as they do on the
// rig's empty table (nil: none dropped). The reader keeps b; it must not change after.
func (r *Reader) SetBackground(b *Background) error {
	if b != nil {
		if err := b.Check(); err != nil {
			return err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bg, r.bgLearnt, r.bgm = b, false, nil
	return nil
}

// Close frees the networks' C memory.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m.close()
}
