package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cantstop/cantstop/calibration"
)

// calibrateCLI runs `cantstop ARGS...` with the given terminal input.
func calibrateCLI(t *testing.T, in string, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetIn(strings.NewReader(in))
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// person answers the terminal's questions as they appear, like someone at the
// keyboard: answer picks the reply to a question.
type person struct {
	mu     sync.Mutex
	out    bytes.Buffer
	in     *io.PipeWriter
	answer func(q string) string
}

func (p *person) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Write(b)
	if q := string(b); strings.HasSuffix(q, ": ") {
		go io.WriteString(p.in, p.answer(q)+"\n")
	}
	return len(b), nil
}

func (p *person) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// calibrateWith runs `cantstop ARGS...` with a person answering.
func calibrateWith(t *testing.T, answer func(q string) string, args ...string) (string, error) {
	t.Helper()
	r, w := io.Pipe()
	defer w.Close()
	p := &person{in: w, answer: answer}
	root := newRootCmd()
	root.SetIn(r)
	root.SetOut(p)
	root.SetErr(p)
	root.SetArgs(args)
	err := root.Execute()
	return p.String(), err
}

func TestCalibrateCommand(t *testing.T) {
	// A folder source: the first look (the "empty" tray) sees the board photo
	// with its dice on it, which the tray finder sees around; the next the
	// same photo as the roll (and again if the reader asks for a re-roll).
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames := t.TempDir()
	os.WriteFile(filepath.Join(frames, "1-tray.jpg"), photo, 0o644)
	os.WriteFile(filepath.Join(frames, "2-roll.jpg"), photo, 0o644)
	conf := t.TempDir()
	t.Setenv("CANTSTOP_CONFIG_DIR", conf)

	// Enter at every question: accept what was read; keep the calibration
	// even if the reader cannot read this roll (whether it can is the
	// reader's tests' business).
	var asked []string
	answer := func(q string) string {
		asked = append(asked, q)
		switch {
		case strings.Contains(q, "Are the dice"):
			return "1 3 3 6"
		case strings.Contains(q, "Keep this calibration anyway"):
			return "y"
		}
		return ""
	}
	out, err := calibrateWith(t, answer, "calibrate", "--camera", "dir:"+frames+"?loop", "--frames", "1", "--rolls", "1")
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	for _, want := range []string{"Step 1 of 3", "Step 3 of 3", "Are the dice ", "Saved the calibration profile to " + filepath.Join(conf, "calibration.json")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	p, err := calibration.Load(filepath.Join(conf, "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Camera != "dir:"+frames+"?loop" || p.Dice.Count != 4 || fmt.Sprint(p.Dice.Values) != "[1 3 3 6]" {
		t.Errorf("profile: %+v", p)
	}
	if fi, err := os.Stat(filepath.Join(conf, "calibration.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("annotated picture not written: %v", err)
	}

	// Calibrating again keeps the camera controls saved last time.
	out, err = calibrateWith(t, answer, "calibrate", "--camera", "dir:"+frames+"?loop", "--frames", "1", "--rolls", "1")
	if err != nil || !strings.Contains(out, "Using the camera controls of "+filepath.Join(conf, "calibration.json")) {
		t.Errorf("recalibration: %v\n%s", err, out)
	}

	out, err = calibrateCLI(t, "", "calibrate", "show")
	if err != nil || !strings.Contains(out, "version 4") || !strings.Contains(out, "dice: 4,") || !strings.Contains(out, "examples: ") {
		t.Errorf("calibrate show: %v\n%s", err, out)
	}

	// The doctor passes this profile, and warns of one whose dice are too small to read well
	// (a camera mounted higher since, or run at a lower resolution).
	cfg := filepath.Join(conf, "cantstop.conf")
	os.WriteFile(cfg, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"dir:"+frames+"\"\n"), 0o644)
	out, _, _ = runCLI(t, "doctor", "--config", cfg, "--state-dir", conf)
	// The "empty" tray held the roll's dice: they are masked in both looks, the rest is seen.
	if !strings.Contains(out, "PASS  calibration") || !regexp.MustCompile(`background of the empty tray, (9\d|100)% of the view`).MatchString(out) {
		t.Errorf("doctor on a fresh profile:\n%s", out)
	}
	// A profile made before calibration kept the empty tray: calibrating again is advised.
	noBG := p
	noBG.Background = nil
	if err := noBG.Save(filepath.Join(conf, "calibration.json")); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "doctor", "--config", cfg, "--state-dir", conf)
	if !strings.Contains(out, "WARN  calibration") || !strings.Contains(out, "no background of the empty tray") {
		t.Errorf("doctor on a profile without a background:\n%s", out)
	}
	p.Dice.SidePx = 15
	if err := p.Save(filepath.Join(conf, "calibration.json")); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "doctor", "--config", cfg, "--state-dir", conf)
	if !strings.Contains(out, "WARN  calibration") || !strings.Contains(out, "the dice are 15 pixels wide") || !strings.Contains(out, "higher resolution") {
		t.Errorf("doctor on a profile with 15-pixel dice:\n%s", out)
	}
}

func TestCalibrateCommandErrors(t *testing.T) {
	t.Setenv("CANTSTOP_CONFIG_DIR", t.TempDir())
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--camera", "usb:0"}, `unknown camera source scheme "usb"`},
		{[]string{"calibrate", "--camera", "v4l2:/dev/video97"}, "is the camera plugged in?"},
		{[]string{"calibrate", "--awbgains", "1.5"}, "want red,blue gains"},
		{[]string{"calibrate", "--width", "640"}, "give both width and height"},
		{[]string{"calibrate", "show"}, "no calibration profile at"},
	}
	for _, tt := range tests {
		out, err := calibrateCLI(t, "", tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q\n%s", tt.args, err, tt.want, out)
		}
	}
	// The input ends before the questions are answered.
	dir := filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg")
	_, err := calibrateCLI(t, "\n", "calibrate", "--camera", "file:"+dir, "--frames", "1")
	if err == nil || !strings.Contains(err.Error(), "the input ended") {
		t.Errorf("closed input: %v", err)
	}
}

// A version 1 profile still loads: `calibrate show` says which of the old reader's settings
// were dropped.
func TestCalibrateShowUpgraded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calibration.json")
	os.WriteFile(path, []byte(`{"version": 1,
  "tray": {"frame": {"X": 640, "Y": 480}, "outline": [{"X": 40, "Y": 30}, {"X": 600, "Y": 30}, {"X": 600, "Y": 450}],
           "box": {"Min": {"X": 40, "Y": 30}, "Max": {"X": 600, "Y": 450}}},
  "dice": {"count": 4, "side_px": 36, "pip_px": 7},
  "reader": {"expect": 4, "die_side_px": 36}}`), 0o644)
	out, err := calibrateCLI(t, "", "calibrate", "show", "--profile", path)
	if err != nil || !strings.Contains(out, "version 1") || !strings.Contains(out, "upgraded: version 1 held settings of the old pip reader (reader.die_side_px, dice.pip_px)") {
		t.Errorf("calibrate show of a version 1 profile: %v\n%s", err, out)
	}
}

// calibrate --buttons: the configuration's keyboard buttons and terminal display answer and
// show the questions, and the profile goes where the configuration keeps it.
func TestCalibrateOnButtons(t *testing.T) {
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames, dir := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(frames, "1-tray.jpg"), photo, 0o644)
	os.WriteFile(filepath.Join(frames, "2-roll.jpg"), photo, 0o644)
	conf := filepath.Join(dir, "cantstop.conf")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[game]\nlanguage = de\n[camera]\nsource = \"dir:"+frames+"?loop\"\ncalibration = rig.json\n"), 0o644)
	// Enter is OK: the tray (twice, dice were left in it), the tray found, the roll, the dice as
	// read, and "keep it anyway" if the roll was misread.
	out, err := calibrateCLI(t, strings.Repeat("\n", 8), "calibrate", "--buttons", "--config", conf, "--frames", "1", "--rolls", "1")
	if err != nil {
		t.Fatalf("calibrate --buttons: %v\n%s", err, out)
	}
	for _, want := range []string{"Schale leeren", "Schale gefunden", "Würfeln", "Kalibriert", "Saved the calibration profile to " + filepath.Join(dir, "rig.json")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := calibration.Load(filepath.Join(dir, "rig.json")); err != nil {
		t.Error(err)
	}
	if _, err := calibrateCLI(t, "", "calibrate", "--config", conf); err == nil || !strings.Contains(err.Error(), "--config goes with --buttons") {
		t.Errorf("--config alone: %v", err)
	}
	if _, err := calibrateCLI(t, "", "calibrate", "--buttons", "--config", conf, "--dice", "5"); err == nil || !strings.Contains(err.Error(), "--buttons calibrates the game's 4 dice") {
		t.Errorf("--buttons --dice 5: %v", err)
	}
	// The input ends before the questions do: an error, no profile written over.
	out, err = calibrateCLI(t, "\n", "calibrate", "--buttons", "--config", conf, "--frames", "1", "--rolls", "1", "--profile", filepath.Join(dir, "other.json"))
	if err == nil || !strings.Contains(err.Error(), "wait for a button") {
		t.Errorf("input ended: %v, want an error saying it waited for a button\n%s", err, out)
	}
	if _, serr := os.Stat(filepath.Join(dir, "other.json")); serr == nil {
		t.Error("a profile written from an unfinished calibration")
	}
}
