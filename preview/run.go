package preview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera"
)

// Look draws what was found into a frame: it returns a new Mat (the caller
// closes it) and a one-line status, e.g. the dice read.
type Look func(frame gocv.Mat) (gocv.Mat, string)

// Opts says where the preview goes.
type Opts struct {
	// Terminal, when set, gets each frame as ANSI colour cells, Cols×Rows
	// (defaults 80×24), the cursor homed before each.
	Terminal   io.Writer
	Cols, Rows int
	// Listen, when set, is the address of the web page (e.g. 127.0.0.1:8080).
	Listen string
	// Ready, when set, is called with the web page's address once it listens.
	Ready func(addr string)
	// Interval is the least time between two frames shown (default 200 ms).
	Interval time.Duration
	Log      *slog.Logger
}

// Run shows frames from src, each through look, until ctx ends or the source
// runs out (io.EOF, which is not an error); it returns the frames shown.
func Run(ctx context.Context, src camera.Source, look Look, o Opts) (int, error) {
	ctx, cancel := context.WithCancel(ctx) // the web page ends with Run
	defer cancel()
	if o.Cols <= 0 {
		o.Cols = 80
	}
	if o.Rows <= 0 {
		o.Rows = 24
	}
	if o.Interval <= 0 {
		o.Interval = 200 * time.Millisecond
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var srv *Server
	if o.Listen != "" {
		srv = NewServer()
		addr, err := srv.Serve(ctx, o.Listen, o.Log)
		if err != nil {
			return 0, err
		}
		if o.Ready != nil {
			o.Ready(addr.String())
		}
	}
	if o.Terminal != nil {
		fmt.Fprint(o.Terminal, "\x1b[2J")
		defer fmt.Fprint(o.Terminal, "\x1b[0m\n")
	}
	shown := 0
	for {
		start := time.Now()
		frame, err := src.Frame(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return shown, nil
		case err == nil && ctx.Err() != nil:
			frame.Close()
			return shown, nil
		case ctx.Err() != nil:
			return shown, nil
		case err != nil:
			return shown, fmt.Errorf("camera: %w", err)
		}
		drawn, status := look(frame)
		frame.Close()
		if o.Terminal != nil {
			// The status line is cut to the width and has no newline: the view never scrolls.
			line := []rune(status)
			fmt.Fprintf(o.Terminal, "\x1b[H%s\x1b[K%s", ANSI(drawn, o.Cols, o.Rows-1), string(line[:min(len(line), o.Cols)]))
		}
		if srv != nil {
			buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, drawn, []int{gocv.IMWriteJpegQuality, 80})
			if err != nil {
				o.Log.Warn("preview frame not encoded for the web page", "err", err)
			} else {
				srv.Publish(append([]byte(nil), buf.GetBytes()...), status)
				buf.Close()
			}
		}
		drawn.Close()
		shown++
		select {
		case <-ctx.Done():
			return shown, nil
		case <-time.After(o.Interval - time.Since(start)):
		}
	}
}
