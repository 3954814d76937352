package camera_test

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/camera"
)

// Read one photo with no calibration, expecting a single die.
func ExampleReader_Read() {
	img := gocv.IMRead("testdata/dice/tai-studio/eyes_5_3.jpg", gocv.IMReadColor)
	defer img.Close()
	o := camera.DefaultReaderOpts()
	o.Expect = 1
	rd := camera.NewReader(o).Read(img)
	fmt.Println(rd.Status, rd.Values())
	// Output: read [5]
}

// A reading that is not trustworthy says why instead of guessing.
func ExampleReader_Read_wrongCount() {
	img := gocv.IMRead("testdata/dice/nell-byler/IMG_20191208_112600.jpg", gocv.IMReadColor)
	defer img.Close()
	o := camera.DefaultReaderOpts()
	o.Expect = 4
	rd := camera.NewReader(o).Read(img)
	fmt.Println(rd.Status, rd.Values(), rd.Why)
	// Output: wrong count [3] found 1 dice, expected 4
}
