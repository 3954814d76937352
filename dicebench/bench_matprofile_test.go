//go:build matprofile

package dicebench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// TestReaderLeavesNoMat reads, annotates, benchmarks (whole and cut) and settles on every
// photo (testdata, and ../shared when present) and checks that no Mat is left alive:
// go test -tags matprofile -run TestReaderLeavesNoMat ./dicebench/
func TestReaderLeavesNoMat(t *testing.T) {
	dirs := append(diceSets(t), sharedSets()...)
	r := benchReader(t)
	before := gocv.MatProfile.Count()
	photos := 0
	for _, dir := range dirs {
		list, err := loadLabels(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list {
			img := gocv.IMRead(filepath.Join(dir, p.file), gocv.IMReadColor)
			rd := r.Read(img)
			a := dice.Annotate(img, rd)
			a.Close()
			img.Close()
			photos++
		}
	}
	if _, err := Bench(context.Background(), diceSets(t), r, BenchOpts{Failures: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if _, err := BenchCuts(context.Background(), []string{cutSet(t)}, r, BenchOpts{Failures: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	img := testPhoto(t, "tai-studio/eyes_1_1.jpg")
	if _, err := settleNoisy(context.Background(), img, r, 8); err != nil {
		t.Fatal(err)
	}
	img.Close()
	if after := gocv.MatProfile.Count(); after != before {
		t.Errorf("%d Mats alive after reading %d photos (before %d)", after, photos, before)
	}
	t.Logf("%d photos read, no Mat left", photos)
}
