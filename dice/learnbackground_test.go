package dice

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// A reader that was not calibrated learns nell-byler's background from the still scenes it
// settles on, with no labels: the first eight photos, each the scene of a roll, their dice
// masked only where the reader read them. The background it makes does what calibration's
// does (TestBackgroundSpotsOfTheRig): the screw heads are the rig's own, no die is.
func TestLearnBackground(t *testing.T) {
	boxes, files := readBoxes(t, "nell-byler")
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.LearnBackground(BackgroundScenes, nil); err != nil {
		t.Fatal(err)
	}
	for i, f := range files[:BackgroundScenes] {
		if r.LearntBackground() != nil {
			t.Fatalf("a background learnt from %d scenes, want %d", i, BackgroundScenes)
		}
		// Each photo is a roll's still scene, as a camera that stood still sees it.
		rd, err := Settle(context.Background(), &stillSource{t: t, file: f}, r, SettleOpts{})
		if err != nil {
			t.Fatal(err)
		}
		if rd.Status == StatusNotSettled {
			t.Fatalf("%s: not settled", f)
		}
	}
	if r.LearntBackground() == nil {
		t.Fatalf("no background learnt from %d scenes", BackgroundScenes)
	}
	rigSpots(t, r.bg, boxes, files[BackgroundScenes:])

	// It goes on learning: the next day's photos (the camera moved) make it anew after as many
	// scenes, and the first day's background is gone.
	first := r.bg
	day2 := slices.IndexFunc(files, func(f string) bool { return strings.Contains(f, "IMG_20191209") })
	for i, f := range files[day2 : day2+BackgroundScenes] {
		if r.bg != first {
			t.Fatalf("the background changed after %d scenes of the next day, want %d", i, BackgroundScenes)
		}
		if _, err := Settle(context.Background(), &stillSource{t: t, file: f}, r, SettleOpts{}); err != nil {
			t.Fatal(err)
		}
	}
	if r.bg == first || r.LearntBackground() != r.bg {
		t.Fatal("the next day's scenes did not make the background anew")
	}
	// The screw heads of the next day (the board turned): the rig's own now.
	later := readPhoto(t, files[day2+BackgroundScenes])
	defer later.Close()
	for _, s := range []cand{{peak: 0.5, x: 579, y: 43, side: 35}} {
		if corr, spread, _ := r.bg.compare(later, s); !r.bg.static(later, s) {
			t.Errorf("the next day's screw head at (%.0f,%.0f) not the rig's own (correlation %.2f, spread %.1f)", s.x, s.y, corr, spread)
		}
	}

	// A background set by calibration wins, and nothing more is learnt.
	bg, _, _ := rigBackground(t, "nell-byler", 8)
	if err := r.SetBackground(bg); err != nil || r.LearntBackground() != nil {
		t.Errorf("SetBackground: %v, learnt %v", err, r.LearntBackground() != nil)
	}
	img := readPhoto(t, files[9])
	defer img.Close()
	r.stillScene(img, r.Read(img))
	if r.bg != bg || r.bgm != nil {
		t.Error("a scene taken after a background was set")
	}
	// One learnt before (kept from the last start) is used at once, but never over a set one;
	// a damaged one is refused.
	if err := r.LearnBackground(BackgroundScenes, first); err != nil || r.bg != bg {
		t.Errorf("a learnt background replaced the one set: %v", err)
	}
	fresh, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if err := fresh.LearnBackground(BackgroundScenes, first); err != nil || fresh.LearntBackground() != first {
		t.Errorf("the background learnt before not used: %v", err)
	}
	if err := fresh.LearnBackground(BackgroundScenes, &Background{Frame: first.Frame}); err == nil {
		t.Error("a background without pixels accepted")
	}
}

// stillSource gives one photo, frame after frame: a still scene.
type stillSource struct {
	t    *testing.T
	file string
}

func (s *stillSource) Frame(context.Context) (gocv.Mat, error) { return readPhoto(s.t, s.file), nil }
func (s *stillSource) Close() error                            { return nil }
