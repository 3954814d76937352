package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/sdlog"
)

// syncBuffer is a bytes.Buffer safe for the loop's writes and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunUnderSystemd runs `cantstop run` as the service would, against a
// fake $NOTIFY_SOCKET with a watchdog: keyboard buttons on a pipe, the
// terminal display, a photo as the camera. It checks READY=1, WATCHDOG=1
// while the loop answers, a key press reaching the loop, a saved game in
// the state directory, and STOPPING=1 with a clean exit on SIGTERM (ctx).
func TestRunUnderSystemd(t *testing.T) {
	photos, _ := filepath.Glob(filepath.Join("..", "..", "dice", "testdata", "photos", "*", "*.jpg"))
	if len(photos) == 0 {
		t.Fatal("no photo under dice/testdata/photos")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "cantstop.conf")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+photos[0]+"\"\n[game]\nlanguage = fr\n"), 0o644)
	state := filepath.Join(dir, "state")

	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "300000") // 300 ms: pings every 100 ms
	t.Setenv("WATCHDOG_PID", "")
	t.Setenv("CONFIGURATION_DIRECTORY", "")
	t.Setenv("STATE_DIRECTORY", state)

	states := make(chan string, 100)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				close(states)
				return
			}
			states <- string(buf[:n])
		}
	}()
	waitState := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-states:
				if s == want {
					return
				}
			case <-deadline:
				t.Fatalf("no %s from cantstop run", want)
			}
		}
	}

	keys, press := io.Pipe()
	defer press.Close()
	var screen, logs syncBuffer
	root := newRootCmd()
	root.SetArgs([]string{"run", "--config", conf})
	root.SetIn(keys)
	root.SetOut(&screen)
	root.SetErr(&logs)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	waitState("READY=1")
	waitState("WATCHDOG=1")
	waitState("WATCHDOG=1")
	if !strings.Contains(screen.String(), "Joueurs") && !strings.Contains(screen.String(), "joueurs") {
		t.Errorf("setup screen not shown in French:\n%s", screen.String())
	}
	before := screen.String()
	press.Write([]byte("d")) // Next: the loop moves the highlight and redraws
	deadline := time.Now().Add(5 * time.Second)
	for screen.String() == before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if screen.String() == before {
		t.Error("a key press did not reach the companion loop")
	}
	waitState("WATCHDOG=1")

	cancel() // what SIGTERM does in main
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	waitState("STOPPING=1")
	if _, err := os.Stat(filepath.Join(state, companion.JournalFile)); err != nil {
		t.Errorf("no saved game in $STATE_DIRECTORY: %v", err)
	}
	for _, want := range []string{"configuration loaded", "no calibration profile", "companion running"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// TestOpenDiceFallback: a camera that does not open is waited for, then the players enter the
// dice until it opens (a ReopenReader, which reads once the camera is there), unless the config
// requires it.
func TestOpenDiceFallback(t *testing.T) {
	dir := t.TempDir()
	c := config.Default()
	c.Camera.Source = "file:" + filepath.Join(dir, "missing.jpg")
	var logs syncBuffer
	log := sdlog.New(&logs, nil, false)

	start := time.Now()
	d, cl, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), "", 1500*time.Millisecond, log)
	late, ok := d.(*companion.ReopenReader)
	if err != nil || !ok || cl == nil {
		t.Fatalf("missing camera: reader %T, err %v; want a ReopenReader, no error", d, err)
	}
	if waited := time.Since(start); waited < 1500*time.Millisecond {
		t.Errorf("gave up after %v, before the wait of 1.5s", waited)
	}
	for _, want := range []string{"camera not ready: retrying", "camera failed: the dice are entered with the buttons"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	ctx := context.Background()
	if _, err := late.ReadDice(ctx, 4); !errors.Is(err, companion.ErrNoCamera) {
		t.Errorf("read without the camera: %v, want ErrNoCamera", err)
	}
	// The camera appears (a photo of four dice, 1 3 3 6): the next try opens it and reads.
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "missing.jpg"), photo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := late.ReadDice(ctx, 4); !errors.Is(err, companion.ErrNoCamera) {
		t.Errorf("read before the next try is due: %v, want ErrNoCamera", err)
	}
	late.Every = time.Nanosecond
	res, err := late.ReadDice(ctx, 4)
	if err != nil || late.Current() == nil || !slices.Equal(slices.Sorted(slices.Values(res.Values)), []int{1, 3, 3, 6}) {
		t.Errorf("the camera plugged in late: %+v, %v; want 1 3 3 6 read", res, err)
	}
	if !strings.Contains(logs.String(), "camera opened") {
		t.Errorf("log lacks the camera opening:\n%s", logs.String())
	}
	if err := cl.Close(); err != nil || late.Current() != nil {
		t.Errorf("close: %v, reader %v", err, late.Current())
	}

	os.Remove(filepath.Join(dir, "missing.jpg"))
	c.Camera.Required = true
	if _, _, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), "", 0, log); err == nil ||
		!strings.Contains(err.Error(), "required") {
		t.Errorf("required camera missing: err %v", err)
	}

	c.Camera.Source = "none"
	if d, _, err := openDice(context.Background(), c, "", "", time.Hour, log); d != nil || err != nil {
		t.Errorf("source none: %v %v", d, err)
	}
}

// TestOpenDiceFailsMidGame: a camera that stops giving frames in the middle of a game (here a
// recorded stream of five frames that ends) is closed, the players enter that roll's dice, and
// the next roll opens it again and reads.
func TestOpenDiceFailsMidGame(t *testing.T) {
	photo, err := os.ReadFile(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	frames, dir := t.TempDir(), t.TempDir()
	for i := range 5 {
		if err := os.WriteFile(filepath.Join(frames, fmt.Sprintf("frame-%d.jpg", i)), photo, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := config.Default()
	c.Camera.Source = "dir:" + frames
	var logs syncBuffer
	d, cl, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), "", time.Second, sdlog.New(&logs, nil, false))
	if err != nil || d == nil {
		t.Fatalf("reader %v, %v", d, err)
	}
	defer cl.Close()
	ctx := context.Background()
	want := []int{1, 3, 3, 6}
	// The first roll settles on four of the five frames; the second runs out of them.
	for roll, ok := range []bool{true, false, true} {
		res, err := d.ReadDice(ctx, 4)
		got := slices.Sorted(slices.Values(res.Values))
		switch {
		case ok && (err != nil || !slices.Equal(got, want)):
			t.Fatalf("roll %d: %+v, %v; want %v read", roll, res, err, want)
		case !ok && (err == nil || !strings.Contains(err.Error(), "opened again at the next roll")):
			t.Fatalf("roll %d: %+v, %v; want the camera's failure", roll, res, err)
		}
	}
	for _, want := range []string{"camera failed: closed, opened again at the next roll", "camera opened: the dice are read again"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// cameraReader is the camera's reader in the service's dice reader, or nil.
func cameraReader(d companion.DiceReader) *companion.CameraReader {
	if r, ok := d.(*companion.ReopenReader); ok {
		d = r.Current()
	}
	cr, _ := d.(*companion.CameraReader)
	return cr
}

// TestOpenDiceLearns: the service's reader learns into the state directory; a damaged store is
// set aside (kept for a look) and learning starts again.
func TestOpenDiceLearns(t *testing.T) {
	dir := t.TempDir()
	photos, _ := filepath.Glob(filepath.Join("..", "..", "dice", "testdata", "photos", "nell-byler", "*.jpg"))
	if len(photos) == 0 {
		t.Fatal("no test photo")
	}
	c := config.Default()
	c.Camera.Source = "file:" + photos[0]
	learnt := filepath.Join(dir, calibration.LearntFile)
	os.WriteFile(learnt, []byte(`{"version": 1, "examples": [{"value": 8}]}`), 0o644)
	var logs syncBuffer
	d, cl, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), learnt, time.Second, sdlog.New(&logs, nil, false))
	if err != nil || d == nil {
		t.Fatalf("reader %v, %v", d, err)
	}
	defer cl.Close()
	cr := cameraReader(d)
	if cr == nil || cr.Learn == nil {
		t.Fatalf("reader %T does not learn", d)
	}
	if b, err := os.ReadFile(learnt + ".bad"); err != nil || !strings.Contains(string(b), `"value": 8`) {
		t.Errorf("damaged store not set aside: %v", err)
	}
	if !strings.Contains(logs.String(), "learnt dice set aside") || !strings.Contains(logs.String(), "examples[0]: value 8") {
		t.Errorf("log:\n%s", logs.String())
	}

	// Dice learnt with another calibration (here: a profile made since) are set aside too.
	l := calibration.Learnt{Profile: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := l.Save(learnt); err != nil {
		t.Fatal(err)
	}
	d2, cl2, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), learnt, time.Second, sdlog.New(&logs, nil, false))
	if err != nil || d2 == nil {
		t.Fatalf("reader %v, %v", d2, err)
	}
	cl2.Close()
	if _, err := os.Stat(learnt + ".old"); err != nil || !strings.Contains(logs.String(), "dice learnt with another calibration not used") {
		t.Errorf("stale store not set aside: %v\n%s", err, logs.String())
	}
}

// TestOpenCalibratedTray: the service uses the calibration only while the camera sees the tray
// where it was calibrated; seeing another tray, it reads uncalibrated, learns nothing and
// leaves the learnt dice alone, and doctor says why.
func TestOpenCalibratedTray(t *testing.T) {
	board := filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg")
	tray := filepath.Join("..", "..", "calibration", "testdata", "IMG_20191208_112833.jpg")
	photo, err := os.ReadFile(board)
	if err != nil {
		t.Fatal(err)
	}
	frames, dir := t.TempDir(), t.TempDir()
	for _, f := range []string{"1-tray.jpg", "2-roll.jpg"} {
		if err := os.WriteFile(filepath.Join(frames, f), photo, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CANTSTOP_CONFIG_DIR", dir)
	answer := func(q string) string {
		switch {
		case strings.Contains(q, "Are the dice"):
			return "1 3 3 6"
		case strings.Contains(q, "Keep this calibration anyway"):
			return "y"
		}
		return ""
	}
	if out, err := calibrateWith(t, answer, "calibrate", "--camera", "dir:"+frames+"?loop", "--frames", "1", "--rolls", "1"); err != nil {
		t.Fatalf("calibrate: %v\n%s", err, out)
	}
	// Dice learnt with an earlier calibration: the service sets them aside (.old) and learns
	// again, but not while the tray is not where it was: then it leaves them alone.
	learnt := filepath.Join(dir, calibration.LearntFile)
	stored := calibration.Learnt{Version: calibration.LearntVersion, Profile: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := stored.Save(learnt); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(learnt)

	for _, tc := range []struct {
		photo, log string
		learns     bool
	}{
		{tray, "calibration profile not used: the tray is not where it was calibrated", false},
		{board, "calibration profile loaded", true},
		{board, "background=true", true},
	} {
		c := config.Default()
		c.Camera.Source = "file:" + tc.photo
		var logs syncBuffer
		d, cl, err := openDice(context.Background(), c, c.CalibrationPath(filepath.Join(dir, "cantstop.conf")), learnt, time.Second, sdlog.New(&logs, nil, false))
		if err != nil || d == nil {
			t.Fatalf("%s: reader %v, %v", tc.photo, d, err)
		}
		cr := cameraReader(d)
		if cr == nil {
			t.Fatalf("%s: reader %T, want a camera's", tc.photo, d)
		}
		if !strings.Contains(logs.String(), tc.log) || (cr.Learn != nil) != tc.learns {
			t.Errorf("%s: learns %v, want %v; log:\n%s", tc.photo, cr.Learn != nil, tc.learns, logs.String())
		}
		cl.Close()
		if !tc.learns {
			if after, err := os.ReadFile(learnt); err != nil || !bytes.Equal(before, after) {
				t.Errorf("the tray moved, and the learnt dice were touched: %v\n%s", err, after)
			}
		}
	}
	if _, err := os.Stat(learnt + ".old"); err != nil {
		t.Errorf("with the tray in place, the dice of another calibration were not set aside: %v", err)
	}

	conf := filepath.Join(dir, "cantstop.conf")
	for photo, want := range map[string]string{
		board: "PASS  tray         as calibrated: 100% overlap",
		tray:  "WARN  tray         the tray is not where it was calibrated",
	} {
		if err := os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+photo+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, _, _ := runCLI(t, "doctor", "--config", conf, "--state-dir", dir); !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}
