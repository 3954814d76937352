package dicebench

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// With Adapt, each folder's first photos by name (at most MaxDice dice) teach the reader and
// are left out of the score; the reader leaves the bench as general as it came.
func TestBenchAdapt(t *testing.T) {
	r := benchReader(t)
	dir := filepath.Join(photoDir, "nell-byler")
	plain, err := Bench(context.Background(), []string{dir}, r, BenchOpts{MaxDice: 6})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Bench(context.Background(), []string{dir}, r, BenchOpts{MaxDice: 6, Adapt: 20})
	if err != nil {
		t.Fatal(err)
	}
	s, p := rep.Sets[0], plain.Sets[0]
	a := s.Adapted
	if a == nil || len(a.Photos) != 20 || s.Photos != p.Photos-20 || rep.Adapt != 20 {
		t.Fatalf("adapted set %+v (plain %d photos)", s, p.Photos)
	}
	if !slices.IsSorted(a.Photos) || a.Learnt == 0 || a.Adaptation.Examples != a.Learnt || a.Background != 20 {
		t.Errorf("adaptation %+v", a)
	}
	for _, f := range s.Failed {
		if slices.Contains(a.Photos, f) {
			t.Errorf("%s taught the reader and was scored", f)
		}
	}
	// Untaught: the general reader on the same photos reads them as the plain bench did.
	all, err := loadLabels(dir)
	if err != nil {
		t.Fatal(err)
	}
	exact := 0
	for _, f := range all {
		if !slices.Contains(a.Photos, f.file) && len(f.values) <= 6 && !slices.Contains(p.Failed, f.file) {
			exact++
		}
	}
	if u := a.Untaught; u.Photos != s.Photos || u.Exact != exact || u.Misread > p.Misread {
		t.Errorf("untaught on the %d photos scored: %d photos, %d exact, %d misread; the plain bench read %d of them exactly",
			s.Photos, u.Photos, u.Exact, u.Misread, exact)
	}
	t.Logf("%d photos: %d exact, %d misread (untaught: %d, %d; all photos: %d of %d, %d); %s", s.Photos, s.Exact, s.Misread,
		a.Untaught.Exact, a.Untaught.Misread, p.Exact, p.Photos, p.Misread, a.Adaptation.Why)
	if s.Misread > p.Misread { // the general network's own: a 3 under a glare (dice.TestReadPhotos)
		t.Errorf("adapted, %d photos misread (general: %d): %v", s.Misread, p.Misread, s.MisreadPhotos)
	}
	if r.Adapted() {
		t.Error("the reader is still adapted after the bench")
	}
	if _, err := Bench(context.Background(), []string{dir}, r, BenchOpts{Adapt: -1}); err == nil {
		t.Error("Adapt -1 accepted")
	}
}

// With LearnBackground the reader learns each folder's background from the scenes it settles
// on, no labels: every photo is scored, no more are misread, and the reader leaves without it.
func TestBenchLearnBackground(t *testing.T) {
	r := benchReader(t)
	dir := filepath.Join(photoDir, "nell-byler")
	o := BenchOpts{MaxDice: 6, Settle: 6}
	plain, err := Bench(context.Background(), []string{dir}, r, o)
	if err != nil {
		t.Fatal(err)
	}
	o.LearnBackground = true
	rep, err := Bench(context.Background(), []string{dir}, r, o)
	if err != nil {
		t.Fatal(err)
	}
	s, p := rep.Sets[0], plain.Sets[0]
	if !rep.LearnBackground || s.Photos != p.Photos {
		t.Fatalf("learning: %d photos scored, %d without", s.Photos, p.Photos)
	}
	t.Logf("%d photos: %d exact, %d misread learning the background; %d, %d without", s.Photos, s.Exact, s.Misread, p.Exact, p.Misread)
	if s.Misread > p.Misread {
		t.Errorf("%d photos misread learning the background, %d without: %v", s.Misread, p.Misread, s.MisreadPhotos)
	}
	if r.LearntBackground() != nil {
		t.Error("the reader keeps a learnt background after the bench")
	}
	for _, bad := range []BenchOpts{{LearnBackground: true}, {LearnBackground: true, Settle: 6, Adapt: 5}} {
		if _, err := Bench(context.Background(), []string{dir}, r, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
