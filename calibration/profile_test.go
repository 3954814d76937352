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
)

// sampleProfile is a complete profile as calibration would write it, but for the reader's die
// size, which calibration leaves 0 and a person may set.
func sampleProfile() Profile {
	lens := 0.0
	r := camera.DefaultReaderOpts()
	r.Expect, r.Tray, r.DieSidePx, r.BackgroundLab = 4, image.Rect(80, 138, 553, 513), 34.5, []float64{183, 128, 131}
	return Profile{
		Version:  Version,
		Created:  time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC),
		Camera:   "rpicam:1280x960",
		Controls: camera.Controls{Width: 640, Height: 640, ShutterUS: 8000, Gain: 1.5, AWBGains: [2]float64{1.6, 1.4}, LensPosition: &lens},
		Tray: Tray{Frame: image.Pt(640, 640), Outline: []image.Point{{86, 506}, {96, 212}, {138, 152}, {532, 144}, {546, 504}},
			Box: image.Rect(86, 144, 547, 507), Lab: [3]float64{183, 128, 131}, Spread: 5, Share: 0.39},
		Dice: Dice{Count: 4, Values: []int{2, 4, 5, 6}, SidePx: 34.5, PipPx: 6.2, FaceLab: [3]float64{230, 128, 140},
			PipLab: [3]float64{40, 130, 128}, FaceContrast: 41, PipContrast: 150},
		Reader: r,
	}
}

func TestProfileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "calibration.json")
	p := sampleProfile()
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
	p.Reader.DieSidePx = 40
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

// A version 1 profile held the top face's side as the reader's die size, at which the reader
// cuts blobs too small: it loads with that size dropped (the reader estimates it) and says so.
func TestProfileUpgrade(t *testing.T) {
	p := sampleProfile()
	p.Version = 1
	got, err := Parse(mustJSON(t, p))
	if err != nil {
		t.Fatal(err)
	}
	if got.Reader.DieSidePx != 0 || got.Dice.SidePx != p.Dice.SidePx || !reflect.DeepEqual(got.Reader.Tray, p.Reader.Tray) {
		t.Errorf("upgraded: reader die side %g (want 0), dice side %g, tray %v", got.Reader.DieSidePx, got.Dice.SidePx, got.Reader.Tray)
	}
	if len(got.Upgraded) != 1 || !strings.Contains(got.Upgraded[0], "the reader estimates the size from each frame") {
		t.Errorf("upgrade not explained: %q", got.Upgraded)
	}
	if cur, err := Parse(mustJSON(t, sampleProfile())); err != nil || cur.Reader.DieSidePx != 34.5 || cur.Upgraded != nil {
		t.Errorf("a current profile changed on loading: %v %g %q", err, cur.Reader.DieSidePx, cur.Upgraded)
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
			[]string{"calibration profile version 4 is newer than this cantstop understands (2): upgrade cantstop or run `cantstop calibrate` again"}},
		{"no version", edit(func(m map[string]any) { delete(m, "version") }), []string{`no "version" field`}},
		{"version zero", edit(func(m map[string]any) { m["version"] = 0 }), []string{"version 0 is not valid"}},
		{"truncated", string(valid[:len(valid)/2]), []string{"not valid JSON at line", "unexpected end"}},
		{"syntax", strings.Replace(string(valid), `"side_px": 34.5`, `"side_px": 34.5.1`, 1),
			[]string{"line " + lineOf(string(valid), `"side_px": 34.5`) + ", column", "invalid character"}},
		{"wrong type", strings.Replace(string(valid), `"count": 4`, `"count": "four"`, 1),
			[]string{"line " + lineOf(string(valid), `"count": 4`) + ",", "field dice.count holds a string, want a int"}},
		{"missing dice", edit(func(m map[string]any) { delete(m, "dice") }),
			[]string{"field dice.count", "field dice.side_px", "field dice.pip_px", "run `cantstop calibrate` again"}},
		{"missing tray", edit(func(m map[string]any) { delete(m, "tray") }),
			[]string{"field tray.frame", "field tray.outline", "field tray.box"}},
		{"bad controls", edit(func(m map[string]any) { m["controls"].(map[string]any)["gain"] = -2 }),
			[]string{"field controls", "gain -2"}},
		{"not an object", `[1,2]`, []string{"holds a JSON array, not a calibration profile"}},
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
	if got.Tray != image.Rect(160, 276, 1106, 1026) || got.DieSidePx != 69 {
		t.Errorf("at twice the size: tray %v, die %g", got.Tray, got.DieSidePx)
	}
}
