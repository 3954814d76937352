package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
	"github.com/cantstop/cantstop/sdlog"
)

// TestMenuCalibrator: calibrating from the service's menu asks on the buttons and display it
// is given, saves the profile in the state directory (the configuration directory is the
// sandbox's, read-only), makes it the profile the service uses, opens the dice reader again
// from it, and sets the dice learnt with the old calibration aside.
func TestMenuCalibrator(t *testing.T) {
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames, dir, state := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(frames, "1-tray.jpg"), photo, 0o644)
	os.WriteFile(filepath.Join(frames, "2-roll.jpg"), photo, 0o644)
	conf := filepath.Join(dir, "cantstop.conf")
	c := config.Default()
	c.Camera.Source = "dir:" + frames + "?loop"
	old := calibration.Learnt{Profile: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	learnt := learntPath(state)
	if err := old.Save(learnt); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	log := sdlog.New(&logs, nil, false)
	ctx := context.Background()
	rig := &diceRig{}
	rig.dr, rig.c, err = openDice(ctx, c, profilePath(c, conf, state), learnt, time.Second, log)
	if err != nil || rig.dr == nil {
		t.Fatalf("reader %v, %v", rig.dr, err)
	}
	defer rig.Close()
	first := rig.dr

	var screen syncBuffer
	m := &menuCalibrator{cfg: c, configPath: conf, state: state, screen: display.NewTerminal(&screen, display.English), rig: rig, log: log}
	// Enter is OK to every question: the tray, the rolls, the dice as read.
	dr, err := m.calibrate(ctx, hw.NewKeyboard(strings.NewReader(strings.Repeat("\n", 60))))
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, logs.String())
	}
	if cr, ok := dr.(*companion.CameraReader); !ok || cr == first || cr != rig.dr || cr.Learn == nil {
		t.Errorf("reader after calibrating: %T %v (before %v, rig %v): want a new learning CameraReader in the rig", dr, dr, first, rig.dr)
	}
	for _, want := range []string{"Empty the tray", "Roll the dice"} {
		if !strings.Contains(screen.String(), want) {
			t.Errorf("the display did not ask %q:\n%s", want, screen.String())
		}
	}
	saved := menuProfile(state)
	if _, err := calibration.Load(saved); err != nil {
		t.Fatalf("profile from the menu: %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, "calibration.png")); err != nil {
		t.Errorf("no picture of what was seen: %v", err)
	}
	if got := profilePath(c, conf, state); got != saved {
		t.Errorf("profile in use %s, want the menu's %s", got, saved)
	}
	if _, err := os.Stat(learnt + ".old"); err != nil {
		t.Errorf("dice learnt with the old calibration not set aside: %v", err)
	}
	if !strings.Contains(logs.String(), "calibration profile loaded") {
		t.Errorf("the reader was not opened with the new profile:\n%s", logs.String())
	}

	// A calibration made later with cantstop calibrate wins over the menu's again.
	p, err := calibration.Load(saved)
	if err != nil {
		t.Fatal(err)
	}
	p.Created = p.Created.Add(time.Minute)
	if err := p.Save(c.CalibrationPath(conf)); err != nil {
		t.Fatal(err)
	}
	if got := profilePath(c, conf, state); got != c.CalibrationPath(conf) {
		t.Errorf("profile in use %s, want the newer configured %s", got, c.CalibrationPath(conf))
	}

	// Quit on the buttons: an error, the reader in use untouched.
	before := rig.dr
	if _, err := m.calibrate(ctx, hw.NewKeyboard(strings.NewReader("M"))); !errors.Is(err, calibration.ErrCancelled) {
		t.Errorf("a quit calibration: %v, want %v", err, calibration.ErrCancelled)
	}
	if rig.dr != before {
		t.Error("a quit calibration replaced the reader")
	}
}
