package calibration

import (
	"encoding/json"
	"errors"
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
)

// sampleProfile is a complete profile as calibration would write it.
func sampleProfile() Profile {
	lens := 0.0
	r := dice.Opts{Expect: 4, Tray: image.Rect(80, 138, 553, 513)}
	return Profile{
		Version:  Version,
		Created:  time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC),
		Camera:   "rpicam:1280x960",
		Controls: camera.Controls{Width: 640, Height: 640, ShutterUS: 8000, Gain: 1.5, AWBGains: [2]float64{1.6, 1.4}, LensPosition: &lens},
		Tray: Tray{Frame: image.Pt(640, 640), Outline: []image.Point{{86, 506}, {96, 212}, {138, 152}, {532, 144}, {546, 504}},
			Box: image.Rect(86, 144, 547, 507), Lab: [3]float64{183, 128, 131}, Spread: 5, Share: 0.39},
		Dice:   Dice{Count: 4, Values: []int{2, 4, 5, 6}, SidePx: 34.5},
		Reader: r,
	}
}

// withBackground is sampleProfile with the background of a photo of its frame's size.
func withBackground(t *testing.T) Profile {
	p := sampleProfile()
	img := readPhoto(t, boardPhoto)
	defer img.Close()
	var m dice.BackgroundMaker
	if err := m.Add(img, nil); err != nil {
		t.Fatal(err)
	}
	bg, err := m.Make()
	if err != nil {
		t.Fatal(err)
	}
	p.Background = bg
	return p
}

func TestProfileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "calibration.json")
	p := withBackground(t)
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("round trip changed the profile:\n got %+v\nwant %+v", got, p)
	}
	data, _ := os.ReadFile(path)
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil || raw["version"] != float64(Version) {
		t.Errorf("saved JSON has version %v (%v)", raw["version"], err)
	}
	// Saving again replaces the file whole and leaves no temporary files.
	p.Dice.SidePx = 40
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(path); got.Dice.SidePx != 40 {
		t.Errorf("second save not read back: %g", got.Dice.SidePx)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d files after two saves, want 1", len(entries))
	}
}

// Profiles of versions 1 and 2 held the pip reader's settings and the pips' measurements:
// they load with those dropped, the tray and the dice count kept, and say which were dropped.
// A current profile loads as it is, and says nothing.
func TestProfileUpgrade(t *testing.T) {
	for _, c := range []struct {
		version int
		extra   string // the old fields, in JSON
		dropped []string
	}{
		{1, `"die_side_px": 26, "min_contrast": 18, "face_side": 48`, []string{"reader.die_side_px", "reader.face_side", "reader.min_contrast", "dice.pip_px", "dice.pip_contrast"}},
		{2, `"die_side_px": 0, "background_lab": [183, 128, 131], "detect_max_dim": 640, "max_layout_error": 0.3, "min_confidence": 0.5, "pips_only": true`,
			[]string{"reader.die_side_px", "reader.background_lab", "reader.detect_max_dim", "reader.max_layout_error", "reader.min_confidence", "reader.pips_only", "dice.pip_px"}},
	} {
		var m map[string]any
		if err := json.Unmarshal(mustJSON(t, sampleProfile()), &m); err != nil {
			t.Fatal(err)
		}
		m["version"] = c.version
		var reader, dice map[string]any
		json.Unmarshal([]byte("{"+c.extra+"}"), &reader)
		json.Unmarshal([]byte(`{"pip_px": 6.2, "face_lab": [230, 128, 140], "pip_lab": [40, 130, 128], "face_contrast": 41, "pip_contrast": 150}`), &dice)
		for k, v := range reader {
			m["reader"].(map[string]any)[k] = v
		}
		for k, v := range dice {
			m["dice"].(map[string]any)[k] = v
		}
		got, err := Parse(mustJSON(t, m))
		if err != nil {
			t.Fatalf("version %d: %v", c.version, err)
		}
		want := sampleProfile()
		want.Version = c.version
		if got.Reader != want.Reader || got.Dice.SidePx != want.Dice.SidePx || got.Dice.Count != 4 {
			t.Errorf("version %d upgraded: reader %+v dice %+v, want reader %+v, dice side %g", c.version, got.Reader, got.Dice, want.Reader, want.Dice.SidePx)
		}
		if len(got.Upgraded) != 1 || !strings.Contains(got.Upgraded[0], "old pip reader") || !strings.Contains(got.Upgraded[0], "version 4 profile") {
			t.Errorf("version %d: upgrade not explained: %q", c.version, got.Upgraded)
			continue
		}
		for _, f := range c.dropped {
			if !strings.Contains(got.Upgraded[0], f) {
				t.Errorf("version %d: %q does not name the dropped %s", c.version, got.Upgraded[0], f)
			}
		}
	}
	if cur, err := Parse(mustJSON(t, sampleProfile())); err != nil || !reflect.DeepEqual(cur, sampleProfile()) || cur.Upgraded != nil {
		t.Errorf("a current profile changed on loading: %v %+v %q", err, cur, cur.Upgraded)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestProfileErrors(t *testing.T) {
	valid, err := json.MarshalIndent(sampleProfile(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	bgJSON, err := json.MarshalIndent(withBackground(t), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	withBG := string(bgJSON)
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal(valid, &m)
		f(m)
		b, _ := json.MarshalIndent(m, "", "  ")
		return string(b)
	}
	tests := []struct {
		name, data string
		want       []string
	}{
		{"newer", edit(func(m map[string]any) { m["version"] = Version + 2 }),
			[]string{"calibration profile version 6 is newer than this cantstop understands (4): upgrade cantstop or run `cantstop calibrate` again"}},
		{"no version", edit(func(m map[string]any) { delete(m, "version") }), []string{`no "version" field`}},
		{"version zero", edit(func(m map[string]any) { m["version"] = 0 }), []string{"version 0 is not valid"}},
		{"truncated", string(valid[:len(valid)/2]), []string{"not valid JSON at line", "unexpected end"}},
		{"syntax", strings.Replace(string(valid), `"side_px": 34.5`, `"side_px": 34.5.1`, 1),
			[]string{"line " + lineOf(string(valid), `"side_px": 34.5`) + ", column", "invalid character"}},
		{"wrong type", strings.Replace(string(valid), `"count": 4`, `"count": "four"`, 1),
			[]string{"line " + lineOf(string(valid), `"count": 4`) + ",", "field dice.count holds a string, want a int"}},
		{"missing dice", edit(func(m map[string]any) { delete(m, "dice") }),
			[]string{"field dice.count", "field dice.side_px", "run `cantstop calibrate` again"}},
		{"missing tray", edit(func(m map[string]any) { delete(m, "tray") }),
			[]string{"field tray.frame", "field tray.outline", "field tray.box"}},
		{"bad controls", edit(func(m map[string]any) { m["controls"].(map[string]any)["gain"] = -2 }),
			[]string{"field controls", "gain -2"}},
		{"not an object", `[1,2]`, []string{"holds a JSON array, not a calibration profile"}},
		{"background of another camera", strings.Replace(withBG, `"frame": [
      640,
      640
    ],
    "png"`, `"frame": [
      480,
      640
    ],
    "png"`, 1), []string{"field background: background of (320,320) for frames of (480,640): want (240,320)", "run `cantstop calibrate` again"}},
		{"background not a picture", strings.Replace(withBG, `"png": "iVBOR`, `"png": "AAAA`, 1), []string{"field background: illegal base64 data"}},
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "calibration.json")
		os.WriteFile(path, []byte(tt.data), 0o644)
		_, err := Load(path)
		if err == nil {
			t.Errorf("%s: loaded without error", tt.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "calibration profile "+path+": ") {
			t.Errorf("%s: error %q does not name the file", tt.name, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q, want it to say %q", tt.name, err, w)
			}
		}
	}
	_, err = Load(filepath.Join(t.TempDir(), "none.json"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "run `cantstop calibrate`") {
		t.Errorf("missing profile: %v", err)
	}
}

// lineOf returns the 1-based line of the first occurrence of s, as text.
func lineOf(data, s string) string {
	return strconv.Itoa(strings.Count(data[:strings.Index(data, s)], "\n") + 1)
}

func TestDir(t *testing.T) {
	t.Setenv("CANTSTOP_CONFIG_DIR", "")
	t.Setenv("CONFIGURATION_DIRECTORY", "")
	t.Setenv("XDG_CONFIG_HOME", "/home/pi/.config")
	if d, err := Dir(); err != nil || d != "/home/pi/.config/cantstop" {
		t.Errorf("user default: %q, %v", d, err)
	}
	t.Setenv("CONFIGURATION_DIRECTORY", "/etc/cantstop:/etc/other")
	if d, _ := DefaultPath(); d != "/etc/cantstop/calibration.json" {
		t.Errorf("under systemd: %q", d)
	}
	t.Setenv("CANTSTOP_CONFIG_DIR", "/srv/cantstop")
	if d, _ := DefaultPath(); d != "/srv/cantstop/calibration.json" {
		t.Errorf("with CANTSTOP_CONFIG_DIR: %q", d)
	}
}

func TestReaderOptsScale(t *testing.T) {
	p := sampleProfile()
	if got := p.ReaderOpts(image.Pt(640, 640)); !reflect.DeepEqual(got, p.Reader) {
		t.Errorf("same frame size changed the options: %+v", got)
	}
	got := p.ReaderOpts(image.Pt(1280, 1280))
	if got.Tray != image.Rect(160, 276, 1106, 1026) || got.Expect != 4 {
		t.Errorf("at twice the size: tray %v, expect %d", got.Tray, got.Expect)
	}
}

// A background made from frames of another size than the tray's is refused by Validate.
func TestProfileBackgroundFrame(t *testing.T) {
	p := sampleProfile()
	other := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer other.Close()
	var m dice.BackgroundMaker
	if err := m.Add(other, nil); err != nil {
		t.Fatal(err)
	}
	p.Background, _ = m.Make()
	err := p.Validate()
	if err == nil || !strings.Contains(err.Error(), "field background: made for 640x480 frames: want tray.frame's 640x640") {
		t.Errorf("Validate: %v", err)
	}
}
