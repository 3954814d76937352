package dicebench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// photoDir holds the labelled testdata photos, one folder per set.
var photoDir = filepath.Join("..", "dice", "testdata", "photos")

// benchReader is a Reader with the built-in networks, closed at the end of the test.
func benchReader(t testing.TB) *dice.Reader {
	t.Helper()
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// testPhoto reads photoDir/file ("set/name.jpg").
func testPhoto(t testing.TB, file string) gocv.Mat {
	t.Helper()
	img := gocv.IMRead(filepath.Join(photoDir, file), gocv.IMReadColor)
	if img.Empty() {
		img.Close()
		t.Fatalf("cannot read %s", filepath.Join(photoDir, file))
	}
	return img
}

// diceSets lists the testdata sets (folders of photoDir holding a labels.csv).
func diceSets(t testing.TB) []string {
	t.Helper()
	sets, err := filepath.Glob(filepath.Join(photoDir, "*", "labels.csv"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no %s/*/labels.csv: %v", photoDir, err)
	}
	var dirs []string
	for _, s := range sets {
		dirs = append(dirs, filepath.Dir(s))
	}
	return dirs
}

// sharedSets lists the shared photo sets next to the repository, when they are there.
func sharedSets() []string {
	var dirs []string
	for _, s := range []string{"nell-byler", "matteop65", "tai-studio"} {
		d := filepath.Join("..", "..", "shared", "dice-photos", s)
		if _, err := os.Stat(filepath.Join(d, "labels.csv")); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// readSet is a folder of testdata photos the reader reads, single dice and two pairs, with their
// labels: the bench's comparisons (settled or varied against plain) need photos it reads
// (tai-studio's single dice on cloth it does not, with the first trained weights).
func readSet(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	labels := "file,values\n"
	for _, f := range []struct{ file, values string }{
		{"dice_18.jpg", "1 1"}, {"three_6.jpg", "3"}, {"five_4.jpg", "5"}, {"six_6.jpg", "6"}, {"five_12.jpg", "5 5"},
	} {
		b, err := os.ReadFile(filepath.Join(photoDir, "matteop65", f.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.file), b, 0o644); err != nil {
			t.Fatal(err)
		}
		labels += f.file + "," + f.values + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
