package dicebench

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoisyFrames: the stand-in still camera gives n frames of the photo, each with its own
// noise (none the photo itself, no two alike), then io.EOF; a cancelled context stops it.
func TestNoisyFrames(t *testing.T) {
	img := testPhoto(t, "tai-studio/"+firstPhoto(t, "tai-studio"))
	defer img.Close()
	src := &noisyFrames{img: img, n: 3}
	var seen [][]byte
	for i := 0; i < 3; i++ {
		f, err := src.Frame(context.Background())
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		b := f.ToBytes()
		f.Close()
		if string(b) == string(img.ToBytes()) {
			t.Errorf("frame %d is the photo itself, with no noise", i)
		}
		for j, o := range seen {
			if string(o) == string(b) {
				t.Errorf("frames %d and %d have the same noise", j, i)
			}
		}
		seen = append(seen, b)
	}
	if _, err := src.Frame(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("after 3 frames: %v, want io.EOF", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&noisyFrames{img: img, n: 3}).Frame(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestBenchSettle benches readSet's photos as the companion reads a still tray: Settle
// over noisy frames. With enough frames each photo is read as on disk, every one exactly;
// with one frame, which Settle only compares with the next, no reading gets its votes and
// every photo counts as unreadable. A variation is applied first; a negative number of frames is refused.
func TestBenchSettle(t *testing.T) {
	dir := readSet(t)
	r := benchReader(t)
	plain, err := Bench(context.Background(), []string{dir}, r, BenchOpts{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Bench(context.Background(), []string{dir}, r, BenchOpts{Settle: 12})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settle != 12 || rep.Total.Photos != plain.Total.Photos || rep.Total.Exact != plain.Total.Exact || plain.Total.Exact != plain.Total.Photos || rep.Total.Misread != 0 {
		t.Errorf("settled over 12 frames: %+v, want %d photos, %d exact as plain, none misread", rep.Total, plain.Total.Photos, plain.Total.Exact)
	}
	one, err := Bench(context.Background(), []string{dir}, r, BenchOpts{Settle: 1})
	if err != nil {
		t.Fatal(err)
	}
	if one.Total.Unreadable != one.Total.Photos || one.Total.Photos == 0 {
		t.Errorf("settled over 1 frame: %+v, want every photo unreadable (not settled)", one.Total)
	}
	turned, err := Bench(context.Background(), []string{dir}, r, BenchOpts{Settle: 12, Vary: "rot180"})
	if err != nil {
		t.Fatal(err)
	}
	// Upside down most of the 5 are refused (TestBenchVary): measured 1 exact, none misread.
	if turned.Variation != "rot180" || turned.Total.Exact < 1 || turned.Total.Misread != 0 {
		t.Errorf("turned, then settled over 12 frames: %+v, want at least 1 exact, none misread", turned.Total)
	}
	if _, err := Bench(context.Background(), []string{dir}, r, BenchOpts{Settle: -1}); err == nil || !strings.Contains(err.Error(), "above 0") {
		t.Errorf("settle over -1 frames: %v, want an error asking for a number above 0", err)
	}
}

// firstPhoto is the first photo listed in a testdata set's labels.csv.
func firstPhoto(t *testing.T, set string) string {
	t.Helper()
	photos, err := loadLabels(filepath.Join(photoDir, set))
	if err != nil || len(photos) == 0 {
		t.Fatalf("testdata %s: %v", set, err)
	}
	return photos[0].file
}
