package preview

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"
)

// Server serves the latest annotated frame as a web page: / shows it live
// (MJPEG in an <img>) with the reading under it, /stream.mjpg is the stream,
// /frame.jpg the latest frame and /status the reading as text.
//
// It answers GET over a small HTTP/1.1 responder on package net, one request
// a connection, rather than net/http: the service runs the same binary, and
// net/http's initialisation alone added 2.5 MB to its peak RSS.
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

// Serve listens on addr and serves s until ctx ends, streams included. It
// returns once listening, with the address it listens on; errors after that
// are logged.
func (s *Server) Serve(ctx context.Context, addr string, log *slog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (is another preview running? use --listen with another port)", addr, err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				if ctx.Err() == nil {
					log.Error("preview web page stopped", "err", err)
				}
				return
			}
			go s.handle(ctx, conn)
		}
	}()
	return ln.Addr(), nil
}

// handle answers one request on conn, then closes it.
func (s *Server) handle(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReaderSize(conn, 4096)
	method, path, err := readRequest(r)
	if err != nil {
		respond(conn, "400 Bad Request", "text/plain; charset=utf-8", []byte(err.Error()+"\n"))
		return
	}
	conn.SetReadDeadline(time.Time{})
	if method != "GET" && method != "HEAD" {
		respond(conn, "405 Method Not Allowed", "text/plain; charset=utf-8", []byte("only GET\n"))
		return
	}
	jpeg, status, _ := s.latest()
	switch path {
	case "/":
		respond(conn, "200 OK", "text/html; charset=utf-8", fmt.Appendf(nil, page, html.EscapeString(status)))
	case "/status":
		respond(conn, "200 OK", "text/plain; charset=utf-8", []byte(status+"\n"))
	case "/frame.jpg":
		if jpeg == nil {
			respond(conn, "503 Service Unavailable", "text/plain; charset=utf-8", []byte("no frame yet: is the camera giving frames?\n"))
			return
		}
		respond(conn, "200 OK", "image/jpeg", jpeg)
	case "/stream.mjpg":
		s.stream(ctx, conn, r)
	default:
		respond(conn, "404 Not Found", "text/plain; charset=utf-8", []byte("not found: the page is /\n"))
	}
}

// readRequest reads the request line and skips the headers (at most 64 lines).
func readRequest(r *bufio.Reader) (method, path string, err error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return "", "", fmt.Errorf("no request line: %w", err)
	}
	f := strings.Fields(line)
	if len(f) != 3 || !strings.HasPrefix(f[2], "HTTP/1.") {
		return "", "", fmt.Errorf("malformed request line %q", strings.TrimSpace(line))
	}
	for i := 0; ; i++ {
		h, err := r.ReadString('\n')
		if err != nil || i == 64 {
			return "", "", fmt.Errorf("headers cut short or too many")
		}
		if strings.TrimSpace(h) == "" {
			break
		}
	}
	path, _, _ = strings.Cut(f[1], "?")
	return f[0], path, nil
}

func respond(w io.Writer, status, contentType string, body []byte) {
	fmt.Fprintf(w, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
		status, contentType, len(body))
	w.Write(body)
}

// stream writes each published frame as one part of a multipart/x-mixed-replace
// response until the client goes away or ctx ends.
func (s *Server) stream(ctx context.Context, conn net.Conn, r *bufio.Reader) {
	const boundary = "cantstopframe"
	gone := make(chan struct{})
	go func() { // the client sends nothing more: a read returns when it closes
		io.Copy(io.Discard, r)
		close(gone)
	}()
	fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=%s\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n", boundary)
	for {
		jpeg, _, updated := s.latest()
		if jpeg != nil {
			conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := fmt.Fprintf(conn, "--%s\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", boundary, len(jpeg)); err != nil {
				return
			}
			if _, err := conn.Write(append(jpeg[:len(jpeg):len(jpeg)], "\r\n"...)); err != nil {
				return
			}
		}
		select {
		case <-updated:
		case <-gone:
			return
		case <-ctx.Done():
			return
		}
	}
}
