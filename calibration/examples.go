package calibration

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/cantstop/cantstop/dice"
)

// MaxExamples bounds the examples of a rig kept in a profile, and apart from them those learnt
// in play: at 6.4 kB each in JSON a profile stays under 1 MB, and the reader fits on the newest
// dice.MaxFit of both.
const MaxExamples = 128

// checkExample reports what is wrong with one example for the built-in networks.
func checkExample(e dice.Example) error { return e.Check(dice.SquareSide, MaxSidePx) }

// checkExamples lists the problems of a list of examples (at most a few, then how many more).
func checkExamples(field string, ex []dice.Example) []error {
	var errs []error
	if len(ex) > MaxExamples {
		errs = append(errs, fmt.Errorf("field %s: %d examples: want at most %d", field, len(ex), MaxExamples))
	}
	bad := 0
	for i, e := range ex {
		if err := checkExample(e); err != nil {
			if bad++; bad <= 3 {
				errs = append(errs, fmt.Errorf("field %s[%d]: %w", field, i, err))
			}
		}
	}
	if bad > 3 {
		errs = append(errs, fmt.Errorf("field %s: %d more bad examples", field, bad-3))
	}
	return errs
}

// DescribeExamples says how many examples there are of each value, as "14 dice (1: 2, 2: 3,
// 3: 1, 4: 0, 5: 4, 6: 4), 2 corrected, 3 spots that were no die".
func DescribeExamples(ex []dice.Example) string {
	if len(ex) == 0 {
		return "none"
	}
	var n [7]int
	corrected := 0
	for _, e := range ex {
		n[e.Value]++
		if e.Weight > 1 {
			corrected++
		}
	}
	s := fmt.Sprintf("%d dice (1: %d, 2: %d, 3: %d, 4: %d, 5: %d, 6: %d)", len(ex)-n[0], n[1], n[2], n[3], n[4], n[5], n[6])
	if corrected > 0 {
		s += fmt.Sprintf(", %d corrected", corrected)
	}
	if n[0] > 0 {
		s += ", " + plural(n[0], "spot", "spots") + " that were no die"
	}
	return s
}

// AddExamples adds ex to a store of examples, newest last, and drops the oldest beyond
// MaxExamples: first those of weight 1, so that a correction outlives plain confirmations.
func AddExamples(store, ex []dice.Example) []dice.Example {
	out := append(slices.Clone(store), ex...)
	for len(out) > MaxExamples {
		i := slices.IndexFunc(out, func(e dice.Example) bool { return e.Weight <= 1 })
		if i < 0 {
			i = 0
		}
		out = slices.Delete(out, i, i+1)
	}
	return out
}

// Learnt is the file of the examples learnt in play (LearntFile in the state directory): the
// dice the players confirmed or corrected, apart from the profile's (which only calibration
// writes).
type Learnt struct {
	Version int `json:"version"`
	// Profile is when the calibration profile the dice were learnt with was made (zero: none);
	// dice learnt with another calibration are not used.
	Profile time.Time `json:"profile"`
	// DropBase: the profile's examples no longer fit the rig (the Learner saw its reading
	// corrected): they are not used until the next calibration.
	DropBase bool           `json:"drop_base,omitempty"`
	Examples []dice.Example `json:"examples"`
	// Background is the one the reader learnt in play without a calibrated one
	// (dice.Reader.LearnBackground), kept for the next start; nil: none.
	Background *dice.Background `json:"background,omitempty"`
}

// ErrDamaged marks a Learnt file that cannot be used as it is (broken, another version, bad
// examples), as opposed to one that could not be read.
var ErrDamaged = errors.New("damaged")

// LearntVersion is the format of the Learnt file this code writes and reads.
const LearntVersion = 1

// LearntFile is the name of the Learnt file in the state directory.
const LearntFile = "rig-examples.json"

// maxLearntBytes bounds the Learnt file read (MaxExamples at 6.4 kB).
const maxLearntBytes = 2 << 20

// LoadLearnt reads a Learnt file. A missing file is an empty store; a damaged one, or one of
// another version, is an error naming the problem (the caller starts a new store).
func LoadLearnt(path string) (Learnt, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Learnt{Version: LearntVersion}, nil
	}
	if err != nil {
		return Learnt{}, fmt.Errorf("read learnt examples: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLearntBytes+1))
	if err != nil {
		return Learnt{}, fmt.Errorf("read learnt examples %s: %w", path, err)
	}
	if len(data) > maxLearntBytes {
		return Learnt{}, fmt.Errorf("learnt examples %s: larger than %d bytes, so %w", path, maxLearntBytes, ErrDamaged)
	}
	l, err := ParseLearnt(data)
	if err != nil {
		return Learnt{}, fmt.Errorf("learnt examples %s: %w (%w)", path, err, ErrDamaged)
	}
	return l, nil
}

// ParseLearnt decodes a Learnt file, refusing broken JSON (with the line and column), another
// version and bad examples.
func ParseLearnt(data []byte) (Learnt, error) {
	var l Learnt
	if err := json.Unmarshal(data, &l); err != nil {
		return Learnt{}, jsonError(data, err)
	}
	if l.Version != LearntVersion {
		return Learnt{}, fmt.Errorf("version %d, this cantstop reads %d", l.Version, LearntVersion)
	}
	if errs := checkExamples("examples", l.Examples); len(errs) > 0 {
		return Learnt{}, errors.Join(errs...)
	}
	if l.Background != nil {
		if err := l.Background.Check(); err != nil {
			return Learnt{}, fmt.Errorf("background: %w", err)
		}
	}
	return l, nil
}

// Save writes the Learnt file atomically.
func (l Learnt) Save(path string) error {
	l.Version = LearntVersion
	if errs := checkExamples("examples", l.Examples); len(errs) > 0 {
		return fmt.Errorf("save learnt examples: %w", errors.Join(errs...))
	}
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("save learnt examples: %w", err)
	}
	return writeAtomic(path, append(data, '\n'))
}
