package camera

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera/mjpeg"
)

// RpicamOpts configures a Raspberry Pi Camera Module read through rpicam-vid.
// Zero durations take the defaults given.
type RpicamOpts struct {
	Binary   string   // program to run; default "rpicam-vid" from $PATH
	Camera   int      // --camera index
	Controls Controls // size, frame rate, shutter, gain, white balance, focus
	Args     []string // extra rpicam-vid arguments, e.g. --hflip
	Env      []string // extra environment for the process
	// Quality is the MJPEG quality, 1 to 100; default rpicamQuality, not rpicam-vid's
	// own 50, which compresses a die's pips harder than any photo the reader was measured
	// on (BENCHMARKS-dice.md, "rpicam-vid's JPEG quality"). A --quality or -q among Args
	// takes its place.
	Quality int

	DropFrames   int           // frames dropped after each start while controls settle; default 5, <0 none
	FirstFrame   time.Duration // how long Open waits for the first frame; default 10s
	FrameTimeout time.Duration // Frame fails after this long without a new frame; default 5s
	Stall        time.Duration // a process silent this long (after its first image) is restarted; default 10s
	MinBackoff   time.Duration // wait before the first restart; default 250ms, doubling
	MaxBackoff   time.Duration // longest wait between restarts; default 10s
	StopTimeout  time.Duration // SIGTERM to SIGKILL; default 2s
}

func (o RpicamOpts) withDefaults() RpicamOpts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if o.Binary == "" {
		o.Binary = "rpicam-vid"
	}
	if o.DropFrames == 0 {
		o.DropFrames = settleFrames
	}
	def(&o.FirstFrame, 10*time.Second)
	def(&o.FrameTimeout, 5*time.Second)
	def(&o.Stall, 10*time.Second)
	def(&o.MinBackoff, 250*time.Millisecond)
	def(&o.MaxBackoff, 10*time.Second)
	def(&o.StopTimeout, 2*time.Second)
	return o
}

// rpicamQuality is the MJPEG quality asked of rpicam-vid unless told otherwise: rpicam-still's
// own default for a JPEG.
const rpicamQuality = 93

// RpicamArgs returns the rpicam-vid command line for o (without the program).
func RpicamArgs(o RpicamOpts) []string {
	c := o.Controls
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	a := []string{"-t", "0", "-n", "--codec", "mjpeg"}
	if !hasArg(o.Args, "--quality", "-q") {
		q := o.Quality
		if q == 0 {
			q = rpicamQuality
		}
		a = append(a, "--quality", strconv.Itoa(q))
	}
	if o.Camera != 0 {
		a = append(a, "--camera", strconv.Itoa(o.Camera))
	}
	if c.Width > 0 {
		a = append(a, "--width", strconv.Itoa(c.Width), "--height", strconv.Itoa(c.Height))
	}
	if c.FPS > 0 {
		a = append(a, "--framerate", f(c.FPS))
	}
	if c.ShutterUS > 0 {
		a = append(a, "--shutter", strconv.Itoa(c.ShutterUS))
	}
	if c.Gain > 0 {
		a = append(a, "--gain", f(c.Gain))
	}
	if c.AWBGains[0] > 0 {
		a = append(a, "--awbgains", f(c.AWBGains[0])+","+f(c.AWBGains[1]))
	}
	if c.LensPosition != nil {
		a = append(a, "--lens-position", f(*c.LensPosition))
	}
	a = append(a, o.Args...)
	return append(a, "--flush", "-o", "-")
}

// hasArg says whether args hold one of the options names, alone or as name=value.
func hasArg(args []string, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				return true
			}
		}
	}
	return false
}

// Rpicam is a supervised rpicam-vid process streaming MJPEG on its stdout.
// A reader goroutine keeps only the newest image, so Frame never returns a
// stale frame however slowly it is called; JPEG decoding happens in Frame.
type Rpicam struct {
	o      RpicamOpts
	path   string
	log    *slog.Logger
	cancel context.CancelFunc
	life   context.Context // ends with Close or with the ctx given to OpenRpicam
	done   chan struct{}   // closed when the supervisor has stopped the process
	ready  chan error      // first frame (nil) or first failure

	mu      sync.Mutex
	latest  []byte
	seq     uint64        // images published
	taken   uint64        // seq of the image Frame returned last
	arrived chan struct{} // closed and replaced at each publish
	lastErr error         // why the process last stopped
	starts  int
	closed  bool
}

// notFound is the error for a missing rpicam-vid.
func notFound(bin string, err error) error {
	if bin == "rpicam-vid" {
		return fmt.Errorf("rpicam-vid not found: install rpicam-apps (sudo apt install rpicam-apps): %w", err)
	}
	return fmt.Errorf("%s not found (the rpicam-vid program given by bin=): install rpicam-apps (sudo apt install rpicam-apps) or fix the path: %w", bin, err)
}

// OpenRpicam starts rpicam-vid and waits for its first frame. The process is
// restarted (with backoff) whenever it dies, and stopped (SIGTERM, then
// SIGKILL) by Close or when ctx is cancelled.
func OpenRpicam(ctx context.Context, o RpicamOpts, log *slog.Logger) (*Rpicam, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	o = o.withDefaults()
	if err := o.Controls.Validate(); err != nil {
		return nil, err
	}
	if o.Quality < 0 || o.Quality > 100 {
		return nil, fmt.Errorf("rpicam: MJPEG quality %d: give 1 to 100, or 0 for %d", o.Quality, rpicamQuality)
	}
	path, err := exec.LookPath(o.Binary)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return nil, notFound(o.Binary, err)
		}
		return nil, fmt.Errorf("run %s: %w", o.Binary, err)
	}
	sctx, cancel := context.WithCancel(ctx)
	r := &Rpicam{o: o, path: path, log: log.With("camera", "rpicam"), cancel: cancel, life: sctx,
		done: make(chan struct{}), ready: make(chan error, 1), arrived: make(chan struct{})}
	go r.supervise(sctx)

	t := time.NewTimer(o.FirstFrame)
	defer t.Stop()
	select {
	case err = <-r.ready:
	case <-t.C:
		err = fmt.Errorf("%s gave no frame within %v: is a Camera Module connected and enabled (`rpicam-hello --list-cameras`)?%s",
			o.Binary, o.FirstFrame, r.lastErrText())
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func (r *Rpicam) lastErrText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastErr == nil {
		return ""
	}
	return " (last: " + r.lastErr.Error() + ")"
}

// Starts reports how many times the process has been started.
func (r *Rpicam) Starts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.starts
}

// Frame decodes the newest image that Frame has not returned yet, waiting for
// one if needed (at most FrameTimeout).
func (r *Rpicam) Frame(ctx context.Context) (gocv.Mat, error) {
	t := time.NewTimer(r.o.FrameTimeout)
	defer t.Stop()
	for {
		if err := ctx.Err(); err != nil {
			return gocv.Mat{}, err
		}
		// The supervisor closes done only after the process is reaped; a frame it published
		// before the end must not be returned in between.
		if r.life.Err() != nil {
			return gocv.Mat{}, fmt.Errorf("%s stopped%s", r.o.Binary, r.lastErrText())
		}
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return gocv.Mat{}, errClosed
		}
		if r.seq > r.taken {
			data := r.latest
			r.taken = r.seq
			r.mu.Unlock()
			m, err := DecodeImage(data)
			if err == nil {
				return m, nil
			}
			r.log.Warn("rpicam-vid sent an image that does not decode; skipped", "bytes", len(data), "err", err)
			continue
		}
		arrived := r.arrived
		r.mu.Unlock()
		select {
		case <-ctx.Done():
			return gocv.Mat{}, ctx.Err()
		case <-arrived:
		case <-r.done:
			return gocv.Mat{}, fmt.Errorf("%s stopped%s", r.o.Binary, r.lastErrText())
		case <-t.C:
			return gocv.Mat{}, fmt.Errorf("%s gave no frame for %v%s", r.o.Binary, r.o.FrameTimeout, r.lastErrText())
		}
	}
}

// Close stops the process and waits until it has exited.
func (r *Rpicam) Close() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	<-r.done
	return nil
}

func (r *Rpicam) publish(img []byte) {
	r.mu.Lock()
	r.latest = img
	r.seq++
	close(r.arrived)
	r.arrived = make(chan struct{})
	r.mu.Unlock()
}

func (r *Rpicam) supervise(ctx context.Context) {
	defer close(r.done)
	backoff := r.o.MinBackoff
	first := true
	for {
		frames, err := r.run(ctx, first)
		if ctx.Err() != nil {
			r.mu.Lock()
			r.lastErr = ctx.Err()
			r.mu.Unlock()
			return
		}
		r.mu.Lock()
		r.lastErr = err
		r.mu.Unlock()
		if first && frames == 0 {
			r.ready <- err // Open reports it and closes
			return
		}
		first = false
		if frames > 0 {
			backoff = r.o.MinBackoff
		}
		r.log.Warn("rpicam-vid stopped; restarting", "err", err, "frames", frames, "after", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, r.o.MaxBackoff)
	}
}

// run starts the process once and streams its images until it ends, ctx is
// cancelled or it stalls; it returns how many images it published.
func (r *Rpicam) run(ctx context.Context, first bool) (frames int, err error) {
	cmd := exec.Command(r.path, RpicamArgs(r.o)...)
	cmd.Env = append(os.Environ(), r.o.Env...)
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = r.o.StopTimeout // a child holding stderr open cannot block Wait
	stderr := &tailBuffer{max: 2048}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, notFound(r.o.Binary, err)
		}
		return 0, fmt.Errorf("start %s: %w", r.o.Binary, err)
	}
	r.mu.Lock()
	r.starts++
	r.mu.Unlock()
	r.log.Info("rpicam-vid started", "pid", cmd.Process.Pid, "args", strings.Join(cmd.Args[1:], " "))

	// The watcher stops the process group when ctx ends or output stalls.
	stop := make(chan struct{})
	watched := make(chan struct{})
	progress := make(chan struct{}, 1)
	stalled := false // written by the watcher before watched is closed
	go func() {
		defer close(watched)
		// Starting a camera takes a while: until the first image, allow
		// FirstFrame if that is longer.
		stall := time.NewTimer(max(r.o.Stall, r.o.FirstFrame))
		defer stall.Stop()
		for {
			select {
			case <-ctx.Done():
			case <-stop:
			case <-stall.C:
				stalled = true
				r.log.Warn("rpicam-vid stalled; stopping it", "silent_for", r.o.Stall)
			case <-progress:
				stall.Reset(r.o.Stall)
				continue
			}
			terminate(cmd.Process.Pid, r.o.StopTimeout, cmd.Wait)
			return
		}
	}()

	split := mjpeg.NewSplitter(stdout, 64<<20)
	drop := r.o.DropFrames
	for {
		img, rerr := split.Next()
		if rerr != nil {
			break
		}
		select {
		case progress <- struct{}{}:
		default:
		}
		if drop > 0 {
			drop--
			continue
		}
		r.publish(img)
		frames++
		if first && frames == 1 {
			r.ready <- nil
		}
	}
	close(stop)
	<-watched
	waitErr := cmd.ProcessState
	msg := stderr.lastLines(3)
	switch {
	case stalled:
		err = fmt.Errorf("%s stalled: no image for %v after %d frames; stopped it", r.o.Binary, r.o.Stall, frames)
	case waitErr == nil:
		err = fmt.Errorf("%s ended", r.o.Binary)
	case waitErr.Success():
		err = fmt.Errorf("%s exited after %d frames", r.o.Binary, frames)
	default:
		err = fmt.Errorf("%s %v after %d frames", r.o.Binary, waitErr, frames)
	}
	if msg != "" {
		err = fmt.Errorf("%w: %s", err, msg)
	}
	return frames, err
}

// terminate sends SIGTERM to the process group, SIGKILL after timeout, and
// reaps the process with wait so that nothing is left behind.
func terminate(pid int, timeout time.Duration, wait func() error) {
	exited := make(chan struct{})
	go func() {
		_ = wait()
		close(exited)
	}()
	select {
	case <-exited: // it ended by itself
	default:
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		t := time.NewTimer(timeout)
		defer t.Stop()
		select {
		case <-exited:
		case <-t.C:
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-exited
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // children it left behind
}

// tailBuffer keeps the end of a process's stderr for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, " / "))
}
