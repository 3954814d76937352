package dice

import (
	"slices"
	"testing"
)

// TestLeaning reads the labelled photos the reader leaves unread: every die found leans to a
// value, its own where it was read; the guess is the values read, then the unread dice's
// leanings; and where every die was found the guess is the roll in most photos, so the players' correction starts right (measured 2026-12-07 with the built-in
// networks, which trained on these photos: 14 of 20; held out, nell-byler's fold: 19 of 42).
func TestLeaning(t *testing.T) {
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	right, whole := 0, 0
	for _, rig := range []string{"matteop65", "nell-byler"} {
		for _, p := range readLabels(t, rig) {
			if len(p.values) > 6 {
				continue
			}
			f := readPhoto(t, p.file)
			rd := r.Read(f)
			f.Close()
			if rd.Status == StatusRead {
				continue
			}
			unread := 0
			for _, d := range rd.Dice {
				v := d.Leaning()
				if d.Value > 0 && v != d.Value || v < 1 || v > 6 {
					t.Errorf("%s: a die read %d leans to %d", p.file, d.Value, v)
				}
				if d.Value == 0 {
					unread++
				}
			}
			g, unsure := rd.Guess()
			if len(g) != len(rd.Dice) || unsure != unread || !slices.Equal(g[:len(g)-unsure], rd.Values()) {
				t.Errorf("%s: guess %v with %d unsure, for %d dice found, %d unread, read %v", p.file, g, unsure, len(rd.Dice), unread, rd.Values())
			}
			if len(g) != len(p.values) {
				continue
			}
			whole++
			lean := slices.Sorted(slices.Values(g))
			if slices.Equal(lean, p.values) {
				right++
			} else {
				t.Logf("%s: leans to %v, rolled %v", p.file, lean, p.values)
			}
		}
	}
	t.Logf("unread photos with every die found: %d, their leanings the roll in %d", whole, right)
	if whole < 10 || right*10 < whole*6 {
		t.Errorf("leanings the roll in %d of %d unread photos with every die found, want at least 60%% of 10 or more", right, whole)
	}
	if (Die{}).Leaning() != 0 {
		t.Error("a die without probabilities leans to a value")
	}
}
