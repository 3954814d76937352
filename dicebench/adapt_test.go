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
	t.Logf("%d photos: %d exact, %d misread (general: %d of %d, %d); %s", s.Photos, s.Exact, s.Misread, p.Exact, p.Photos, p.Misread, a.Adaptation.Why)
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
