package calibration

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// editProfile returns the sample profile as JSON with f applied to its decoded form, so that
// each case is a file as a user or an old cantstop could have written it.
func editProfile(t *testing.T, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(mustJSON(t, sampleProfile()), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	return mustJSON(t, m)
}

func sub(m map[string]any, k string) map[string]any { return m[k].(map[string]any) }

// Every field out of its range is refused by Parse with an error naming the field, the value
// and the range; the values at the ends of each range are accepted.
func TestProfileRanges(t *testing.T) {
	tests := []struct {
		name string
		edit func(m map[string]any)
		want []string // nil: accepted
	}{
		{"sample", func(m map[string]any) {}, nil},
		{"camera too long", func(m map[string]any) { m["camera"] = strings.Repeat("v", MaxCameraLen+1) },
			[]string{"field camera: 1025 bytes long: want at most 1024"}},
		{"controls width over the image limit", func(m map[string]any) { sub(m, "controls")["width"] = 20000; sub(m, "controls")["height"] = 100 },
			[]string{"field controls.width/height: 20000x100: want 0 to 12000 each"}},
		{"controls at the image limit", func(m map[string]any) { sub(m, "controls")["width"] = 12000; sub(m, "controls")["height"] = 12000 }, nil},
		{"controls negative", func(m map[string]any) { sub(m, "controls")["shutter_us"] = -1 },
			[]string{"field controls: camera controls: shutter -1 µs: must be positive"}},
		{"controls exposure", func(m map[string]any) { sub(m, "controls")["exposure"] = 1e9 },
			[]string{"field controls.exposure: 1e+09: want 0 to 100000"}},
		{"controls focus", func(m map[string]any) { sub(m, "controls")["focus"] = 70000 },
			[]string{"field controls.focus: 70000: want 0 to 65535"}},
		{"controls shutter", func(m map[string]any) { sub(m, "controls")["shutter_us"] = 10_000_001 },
			[]string{"field controls.shutter_us: 10000001: want 0 to 10000000"}},
		{"controls gain", func(m map[string]any) { sub(m, "controls")["gain"] = 65 },
			[]string{"field controls.gain: 65: want 0 to 64"}},
		{"controls awb gains", func(m map[string]any) { sub(m, "controls")["awb_gains"] = []float64{1.5, 33} },
			[]string{"field controls.awb_gains: 1.5,33: want 0 to 32 each"}},
		{"frame too large", func(m map[string]any) { sub(m, "tray")["frame"] = map[string]int{"X": 12001, "Y": 640} },
			[]string{"field tray.frame: 12001x640: want 1 to 12000 pixels each way"}},
		{"frame negative", func(m map[string]any) { sub(m, "tray")["frame"] = map[string]int{"X": -640, "Y": 640} },
			[]string{"field tray.frame: -640x640: want 1 to 12000"}},
		{"outline point outside", func(m map[string]any) {
			sub(m, "tray")["outline"] = []map[string]int{{"X": 86, "Y": 506}, {"X": 96, "Y": 212}, {"X": 700, "Y": -1}}
		}, []string{"field tray.outline: 1 points outside the 640x640 frame, as (700,-1): want 0 to 640, 0 to 640"}},
		{"outline too long", func(m map[string]any) {
			sub(m, "tray")["outline"] = make([]map[string]int, MaxOutlinePoints+1)
		}, []string{"field tray.outline: 1001 points: want 3 to 1000"}},
		{"box outside", func(m map[string]any) {
			sub(m, "tray")["box"] = map[string]any{"Min": map[string]int{"X": 0, "Y": 0}, "Max": map[string]int{"X": 641, "Y": 10}}
		}, []string{"field tray.box: (0,0)-(641,10) is empty or outside the 640x640 frame"}},
		{"lab", func(m map[string]any) { sub(m, "tray")["lab"] = []float64{183, 300, 131} },
			[]string{"field tray.lab: [183 300 131]: want 0 to 255 each"}},
		{"spread", func(m map[string]any) { sub(m, "tray")["spread"] = -1 },
			[]string{"field tray.spread: -1: want 0 to 442"}},
		{"share", func(m map[string]any) { sub(m, "tray")["share"] = 1.5 },
			[]string{"field tray.share: 1.5: want 0 to 1"}},
		{"count", func(m map[string]any) {
			sub(m, "dice")["count"] = 13
			sub(m, "dice")["values"] = nil
			sub(m, "reader")["expect"] = 0
		},
			[]string{"field dice.count: 13: want 1 to 12"}},
		{"values too few", func(m map[string]any) { sub(m, "dice")["values"] = []int{2, 4, 5} },
			[]string{"field dice.values: [2 4 5] holds 3 values: want as many as dice.count (4), or none"}},
		{"values out of range", func(m map[string]any) { sub(m, "dice")["values"] = []int{0, 4, 5, 7} },
			[]string{"field dice.values: [0 4 5 7]: want values 1 to 6"}},
		{"no values", func(m map[string]any) { sub(m, "dice")["values"] = nil }, nil},
		{"side too large", func(m map[string]any) { sub(m, "dice")["side_px"] = 2000.5 },
			[]string{"field dice.side_px: 2000.5: want above 0, at most 2000"}},
		{"side at the limit", func(m map[string]any) { sub(m, "dice")["side_px"] = 2000 }, nil},
		{"side negative", func(m map[string]any) { sub(m, "dice")["side_px"] = -3 },
			[]string{"field dice.side_px: missing or not positive (-3): want above 0, at most 2000"}},
		{"expect any", func(m map[string]any) { sub(m, "reader")["expect"] = 0 }, nil},
		{"expect other than count", func(m map[string]any) { sub(m, "reader")["expect"] = 7 },
			[]string{"field reader.expect: 7: want 0 (any count) or dice.count (4)"}},
		{"reader tray outside", func(m map[string]any) {
			sub(m, "reader")["tray"] = map[string]any{"Min": map[string]int{"X": -5, "Y": 0}, "Max": map[string]int{"X": 100000, "Y": 100}}
		}, []string{"field reader.tray: (-5,0)-(100000,100): want empty (the whole frame) or a rectangle inside the 640x640 frame"}},
		{"reader tray inverted", func(m map[string]any) {
			sub(m, "reader")["tray"] = map[string]any{"Min": map[string]int{"X": 500, "Y": 0}, "Max": map[string]int{"X": 100, "Y": 100}}
		}, []string{"field reader.tray: (500,0)-(100,100): want empty"}},
		{"reader tray whole frame", func(m map[string]any) { delete(sub(m, "reader"), "tray") }, nil},
		{"model", func(m map[string]any) { sub(m, "reader")["model"] = "/home/pi/evil" },
			[]string{`field reader.model: "/home/pi/evil": want "" (the built-in networks)`}},
		{"version", func(m map[string]any) { m["version"] = -1 }, []string{"version -1 is not valid"}},
	}
	for _, tt := range tests {
		p, err := Parse(editProfile(t, tt.edit))
		switch {
		case tt.want == nil && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.want == nil && p.Validate() != nil:
			t.Errorf("%s: accepted, but fails Validate: %v", tt.name, p.Validate())
		case tt.want != nil && err == nil:
			t.Errorf("%s: accepted: %+v", tt.name, p)
		}
		if err == nil {
			continue
		}
		for _, w := range append(tt.want, recalibrate) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q\nwant it to say %q", tt.name, err, w)
			}
		}
	}
}

// A profile with many bad fields is refused once, naming all of them.
func TestProfileRangesAllAtOnce(t *testing.T) {
	data := editProfile(t, func(m map[string]any) {
		sub(m, "controls")["gain"] = 100
		sub(m, "tray")["share"] = 2
		sub(m, "dice")["side_px"] = 1e6
		sub(m, "dice")["values"] = []int{9}
		sub(m, "reader")["expect"] = 6
		sub(m, "reader")["model"] = "x"
	})
	_, err := Parse(data)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, f := range []string{"controls.gain", "tray.share", "dice.side_px", "dice.values", "reader.expect", "reader.model"} {
		if !strings.Contains(err.Error(), "field "+f+": ") {
			t.Errorf("error does not name %s: %v", f, err)
		}
	}
}

// The old issue: a profile with "reader":{"face_side":100000} made every read fail. The field is
// not read at all now, in a profile of any version: the reader's options are those of the
// sample, and Parse says what it ignored.
func TestProfileUnknownFieldsIgnored(t *testing.T) {
	for _, c := range []struct {
		version int
		extra   map[string]map[string]any // section -> fields; "" = top level
		note    string                    // what Upgraded must say
	}{
		{3, map[string]map[string]any{"reader": {"face_side": 100000}}, "does not know are ignored (reader.face_side)"},
		{1, map[string]map[string]any{"reader": {"face_side": 100000}}, "old pip reader (reader.face_side)"},
		{3, map[string]map[string]any{"": {"colour": "red"}, "dice": {"PIP_PX": 3}, "controls": {"iso": 800}},
			"(colour, controls.iso, dice.PIP_PX)"},
	} {
		data := editProfile(t, func(m map[string]any) {
			m["version"] = c.version
			for sec, fs := range c.extra {
				for k, v := range fs {
					if sec == "" {
						m[k] = v
					} else {
						sub(m, sec)[k] = v
					}
				}
			}
		})
		p, err := Parse(data)
		if err != nil {
			t.Errorf("version %d, %v: %v", c.version, c.extra, err)
			continue
		}
		want := sampleProfile()
		if !reflect.DeepEqual(p.Reader, want.Reader) || !reflect.DeepEqual(p.Dice, want.Dice) || !reflect.DeepEqual(p.Controls, want.Controls) {
			t.Errorf("version %d, %v: changed the profile: %+v", c.version, c.extra, p)
		}
		if len(p.Upgraded) != 1 || !strings.Contains(p.Upgraded[0], c.note) {
			t.Errorf("version %d, %v: Upgraded %q, want it to say %q", c.version, c.extra, p.Upgraded, c.note)
		}
	}
	// Keys matching a field without regard to case are the field (as encoding/json reads them).
	p, err := Parse(editProfile(t, func(m map[string]any) { sub(m, "reader")["EXPECT"] = 0; delete(sub(m, "reader"), "expect") }))
	if err != nil || p.Upgraded != nil || p.Reader.Expect != 0 {
		t.Errorf("reader.EXPECT: %v, %q, expect %d", err, p.Upgraded, p.Reader.Expect)
	}
}

// The reader options of any accepted profile stay inside the frame they are scaled to.
func TestReaderOptsInsideFrame(t *testing.T) {
	p := sampleProfile()
	p.Reader.Tray = image.Rect(0, 0, 640, 640)
	for _, f := range []image.Point{{640, 640}, {1, 1}, {12000, 7}, {333, 4000}} {
		if got := p.ReaderOpts(f).Tray; !got.In(image.Rectangle{Max: f}) {
			t.Errorf("frame %v: tray %v outside it", f, got)
		}
	}
}

// Load refuses a file far larger than any profile before decoding it.
func TestLoadTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calibration.json")
	data := append(mustJSON(t, sampleProfile()), []byte(strings.Repeat(" ", MaxProfileBytes))...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), "calibration profile "+path+": larger than 2097152 bytes") {
		t.Errorf("Load of %d bytes: %v", len(data), err)
	}
	if err := os.WriteFile(path, data[:MaxProfileBytes], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("Load of %d bytes: %v", MaxProfileBytes, err)
	}
}
