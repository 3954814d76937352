package calibration

import (
	"bytes"
	"encoding/json"
	"image"
	"testing"

	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// FuzzParseProfile checks that Parse never panics, and that a profile it accepts passes its own
// range checks, reads back the same once saved (as Save writes it), and gives reader options
// inside any frame they are scaled to. Seeds: the sample profile as calibration writes it,
// old versions with the pip reader's fields, the profile with "reader":{"face_side":100000} of
// the old issue, one with a background, and broken files. (calibration/testdata holds photos, not profiles.)
//
//	scripts/fuzz.sh FuzzParseProfile
func FuzzParseProfile(f *testing.F) {
	valid, err := json.MarshalIndent(sampleProfile(), "", "  ")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	for _, s := range []string{
		`{"version": 1, "reader": {"die_side_px": 26, "face_side": 48}, "dice": {"pip_px": 6.2}}`,
		`{"version": 3, "reader": {"face_side": 100000}}`,
		`{"version": 2}`, `{"version": 4}`, `{"version": 0}`, `[1,2]`, `null`, `{}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Add(bytes.Replace(valid, []byte(`"version": 4`), []byte(`"version": 1`), 1))
	f.Add(bytes.Replace(valid, []byte(`"expect": 4`), []byte(`"expect": 4, "face_side": 100000`), 1))
	f.Add(bytes.Replace(valid, []byte(`"side_px": 34.5`), []byte(`"side_px": 1e308`), 1))
	f.Add(valid[:len(valid)/2])
	// With the background of a plain grey frame: a PNG of a few hundred bytes.
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), 640, 640, gocv.MatTypeCV8UC3)
	var m dice.BackgroundMaker
	m.Add(grey, []image.Rectangle{image.Rect(100, 100, 140, 140)})
	grey.Close()
	withBG := sampleProfile()
	withBG.Background, _ = m.Make()
	if b, err := json.MarshalIndent(withBG, "", "  "); err == nil {
		f.Add(b)
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Parse accepted a profile that fails Validate: %v\n%s", err, data)
		}
		p.Upgraded = nil
		saved, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			t.Fatalf("accepted profile does not encode: %v", err)
		}
		q, err := Parse(saved)
		if err != nil {
			t.Fatalf("accepted profile, saved, is refused: %v\n%s", err, saved)
		}
		if q.Upgraded != nil {
			t.Fatalf("saved profile has fields to upgrade or ignore: %q", q.Upgraded)
		}
		again, _ := json.MarshalIndent(q, "", "  ")
		if !bytes.Equal(again, saved) {
			t.Fatalf("round trip changed the profile:\n%s\n%s", saved, again)
		}
		for _, fr := range []image.Point{p.Tray.Frame, {640, 480}, {1, 1}, {2048, 1536}} {
			if tray := p.ReaderOpts(fr).Tray; !tray.In(image.Rectangle{Max: fr}) {
				t.Fatalf("reader tray %v outside the %v frame it was scaled to (profile tray %v in %v)", tray, fr, p.Reader.Tray, p.Tray.Frame)
			}
		}
		p.Dice.Small()
	})
}

// FuzzParseLearnt checks that ParseLearnt never panics and that a store it accepts holds only
// examples the reader takes, and reads back the same once saved. Seeds: a store of two
// examples as the Learner writes it, and broken ones.
//
//	scripts/fuzz.sh FuzzParseLearnt
func FuzzParseLearnt(f *testing.F) {
	good, err := json.Marshal(Learnt{Version: LearntVersion, Examples: []dice.Example{
		{Value: 3, Weight: 1, Square: make([]byte, dice.SquareBytes), Side: 41},
		{Value: 0, Weight: 2, Square: bytes.Repeat([]byte{7}, dice.SquareBytes)}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, s := range []string{`{"version": 1, "examples": []}`, `{"version": 1, "examples": [{"value": 9}]}`,
		`{"version": 2}`, `{"version": 1, "examples": null}`, `[]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLearnt(data)
		if err != nil {
			return
		}
		if len(l.Examples) > MaxExamples {
			t.Fatalf("accepted %d examples", len(l.Examples))
		}
		for _, e := range l.Examples {
			if err := checkExample(e); err != nil {
				t.Fatalf("accepted a bad example: %v", err)
			}
		}
		again, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseLearnt(again)
		if err != nil || len(back.Examples) != len(l.Examples) {
			t.Fatalf("saved store does not read back: %v", err)
		}
	})
}
