package calibration_test

import (
	"fmt"
	"image"
	"os"
	"path/filepath"

	"github.com/cantstop/cantstop/calibration"
)

// A saved profile gives the reader options for whatever frame size the
// camera delivers now.
func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "cantstop")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "calibration.json")
	os.WriteFile(path, []byte(`{
  "version": 3,
  "tray": {"frame": {"X": 640, "Y": 480}, "outline": [{"X": 40, "Y": 30}, {"X": 600, "Y": 30}, {"X": 600, "Y": 450}],
           "box": {"Min": {"X": 40, "Y": 30}, "Max": {"X": 600, "Y": 450}}},
  "dice": {"count": 4, "side_px": 36},
  "reader": {"expect": 4, "tray": {"Min": {"X": 40, "Y": 30}, "Max": {"X": 600, "Y": 450}}}
}`), 0o644)
	p, err := calibration.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := p.ReaderOpts(image.Pt(1280, 960))
	fmt.Println(o.Expect, o.Tray)

	os.WriteFile(path, []byte(`{"version": 7}`), 0o644)
	_, err = calibration.Load(path)
	fmt.Println(err != nil)
	// Output:
	// 4 (80,60)-(1200,900)
	// true
}
