package preview

import (
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server serves the latest annotated frame as a web page: / shows it live
// (MJPEG in an <img>) with the reading under it, /stream.mjpg is the stream,
// /frame.jpg the latest frame and /status the reading as text.
type Server struct {
	mu      sync.Mutex
	jpeg    []byte
	status  string
	updated chan struct{} // closed and replaced on every Publish
}

// NewServer returns a server with nothing published yet.
func NewServer() *Server { return &Server{updated: make(chan struct{})} }

// Publish makes jpeg (not copied: the caller must not change it) and status
// the latest frame, and wakes the streams.
func (s *Server) Publish(jpeg []byte, status string) {
	s.mu.Lock()
	s.jpeg, s.status = jpeg, status
	close(s.updated)
	s.updated = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) latest() ([]byte, string, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jpeg, s.status, s.updated
}

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>cantstop camera preview</title>
<meta name="viewport" content="width=device-width">
<style>body{background:#111;color:#ddd;font:16px sans-serif;margin:1em}img{max-width:100%%;border:1px solid #444}</style>
</head><body><h1>cantstop camera preview</h1>
<img src="stream.mjpg" alt="the camera's view, with the tray and the dice found drawn in">
<p id="status">%s</p>
<script>setInterval(()=>fetch("status").then(r=>r.text()).then(t=>document.getElementById("status").textContent=t),1000)</script>
</body></html>
`

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		_, status, _ := s.latest()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, page, html.EscapeString(status))
	case "/status":
		_, status, _ := s.latest()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, status)
	case "/frame.jpg":
		jpeg, _, _ := s.latest()
		if jpeg == nil {
			http.Error(w, "no frame yet: is the camera giving frames?", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(jpeg)
	case "/stream.mjpg":
		s.stream(w, r)
	default:
		http.NotFound(w, r)
	}
}

// stream writes each published frame as one part of a multipart/x-mixed-replace
// response until the client goes away.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	const boundary = "cantstopframe"
	w.Header().Set("Content-Type", "multipart/x-mixed-replace; boundary="+boundary)
	w.Header().Set("Cache-Control", "no-store")
	flusher, _ := w.(http.Flusher)
	for {
		jpeg, _, updated := s.latest()
		if jpeg != nil {
			if _, err := fmt.Fprintf(w, "--%s\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", boundary, len(jpeg)); err != nil {
				return
			}
			if _, err := w.Write(append(jpeg[:len(jpeg):len(jpeg)], "\r\n"...)); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
		select {
		case <-updated:
		case <-r.Context().Done():
			return
		}
	}
}

// Serve listens on addr and serves s until ctx ends, streams included (their
// requests share ctx). It returns once listening, with the address it listens
// on; errors after that are logged.
func (s *Server) Serve(ctx context.Context, addr string, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (is another preview running? use --listen with another port)", addr, err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close()
		}
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("preview web page stopped", "err", err)
		}
	}()
	return ln.Addr(), nil
}
