package dicebench

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// BenchOpts tunes Bench.
type BenchOpts struct {
	// MaxDice splits each folder: photos with at most MaxDice dice are counted in the total, the
	// others are reported apart as "NAME>N". 0 counts every photo.
	MaxDice int
	// Failures, when set, is a folder that receives an annotated picture of every photo not read exactly.
	Failures string
	// Vary names a Variation applied to every photo before it is read ("" for none).
	Vary string
	// Settle, when above 0, reads each photo (changed by Vary first, if set) as the companion
	// reads a still tray: dice.Settle over up to that many frames of it, each with its own sensor
	// noise (noise8@1, @2, ...), with dice.DefaultSettleOpts. A photo on which no reading gets the
	// votes counts as unreadable.
	Settle int
	// Adapt, when above 0, adapts the reader to each folder on its first Adapt photos by name
	// (of those with at most MaxDice dice, as the rolls of a game), their labels standing in for
	// the players' confirmations, makes the rig's background from them (dice.Background) unless
	// NoBackground, and measures the rest, and the general reader on the rest beside it
	// (AdaptInfo.Untaught).
	Adapt        int
	NoBackground bool
	// LearnBackground (with Settle) has the reader learn each folder's background from the
	// scenes it settles on, the photos in name order, with no labels, as the service does
	// without a calibration (dice.Reader.LearnBackground); every photo is measured.
	LearnBackground bool
}

// BenchSet is the score of one folder (or of the total).
type BenchSet struct {
	Name        string `json:"name"`
	Photos      int    `json:"photos"`
	Exact       int    `json:"exact"`        // multiset of values exactly right
	Dice        int    `json:"dice"`         // dice in the labels
	DiceCorrect int    `json:"dice_correct"` // multiset intersection of read and true values
	// Misread counts photos reported StatusRead with a die read as a wrong value: the failure
	// that matters most. Incomplete counts photos reported StatusRead whose values are all
	// right but where dice were missed (with dice.Opts.Expect set, that is StatusWrongCount).
	Misread int `json:"misread"`
	// Silent counts the misread photos read with as many dice as labelled. The companion
	// expects its four dice (dice.Opts.Expect) and refuses a reading of another count, so
	// only these would reach the players.
	Silent     int `json:"silent"`
	Incomplete int `json:"incomplete"`
	Unreadable int `json:"unreadable"` // photos with a status other than read
	// GuessRight counts the unread photos with every die found whose guess (dice.Reading.Guess:
	// the values read, then the values the unread dice leaned to) is the roll, GuessOneOff those
	// one die off: where the players' correction starts right, or one change away.
	GuessRight  int     `json:"guess_right"`
	GuessOneOff int     `json:"guess_one_off"`
	MedianMS    float64 `json:"median_ms"`
	P95MS       float64 `json:"p95_ms"`
	// Confusion[true][read]: read 0 = found but unreadable, 7 = missed (not found); row 0 = extra dice.
	// With boxes.csv dice are matched by position; otherwise the leftovers of the multisets are paired in order.
	Confusion [7][8]int `json:"confusion"`
	// Detection, from boxes.csv: true dice whose box holds a found die's centre, and found dice in no box.
	Boxes     int      `json:"boxes,omitempty"`
	BoxesHit  int      `json:"boxes_found,omitempty"`
	FalseDice int      `json:"false_dice,omitempty"`
	Failed    []string `json:"failed,omitempty"` // photos not read exactly
	// MisreadPhotos lists the misread photos with both multisets: "file: true [1 2 3 4] read [1 2 3 5]".
	MisreadPhotos []string `json:"misread_photos,omitempty"`
	// WrongDice lists, from boxes.csv, dice read with a wrong value: "file: true 5 read 6 at (x,y)".
	WrongDice []string `json:"wrong_dice,omitempty"`
	// Adapted says how the reader was adapted to the folder (BenchOpts.Adapt).
	Adapted *AdaptInfo `json:"adapted,omitempty"`
	ms      []float64
}

// BenchReport is the result of Bench.
type BenchReport struct {
	// Variation is the picture variation applied to every photo (BenchOpts.Vary), if any.
	Variation string `json:"variation,omitempty"`
	// Settle is how many noisy frames each photo was settled over (BenchOpts.Settle), if any.
	Settle int `json:"settle,omitempty"`
	Adapt  int `json:"adapt,omitempty"` // BenchOpts.Adapt
	// LearnBackground: the reader learnt each folder's background as it read (BenchOpts).
	LearnBackground bool       `json:"learn_background,omitempty"`
	Sets            []BenchSet `json:"sets"`
	Total           BenchSet   `json:"total"`
}

type labelled struct {
	file   string
	values []int
	boxes  []labelBox
}

type labelBox struct {
	value int
	r     image.Rectangle
}

// Bench reads every photo listed in each folder's labels.csv (file,values) and scores the reader.
func Bench(ctx context.Context, dirs []string, r *dice.Reader, o BenchOpts) (BenchReport, error) {
	rep := BenchReport{Variation: o.Vary, Settle: o.Settle, Adapt: o.Adapt, LearnBackground: o.LearnBackground}
	var many []BenchSet
	rep.Total.Name = "total"
	var vary Variation
	if o.Settle < 0 {
		return rep, fmt.Errorf("bench: settle over %d frames: give a number of frames above 0", o.Settle)
	}
	if o.Adapt < 0 {
		return rep, fmt.Errorf("bench: adapt on %d photos: give 0 or more", o.Adapt)
	}
	if o.LearnBackground && (o.Settle == 0 || o.Adapt > 0) {
		return rep, errors.New("bench: a background is learnt from settled scenes, without --adapt: give --settle N and leave out --adapt")
	}
	if o.Adapt > 0 || o.LearnBackground {
		defer r.Adapt(nil) // the reader leaves as general as it came
		defer r.SetBackground(nil)
		defer r.LearnBackground(0, nil)
	}
	if o.Vary != "" {
		v, err := VariationNamed(o.Vary)
		if err != nil {
			return rep, fmt.Errorf("bench: %w", err)
		}
		vary = v
	}
	for _, dir := range dirs {
		photos, err := loadLabels(dir)
		if err != nil {
			return rep, err
		}
		base := filepath.Base(filepath.Clean(dir))
		name := base
		if o.MaxDice > 0 {
			name = fmt.Sprintf("%s<=%d", base, o.MaxDice)
		}
		var adapted *AdaptInfo
		if o.Adapt > 0 {
			teach, rest := splitAdapt(photos, o)
			before, err := untaught(ctx, dir, name, rest, r, o, vary)
			if err != nil {
				return rep, err
			}
			info, err := adaptTo(ctx, dir, teach, r, o, vary)
			if err != nil {
				return rep, err
			}
			info.Untaught = before
			photos, adapted = rest, &info
		}
		if o.LearnBackground { // each folder a rig of its own, its rolls in the order taken
			if err := r.SetBackground(nil); err != nil {
				return rep, err
			}
			if err := r.LearnBackground(dice.BackgroundScenes, nil); err != nil {
				return rep, err
			}
			photos = byName(photos)
		}
		set := BenchSet{Name: name, Adapted: adapted}
		over := BenchSet{Name: fmt.Sprintf("%s>%d", base, o.MaxDice)}
		for _, p := range photos {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			s := &set
			if o.MaxDice > 0 && len(p.values) > o.MaxDice {
				s = &over
			}
			if err := benchPhoto(ctx, dir, p, r, o, vary, s); err != nil {
				return rep, err
			}
		}
		for _, s := range []BenchSet{set, over} {
			if s.Photos == 0 {
				continue
			}
			s.finish()
			if s.Name == over.Name {
				many = append(many, s)
				continue
			}
			rep.Sets = append(rep.Sets, s)
			rep.Total.add(s)
		}
	}
	rep.Total.finish()
	rep.Total.Failed = nil
	rep.Total.WrongDice = nil
	rep.Total.MisreadPhotos = nil
	rep.Sets = append(rep.Sets, many...)
	return rep, nil
}

// count scores one reading of photo p: exact only when reported read with every value right
// (a reading refused for a doubt is not exact, however many of its dice were read right).
func (s *BenchSet) count(p labelled, rd dice.Reading) (exact bool) {
	got := rd.Values()
	s.Photos++
	s.Dice += len(p.values)
	common := intersect(p.values, got)
	s.DiceCorrect += common
	exact = rd.Status == dice.StatusRead && common == len(p.values) && len(got) == len(p.values) && len(got) == len(rd.Dice)
	if exact {
		s.Exact++
	} else {
		s.Failed = append(s.Failed, p.file)
	}
	switch {
	case rd.Status != dice.StatusRead:
		s.Unreadable++
		if g, _ := rd.Guess(); len(g) == len(p.values) {
			switch intersect(p.values, g) {
			case len(g):
				s.GuessRight++
			case len(g) - 1:
				s.GuessOneOff++
			}
		}
	case common < len(got):
		s.Misread++
		if len(got) == len(p.values) {
			s.Silent++
		}
		s.MisreadPhotos = append(s.MisreadPhotos, fmt.Sprintf("%s: true %v read %v", p.file, p.values, got))
	case !exact:
		s.Incomplete++
	}
	return exact
}

func benchPhoto(ctx context.Context, dir string, p labelled, r *dice.Reader, o BenchOpts, vary Variation, s *BenchSet) error {
	img, err := loadPhoto(dir, p.file, vary)
	if err != nil {
		return err
	}
	defer img.Close()
	t0 := time.Now()
	var rd dice.Reading
	if o.Settle > 0 {
		var err error
		if rd, err = settleNoisy(ctx, img, r, o.Settle); err != nil {
			return fmt.Errorf("bench %s: %s: %w", dir, p.file, err)
		}
	} else {
		rd = r.Read(img)
	}
	s.ms = append(s.ms, float64(time.Since(t0).Microseconds())/1000)
	exact := s.count(p, rd)
	if len(p.boxes) > 0 && vary == nil { // a variation may move the dice off their boxes
		s.matchBoxes(p.file, p.boxes, rd)
	} else {
		s.pairLeftovers(p.values, rd)
	}
	if !exact && o.Failures != "" {
		return writeFailure(filepath.Join(o.Failures, strings.TrimSuffix(p.file, filepath.Ext(p.file))+".png"), img, rd)
	}
	return nil
}

// loadPhoto reads a photo of the folder dir, changed by vary when not nil.
func loadPhoto(dir, file string, vary Variation) (gocv.Mat, error) {
	img, err := camera.LoadImage(filepath.Join(dir, file))
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("bench %s: %w", dir, err)
	}
	if vary == nil {
		return img, nil
	}
	v := vary(img)
	img.Close()
	return v, nil
}

// writeFailure writes to out a picture of what the reader saw in img (see dice.Annotate), making
// its folder first.
func writeFailure(out string, img gocv.Mat, rd dice.Reading) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("bench: failures folder: %w", err)
	}
	a := dice.Annotate(img, rd)
	defer a.Close()
	if !gocv.IMWrite(out, a) {
		return fmt.Errorf("bench: cannot write %s", out)
	}
	return nil
}

// matchBoxes pairs each true box with the found die whose centre (dieCentre) lies inside it,
// nearest first.
func (s *BenchSet) matchBoxes(file string, boxes []labelBox, rd dice.Reading) {
	used := make([]bool, len(rd.Dice))
	for _, b := range boxes {
		s.Boxes++
		bc := b.r.Min.Add(b.r.Max).Div(2)
		bi, bd := -1, math.Inf(1)
		for i, d := range rd.Dice {
			c := dieCentre(d)
			if used[i] || !c.In(b.r) {
				continue
			}
			if dd := math.Hypot(float64(c.X-bc.X), float64(c.Y-bc.Y)); dd < bd {
				bi, bd = i, dd
			}
		}
		if bi < 0 {
			s.Confusion[b.value][7]++
			continue
		}
		used[bi] = true
		s.BoxesHit++
		got := rd.Dice[bi].Value
		s.Confusion[b.value][got]++
		if got != 0 && got != b.value {
			s.WrongDice = append(s.WrongDice, fmt.Sprintf("%s: true %d read %d at %v", file, b.value, got, bc))
		}
	}
	for i, d := range rd.Dice {
		if !used[i] {
			s.FalseDice++
			s.Confusion[0][d.Value]++
		}
	}
}

func (s *BenchSet) pairLeftovers(want []int, rd dice.Reading) {
	var got []int
	for _, d := range rd.Dice {
		got = append(got, d.Value)
	}
	sort.Ints(got)
	w := append([]int(nil), want...)
	// Diagonal first.
	for i := range w {
		for j := range got {
			if got[j] == w[i] && got[j] > 0 {
				s.Confusion[w[i]][got[j]]++
				w[i], got[j] = -1, -1
				break
			}
		}
	}
	var lw, lg []int
	for _, v := range w {
		if v > 0 {
			lw = append(lw, v)
		}
	}
	for _, v := range got {
		if v >= 0 {
			lg = append(lg, v)
		}
	}
	sort.Ints(lg)
	for i, v := range lw {
		if i < len(lg) {
			s.Confusion[v][lg[i]]++
		} else {
			s.Confusion[v][7]++
		}
	}
	for i := len(lw); i < len(lg); i++ {
		s.Confusion[0][lg[i]]++
	}
}

func (s *BenchSet) add(o BenchSet) {
	s.Photos += o.Photos
	s.Exact += o.Exact
	s.Dice += o.Dice
	s.DiceCorrect += o.DiceCorrect
	s.Misread += o.Misread
	s.Silent += o.Silent
	s.Incomplete += o.Incomplete
	s.Unreadable += o.Unreadable
	s.GuessRight += o.GuessRight
	s.GuessOneOff += o.GuessOneOff
	s.Boxes += o.Boxes
	s.BoxesHit += o.BoxesHit
	s.FalseDice += o.FalseDice
	for i := range s.Confusion {
		for j := range s.Confusion[i] {
			s.Confusion[i][j] += o.Confusion[i][j]
		}
	}
	s.ms = append(s.ms, o.ms...)
}

func (s *BenchSet) finish() { s.MedianMS, s.P95MS = timing(s.ms) }

// timing is the median and 95th percentile of ms, to a hundredth (0 for none).
func timing(ms []float64) (med, p95 float64) {
	if len(ms) == 0 {
		return 0, 0
	}
	return math.Round(median(ms)*100) / 100, math.Round(quantile(ms, 0.95)*100) / 100
}

// ExactPct and DicePct are the headline rates in percent.
func (s BenchSet) ExactPct() float64 { return pct(s.Exact, s.Photos) }
func (s BenchSet) DicePct() float64  { return pct(s.DiceCorrect, s.Dice) }

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return math.Round(1000*float64(a)/float64(b)) / 10
}

func intersect(a, b []int) int {
	var ca, cb [8]int
	for _, v := range a {
		if v >= 0 && v < 8 {
			ca[v]++
		}
	}
	for _, v := range b {
		if v >= 0 && v < 8 {
			cb[v]++
		}
	}
	n := 0
	for v := 1; v <= 6; v++ {
		n += min(ca[v], cb[v])
	}
	return n
}

// loadLabels reads DIR/labels.csv and, when present, DIR/boxes.csv.
func loadLabels(dir string) ([]labelled, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("bench %s: not a folder; give folders holding labels.csv and the photos", dir)
	}
	lp := filepath.Join(dir, "labels.csv")
	rows, err := readCSV(lp)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("bench %s: no labels.csv: the folder needs a labels.csv with rows file,values (e.g. roll1.jpg,2 3 5 5)", dir)
		}
		return nil, fmt.Errorf("bench %s: %w", dir, err)
	}
	var out []labelled
	idx := map[string]int{}
	for i, row := range rows {
		if i == 0 && row[0] == "file" {
			continue
		}
		if len(row) != 2 {
			return nil, fmt.Errorf("%s line %d: want file,values, got %d fields", lp, i+1, len(row))
		}
		var vals []int
		for _, f := range strings.Fields(row[1]) {
			v, err := strconv.Atoi(f)
			if err != nil || v < 1 || v > 6 {
				return nil, fmt.Errorf("%s line %d: value %q is not 1-6", lp, i+1, f)
			}
			vals = append(vals, v)
		}
		sort.Ints(vals)
		idx[row[0]] = len(out)
		out = append(out, labelled{file: row[0], values: vals})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no photos listed", lp)
	}
	bp := filepath.Join(dir, "boxes.csv")
	rows, err = readCSV(bp)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bench %s: %w", dir, err)
	}
	for i, row := range rows {
		if i == 0 && row[0] == "file" {
			continue
		}
		if len(row) != 6 {
			return nil, fmt.Errorf("%s line %d: want file,value,x0,y0,x1,y1", bp, i+1)
		}
		var n [5]int
		for j := range n {
			if n[j], err = strconv.Atoi(strings.TrimSpace(row[j+1])); err != nil {
				return nil, fmt.Errorf("%s line %d: %w", bp, i+1, err)
			}
		}
		if k, ok := idx[row[0]]; ok {
			out[k].boxes = append(out[k].boxes, labelBox{value: n[0], r: image.Rect(n[1], n[2], n[3], n[4])})
		}
	}
	return out, nil
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	var rows [][]string
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		rows = append(rows, row)
	}
}

// dieCentre is the centre of a die's box: the detector's centre of the die.
func dieCentre(d dice.Die) image.Point {
	return d.Box.Min.Add(d.Box.Max).Div(2)
}
