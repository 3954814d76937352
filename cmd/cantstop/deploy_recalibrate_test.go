package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/doctor"
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
	first := cameraReader(rig.dr)
	if first == nil {
		t.Fatalf("reader %T, want a camera's", rig.dr)
	}

	var screen syncBuffer
	m := &menuCalibrator{cfg: c, configPath: conf, state: state, screen: display.NewTerminal(&screen, display.English), rig: rig, log: log}
	// Enter is OK to every question: the tray, the rolls, the dice as read.
	dr, err := m.calibrate(ctx, hw.NewKeyboard(strings.NewReader(strings.Repeat("\n", 60))))
	if err != nil {
		t.Fatalf("calibrate: %v\n%s", err, logs.String())
	}
	if cr := cameraReader(dr); cr == nil || cr == first || dr != rig.dr || cr.Learn == nil {
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
	// A menu profile damaged on disk is passed over, and the doctor says so.
	if err := os.WriteFile(saved, []byte(`{"version": 3, "created": "2030-01-01T00:00:00Z"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := profilePath(c, conf, state); got != c.CalibrationPath(conf) {
		t.Errorf("profile in use with a damaged menu profile %s, want the configured %s", got, c.CalibrationPath(conf))
	}
	_, err = checkCalibration(c.CalibrationPath(conf), saved)
	var pr *doctor.Problem
	if !errors.As(err, &pr) || !pr.Warn || !strings.Contains(pr.Error(), "the calibration saved from the menu does not load") || !strings.Contains(pr.Fix, "remove "+saved) {
		t.Errorf("doctor on a damaged menu profile: %+v", err)
	}
	if _, err := checkCalibration(c.CalibrationPath(conf), filepath.Join(state, "none.json")); err != nil {
		t.Errorf("doctor with no menu profile: %v", err)
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

// TestRunCalibratesFromMenu: `cantstop run` under a watchdog offers "Calibrate camera" in the
// menu; calibrating on the keyboard buttons keeps the watchdog fed, saves the profile in the
// state directory and goes back to the game.
func TestRunCalibratesFromMenu(t *testing.T) {
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames, dir := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(frames, "1-tray.jpg"), photo, 0o644)
	os.WriteFile(filepath.Join(frames, "2-roll.jpg"), photo, 0o644)
	conf := filepath.Join(dir, "cantstop.conf")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"dir:"+frames+"?loop\"\n"), 0o644)
	state := filepath.Join(dir, "state")
	notes := notifySocket(t, dir, "300000")
	t.Setenv("STATE_DIRECTORY", state)

	keys, press := io.Pipe()
	defer press.Close()
	var screen, logs syncBuffer
	root := newRootCmd()
	root.SetArgs([]string{"run", "--config", conf})
	root.SetIn(keys)
	root.SetOut(&screen)
	root.SetErr(&logs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	notes.wait(t, "READY=1")

	// Setup: start the game; the roll-off: hold OK for the menu, Calibrate camera (second from
	// the end), OK to its question; then Enter answers every calibration question.
	press.Write([]byte("a\nMaa\n\n"))
	waitFor(t, &screen, "Empty the tray")
	// Calibration waits for a button: the loop must go on answering the watchdog's pings.
	seen := notes.count("WATCHDOG=1")
	time.Sleep(time.Second)
	if notes.count("WATCHDOG=1") < seen+3 {
		t.Errorf("%d WATCHDOG=1 in a second of calibration, want 3 or more: systemd would kill the service", notes.count("WATCHDOG=1")-seen)
	}
	press.Write([]byte(strings.Repeat("\n", 40)))
	waitFor(t, &screen, "Calibrated")
	if _, err := calibration.Load(filepath.Join(state, "calibration.json")); err != nil {
		t.Errorf("no profile saved from the menu: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v\n%s", err, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	for _, want := range []string{"calibration saved from the menu", "calibrated from the menu"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// waitFor waits until the screen shows want.
func waitFor(t *testing.T, screen *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(screen.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", want, screen.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// notes are the sd_notify states sent to a fake $NOTIFY_SOCKET.
type notes struct {
	mu  sync.Mutex
	got []string
}

// notifySocket listens as systemd would, with a watchdog of usec microseconds.
func notifySocket(t *testing.T, dir, usec string) *notes {
	t.Helper()
	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", usec)
	t.Setenv("WATCHDOG_PID", "")
	t.Setenv("CONFIGURATION_DIRECTORY", "")
	n := &notes{}
	go func() {
		buf := make([]byte, 256)
		for {
			k, err := conn.Read(buf)
			if err != nil {
				return
			}
			n.mu.Lock()
			n.got = append(n.got, string(buf[:k]))
			n.mu.Unlock()
		}
	}()
	return n
}

func (n *notes) count(state string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, s := range n.got {
		if s == state {
			c++
		}
	}
	return c
}

func (n *notes) wait(t *testing.T, state string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for n.count(state) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no %s", state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
