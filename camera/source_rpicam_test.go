package camera

import (
	"bytes"
	"context"
	"errors"
	"image"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// buildFakeRpicam builds the stand-in rpicam-vid (testdata/rpicam) into dir.
func buildFakeRpicam(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "rpicam-vid")
	cmd := exec.Command(goBin, "build", "-o", bin, "./testdata/rpicam/main.go")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the stand-in rpicam-vid: %v\n%s", err, out)
	}
	return bin
}

// syncBuffer collects log output from the supervisor goroutine.
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

// fakeStarts reads the stand-in's log: one "PID ARGS" line per start.
func fakeStarts(t *testing.T, log string) (pids []int, args []string) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		pid, rest, _ := strings.Cut(line, " ")
		n, err := strconv.Atoi(pid)
		if err != nil {
			t.Fatalf("bad log line %q", line)
		}
		pids, args = append(pids, n), append(args, rest)
	}
	return pids, args
}

// gone waits until no process has the given pid (it was stopped and reaped).
func gone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
	}
	return false
}

func TestRpicam(t *testing.T) {
	fake := buildFakeRpicam(t)
	frames, err := filepath.Abs(filepath.Join("testdata", "frames"))
	if err != nil {
		t.Fatal(err)
	}
	setup := func(t *testing.T, env ...string) (RpicamOpts, string) {
		log := filepath.Join(t.TempDir(), "starts.log")
		return RpicamOpts{
			Binary:     fake,
			Env:        append([]string{"FAKE_RPICAM_FRAMES=" + frames, "FAKE_RPICAM_LOG=" + log}, env...),
			DropFrames: 2,
			MinBackoff: 20 * time.Millisecond,
		}, log
	}

	t.Run("Frames", func(t *testing.T) {
		o, log := setup(t, "FAKE_RPICAM_MESSY=1")
		lens := 0.5
		o.Controls = Controls{Width: 320, Height: 240, FPS: 20, ShutterUS: 12000, Gain: 2, AWBGains: [2]float64{1.5, 1.25}, LensPosition: &lens}
		ctx := context.Background()
		src, err := OpenRpicam(ctx, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		var refs []gocv.Mat // the recorded frames at the size asked for
		for _, f := range testFrames {
			m := gocv.IMRead(framePath(f), gocv.IMReadColor)
			r := gocv.NewMat()
			gocv.Resize(m, &r, image.Pt(320, 240), 0, 0, gocv.InterpolationNearestNeighbor)
			refs = append(refs, r)
			m.Close()
			defer r.Close()
		}
		seen := map[int]bool{}
		for i := 0; i < 6; i++ {
			m, err := src.Frame(ctx)
			if err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			match := -1
			for j, r := range refs {
				if meanDiff(t, m, r) < 8 {
					match = j
				}
			}
			if match < 0 {
				t.Errorf("frame %d is none of the recorded frames", i)
			}
			seen[match] = true
			m.Close()
		}
		if len(seen) < 2 {
			t.Errorf("six frames came from %d recorded frames: the stream does not advance", len(seen))
		}
		_, args := fakeStarts(t, log)
		want := "-t 0 -n --codec mjpeg --quality 93 --width 320 --height 240 --framerate 20 --shutter 12000 --gain 2 --awbgains 1.5,1.25 --lens-position 0.5 --flush -o -"
		if len(args) != 1 || args[0] != want {
			t.Errorf("rpicam-vid started with %q, want once with %q", args, want)
		}
	})

	t.Run("RestartAfterDeath", func(t *testing.T) {
		o, log := setup(t, "FAKE_RPICAM_DIE_AFTER=5") // 3 frames per life after the 2 dropped
		var logs syncBuffer
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		src, err := OpenRpicam(ctx, o, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		for i := 0; i < 10; i++ {
			m, err := src.Frame(ctx)
			if err != nil {
				t.Fatalf("frame %d: %v (log:\n%s)", i, err, logs.String())
			}
			m.Close()
		}
		if n := src.Starts(); n < 4 {
			t.Errorf("10 frames at 3 per life took %d starts, want at least 4", n)
		}
		if !strings.Contains(logs.String(), "rpicam-vid stopped; restarting") || !strings.Contains(logs.String(), "dying after 5 frames") {
			t.Errorf("restart not logged with the reason:\n%s", logs.String())
		}
		src.Close()
		pids, _ := fakeStarts(t, log)
		for _, pid := range pids {
			if !gone(pid) {
				t.Errorf("rpicam-vid pid %d still exists after Close", pid)
			}
		}
	})

	t.Run("CloseStopsProcess", func(t *testing.T) {
		// It ignores SIGTERM, so Close must fall back to SIGKILL.
		o, log := setup(t, "FAKE_RPICAM_IGNORE_TERM=1")
		o.StopTimeout = 300 * time.Millisecond
		src, err := OpenRpicam(context.Background(), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		pids, _ := fakeStarts(t, log)
		if err := syscall.Kill(pids[0], 0); err != nil {
			t.Fatalf("rpicam-vid not running while open: %v", err)
		}
		start := time.Now()
		src.Close()
		if !gone(pids[0]) {
			t.Fatalf("rpicam-vid pid %d survived Close", pids[0])
		}
		if d := time.Since(start); d < o.StopTimeout {
			t.Errorf("Close returned after %v, before the SIGTERM grace period: SIGTERM was not tried first", d)
		}
		if _, err := src.Frame(context.Background()); err == nil {
			t.Error("Frame after Close succeeded")
		}
	})

	t.Run("ContextStopsProcess", func(t *testing.T) {
		o, log := setup(t)
		ctx, cancel := context.WithCancel(context.Background())
		src, err := OpenRpicam(ctx, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		cancel()
		pids, _ := fakeStarts(t, log)
		if !gone(pids[0]) {
			t.Fatalf("rpicam-vid pid %d survived the cancelled context", pids[0])
		}
		if _, err := src.Frame(context.Background()); err == nil {
			t.Error("Frame after the context ended succeeded")
		}
	})

	t.Run("Stall", func(t *testing.T) {
		// Two frames a second, but a stall limit of 150ms: each run gives one
		// frame, then is stopped as stalled and started again.
		o, _ := setup(t)
		o.Controls.FPS = 2
		o.DropFrames = -1
		o.Stall = 150 * time.Millisecond
		var logs syncBuffer
		src, err := OpenRpicam(context.Background(), o, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		for i := 0; i < 3; i++ {
			m, err := src.Frame(context.Background())
			if err != nil {
				t.Fatalf("frame %d: %v\n%s", i, err, logs.String())
			}
			m.Close()
		}
		if n := src.Starts(); n < 3 || !strings.Contains(logs.String(), "rpicam-vid stalled; stopping it") {
			t.Errorf("%d starts; log:\n%s", n, logs.String())
		}
	})

	t.Run("BadFlags", func(t *testing.T) {
		o, _ := setup(t)
		o.Args = []string{"--bogus"}
		_, err := OpenRpicam(context.Background(), o, nil)
		if err == nil || !strings.Contains(err.Error(), "unrecognised option '--bogus'") || !strings.Contains(err.Error(), "exit status 255") {
			t.Errorf("rejected flag: error %v, want rpicam-vid's message and exit status", err)
		}
		o.Args = nil
		o.Camera = 3
		if _, err := OpenRpicam(context.Background(), o, nil); err == nil || !strings.Contains(err.Error(), "no camera available at index 3") {
			t.Errorf("missing camera: error %v", err)
		}
		o.Camera = 0
		o.Controls = Controls{Gain: -1}
		if _, err := OpenRpicam(context.Background(), o, nil); err == nil || !strings.Contains(err.Error(), "gain -1") {
			t.Errorf("negative gain: error %v", err)
		}
	})

	t.Run("MissingBinary", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Open(context.Background(), "rpicam", Controls{}, nil)
		const want = "open camera rpicam: rpicam-vid not found: install rpicam-apps (sudo apt install rpicam-apps)"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	})

	t.Run("OpenSpec", func(t *testing.T) {
		t.Setenv("FAKE_RPICAM_FRAMES", frames)
		src, err := Open(context.Background(), "rpicam:160x120?bin="+fake, Controls{FPS: 30}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		m, err := src.Frame(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if m.Cols() != 160 || m.Rows() != 120 {
			t.Errorf("rpicam:160x120 gave a %dx%d frame", m.Cols(), m.Rows())
		}
	})
}

// TestRpicamQuality: rpicam-vid is asked for MJPEG at rpicamQuality, not its own 50, unless
// the options give a quality or the extra arguments already carry one (rpicam-vid refuses an
// option given twice).
func TestRpicamQuality(t *testing.T) {
	for _, c := range []struct {
		o    RpicamOpts
		want string
	}{
		{RpicamOpts{}, "-t 0 -n --codec mjpeg --quality 93 --flush -o -"},
		{RpicamOpts{Quality: 80}, "-t 0 -n --codec mjpeg --quality 80 --flush -o -"},
		{RpicamOpts{Args: []string{"-q", "70"}}, "-t 0 -n --codec mjpeg -q 70 --flush -o -"},
		{RpicamOpts{Args: []string{"--quality=60"}}, "-t 0 -n --codec mjpeg --quality=60 --flush -o -"},
	} {
		if got := strings.Join(RpicamArgs(c.o), " "); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
	for _, q := range []int{-1, 101} {
		_, err := OpenRpicam(context.Background(), RpicamOpts{Binary: "/nonexistent/rpicam-vid", Quality: q}, nil)
		if err == nil || !strings.Contains(err.Error(), "1 to 100") {
			t.Errorf("quality %d: %v, want an error giving the qualities allowed", q, err)
		}
	}
}
