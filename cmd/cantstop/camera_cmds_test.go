package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCameraPreview: the web page of camera preview shows the reading of a
// real photo, on a loopback address, until the command is stopped.
func TestCameraPreview(t *testing.T) {
	photo := filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "five_12.jpg")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	root := newRootCmd()
	var errOut syncBuffer
	root.SetOut(io.Discard)
	root.SetErr(&errOut)
	root.SetArgs([]string{"camera", "preview", "--camera", "file:" + photo, "--no-terminal", "--listen", "127.0.0.1:0", "--interval", "0.05"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	addr := regexp.MustCompile(`preview: http://(127\.0\.0\.1:\d+)/`)
	var m []string
	for m == nil && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		m = addr.FindStringSubmatch(errOut.String())
	}
	if m == nil {
		t.Fatalf("no address announced: %q", errOut.String())
	}
	var status string
	for ctx.Err() == nil && !strings.HasPrefix(status, "read") {
		r, err := http.Get("http://" + m[1] + "/status")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		status = string(b)
	}
	if !strings.HasPrefix(status, "read [5 5]") {
		t.Errorf("status %q, want the photo's two 5s read", status)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("preview ended with %v after cancel", err)
	}
}

// A device set up without a camera says how to name one.
func TestCameraPreviewNoCamera(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "cantstop.conf")
	if err := os.WriteFile(conf, []byte("[camera]\nsource = none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := calibrateCLI(t, "", "camera", "preview", "--config", conf, "--no-terminal")
	if err == nil || !strings.Contains(err.Error(), "source = none: name the camera to aim with --camera") {
		t.Errorf("preview with no camera: %v", err)
	}
}
