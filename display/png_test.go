package display

import (
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPNGScaleAndNames(t *testing.T) {
	dir := t.TempDir()
	p := NewPNG(dir, Italian)
	p.Scale = 3
	if err := p.Show(sampleNamed(t, "dice")); err != nil {
		t.Fatal(err)
	}
	if err := p.Save("winner", sampleNamed(t, "winner")); err != nil {
		t.Fatal(err)
	}
	if err := p.Show(sampleNamed(t, "bust")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001-dice.png", "winner.png", "0002-bust.png"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 3*Width || b.Dy() != 3*Height {
			t.Errorf("%s is %v, want %dx%d", name, b, 3*Width, 3*Height)
		}
	}
	err := NewPNG(filepath.Join(dir, "missing"), English).Show(sampleNamed(t, "dice"))
	if err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("missing folder: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestTerminalWriteError(t *testing.T) {
	err := NewTerminal(failWriter{}, English).Show(sampleNamed(t, "turn"))
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("got %v", err)
	}
}

// TestPNGDistinct: with Distinct, a screen drawn again (the same pixels) is not
// written twice; a changed one is.
func TestPNGDistinct(t *testing.T) {
	dir := t.TempDir()
	p := NewPNG(dir, English)
	p.Distinct = true
	for _, name := range []string{"dice", "bust", "dice", "bust", "menu"} {
		if err := p.Show(sampleNamed(t, name)); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	if strings.Join(files, " ") != "0001-dice.png 0002-bust.png 0003-menu.png" {
		t.Errorf("files %v, want each distinct screen once", files)
	}
}
