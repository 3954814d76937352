package preview

import (
	"bufio"
	"bytes"
	"context"
	"image"
	"image/color"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera"
)

// quadrants is a w×h frame: red top left, green top right, blue bottom left, white bottom right.
func quadrants(w, h int) gocv.Mat {
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	for _, q := range []struct {
		r image.Rectangle
		c color.RGBA
	}{
		{image.Rect(0, 0, w/2, h/2), color.RGBA{255, 0, 0, 0}}, {image.Rect(w/2, 0, w, h/2), color.RGBA{0, 255, 0, 0}},
		{image.Rect(0, h/2, w/2, h), color.RGBA{0, 0, 255, 0}}, {image.Rect(w/2, h/2, w, h), color.RGBA{255, 255, 255, 0}},
	} {
		gocv.Rectangle(&m, q.r, q.c, -1)
	}
	return m
}

var cell = regexp.MustCompile(`\x1b\[38;2;(\d+);(\d+);(\d+)m\x1b\[48;2;(\d+);(\d+);(\d+)m▀`)

// TestANSI: the frame is drawn in its own colours, its aspect kept: a 4:3
// frame in 40×30 cells is 40 cells wide and 15 lines (30 pixel rows) high.
func TestANSI(t *testing.T) {
	m := quadrants(640, 480)
	defer m.Close()
	out := ANSI(m, 40, 30)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 15 {
		t.Fatalf("%d lines, want 15", len(lines))
	}
	rgb := func(line, col int) (string, string) {
		c := cell.FindAllStringSubmatch(lines[line], -1)
		if len(c) != 40 {
			t.Fatalf("line %d has %d cells, want 40", line, len(c))
		}
		return strings.Join(c[col][1:4], ","), strings.Join(c[col][4:7], ",")
	}
	for _, c := range []struct {
		line, col   int
		top, bottom string
	}{
		{0, 0, "255,0,0", "255,0,0"}, {0, 39, "0,255,0", "0,255,0"},
		{14, 0, "0,0,255", "0,0,255"}, {14, 39, "255,255,255", "255,255,255"},
	} {
		if top, bottom := rgb(c.line, c.col); top != c.top || bottom != c.bottom {
			t.Errorf("cell (%d,%d): %s over %s, want %s over %s", c.line, c.col, top, bottom, c.top, c.bottom)
		}
	}
	// A tall frame in a wide terminal is centred, not stretched.
	tall := quadrants(100, 400)
	defer tall.Close()
	if l := strings.SplitN(ANSI(tall, 80, 10), "\n", 2)[0]; !strings.HasPrefix(l, strings.Repeat(" ", 37)) || len(cell.FindAllString(l, -1)) != 5 {
		t.Errorf("tall frame: first line %q is not 5 cells centred in 80", l)
	}
}

// TestServer: the page, the latest frame and the live stream, which sends a
// new part for each frame published.
func TestServer(t *testing.T) {
	s := NewServer()
	sctx, stop := context.WithCancel(context.Background())
	defer stop()
	addr, err := s.Serve(sctx, "127.0.0.1:0", slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + addr.String()
	r0, err := http.Get(base + "/frame.jpg?t=1")
	if err != nil {
		t.Fatal(err)
	}
	r0.Body.Close()
	if r0.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("frame before any: %s", r0.Status)
	}
	s.Publish([]byte("\xff\xd8first\xff\xd9"), "read 2 3 5 6")
	get := func(path string) string {
		r, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return string(b)
	}
	if p := get("/"); !strings.Contains(p, `<img src="stream.mjpg"`) || !strings.Contains(p, "read 2 3 5 6") {
		t.Errorf("page: %s", p)
	}
	if f := get("/frame.jpg"); f != "\xff\xd8first\xff\xd9" {
		t.Errorf("frame: %q", f)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/stream.mjpg", nil)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	parts := multipart.NewReader(bufio.NewReader(r.Body), params["boundary"])
	for i, want := range []string{"\xff\xd8first\xff\xd9", "\xff\xd8second\xff\xd9"} {
		p, err := parts.NextPart()
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if i == 0 { // the part ends where the next begins: publish it
			s.Publish([]byte("\xff\xd8second\xff\xd9"), "unreadable")
		}
		// Content-Length bytes: a part's end is only known when the next begins.
		b := make([]byte, len(want))
		if n, _ := strconv.Atoi(p.Header.Get("Content-Length")); n != len(want) {
			t.Fatalf("part %d: Content-Length %q, want %d", i, p.Header.Get("Content-Length"), len(want))
		}
		io.ReadFull(p, b)
		if string(b) != want || p.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("part %d: %q (%s), want %q", i, b, p.Header.Get("Content-Type"), want)
		}
	}
}

// TestRun: frames from a source go through look to the terminal and the web
// page until the source ends.
func TestRun(t *testing.T) {
	frames := 3
	src := camera.NewImageSource(func(ctx context.Context) (image.Image, error) {
		if frames == 0 {
			return nil, io.EOF
		}
		frames--
		img := image.NewRGBA(image.Rect(0, 0, 64, 48))
		for i := range img.Pix {
			img.Pix[i] = 200
		}
		return img, nil
	})
	defer src.Close()
	var term bytes.Buffer
	var addr string
	looked := 0
	look := func(f gocv.Mat) (gocv.Mat, string) {
		looked++
		return f.Clone(), "status line"
	}
	n, err := Run(context.Background(), src, look, Opts{Terminal: &term, Cols: 20, Rows: 8, Listen: "127.0.0.1:0",
		Ready: func(a string) { addr = a }, Interval: time.Millisecond})
	if err != nil || n != 3 || looked != 3 {
		t.Fatalf("Run: %d frames, %d looked, %v", n, looked, err)
	}
	if strings.Count(term.String(), "status line") != 3 || !strings.Contains(term.String(), "\x1b[38;2;200;200;200m") {
		t.Errorf("terminal output lacks the frames: %q", term.String()[:min(200, term.Len())])
	}
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("web page on %q, want 127.0.0.1", addr)
	}
	// The page ends with Run.
	deadline := time.Now().Add(2 * time.Second)
	for {
		r, err := http.Get("http://" + addr + "/status")
		if err != nil {
			break
		}
		r.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("the web page still answers after Run returned")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServerRefuses: what is not a GET of a known page gets a status that says so.
func TestServerRefuses(t *testing.T) {
	s := NewServer()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	addr, err := s.Serve(ctx, "127.0.0.1:0", slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	for req, want := range map[string]string{
		"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n": "HTTP/1.1 404 Not Found",
		"POST / HTTP/1.1\r\nHost: x\r\n\r\n":       "HTTP/1.1 405 Method Not Allowed",
		"hello\r\n\r\n":                            "HTTP/1.1 400 Bad Request",
	} {
		conn, err := net.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(req))
		got, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if strings.TrimSpace(got) != want {
			t.Errorf("%q: %q, want %q", req, got, want)
		}
	}
	// Once ctx ends, nothing listens.
	stop()
	time.Sleep(20 * time.Millisecond)
	if c, err := net.Dial("tcp", addr.String()); err == nil {
		c.Close()
		t.Error("still listening after ctx ended")
	}
}
