package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

func TestCalibrateCommand(t *testing.T) {
	// A folder source: the first look (the "empty" tray) sees the board photo
	// with its dice on it, which the tray finder sees around; the second the roll.
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames := t.TempDir()
	os.WriteFile(filepath.Join(frames, "1-tray.jpg"), photo, 0o644)
	os.WriteFile(filepath.Join(frames, "2-roll.jpg"), photo, 0o644)
	conf := t.TempDir()
	t.Setenv("CANTSTOP_CONFIG_DIR", conf)

	// Enter at every question: accept what was read.
	out, err := calibrateCLI(t, strings.Repeat("\n", 8), "calibrate", "--camera", "dir:"+frames, "--frames", "1")
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	for _, want := range []string{"Step 1 of 3", "Are the dice 1 3 3 6?", "Saved the calibration profile to " + filepath.Join(conf, "calibration.json")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	p, err := calibration.Load(filepath.Join(conf, "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Camera != "dir:"+frames || p.Dice.Count != 4 || len(p.Dice.Values) != 4 {
		t.Errorf("profile: %+v", p)
	}
	if fi, err := os.Stat(filepath.Join(conf, "calibration.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("annotated picture not written: %v", err)
	}

	out, err = calibrateCLI(t, "", "calibrate", "show")
	if err != nil || !strings.Contains(out, "version 1") || !strings.Contains(out, "dice: 4,") {
		t.Errorf("calibrate show: %v\n%s", err, out)
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
