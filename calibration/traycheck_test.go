package calibration

import (
	"image"
	"testing"

	"gocv.io/x/gocv"
)

// TestTrayView: a tray calibrated empty is recognised under a roll of dice, at another
// resolution and when its box was typed in; the same camera moved, another rig's view either
// way and a darker light are each told apart.
func TestTrayView(t *testing.T) {
	calibrated := func(photo string) Tray {
		e := emptyTray(t, photo)
		defer e.Close()
		tr, err := FindTray(e)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tray, board := calibrated(trayPhoto), calibrated(boardPhoto)
	typed := tray // the person calibrating typed a box of their own: the found one is compared
	typed.Box = image.Rect(0, 0, 300, 300)
	old := tray // compared by colour only: here with the board, its place unknown
	old.Found = image.Rectangle{}

	shifted := func(m gocv.Mat) gocv.Mat { // the camera turned: the view slides by a quarter
		out := gocv.NewMat()
		w, h := m.Cols(), m.Rows()
		c := m.Region(image.Rect(w/4, h/6, w, h))
		defer c.Close()
		gocv.Resize(c, &out, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
		return out
	}
	smaller := func(m gocv.Mat) gocv.Mat { // the camera set to another resolution
		out := gocv.NewMat()
		gocv.Resize(m, &out, image.Pt(m.Cols()/2, m.Rows()/2), 0, 0, gocv.InterpolationArea)
		return out
	}
	darker := func(m gocv.Mat) gocv.Mat { // the lamp off: 60% of the light
		out := gocv.NewMat()
		m.ConvertToWithParams(&out, gocv.MatTypeCV8UC3, 0.6, 0)
		return out
	}
	same := func(m gocv.Mat) gocv.Mat { return m.Clone() }

	cases := []struct {
		name       string
		cal        Tray
		photo      string
		change     func(gocv.Mat) gocv.Mat
		moved, rec bool
	}{
		{"the tray under a roll", tray, trayPhoto, same, false, false},
		{"the board under a roll", board, boardPhoto, same, false, false},
		{"at half the resolution", tray, trayPhoto, smaller, false, false},
		{"the camera moved", tray, trayPhoto, shifted, true, false},
		{"another rig", tray, boardPhoto, same, true, false},
		{"another rig, the other way", board, trayPhoto, same, true, false},
		{"a box typed in at calibration", typed, trayPhoto, same, false, false},
		{"a profile made before Found was kept", old, boardPhoto, same, false, false},
		{"a darker light", tray, trayPhoto, darker, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := readPhoto(t, tc.photo)
			defer p.Close()
			f := tc.change(p)
			defer f.Close()
			v, err := tc.cal.View(f)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v: %s", v, v.Problem())
			if v.Moved() != tc.moved || (!tc.moved && v.Recoloured() != tc.rec) {
				t.Errorf("moved %v, recoloured %v; want %v, %v", v.Moved(), v.Recoloured(), tc.moved, tc.rec)
			}
			if (v.Problem() == "") != (!tc.moved && !tc.rec) {
				t.Errorf("problem %q", v.Problem())
			}
		})
	}
}

// TestTrayViewNoTray: a frame with no even surface in the middle says nothing about the tray.
func TestTrayViewNoTray(t *testing.T) {
	noise := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
	tr := Tray{Frame: image.Pt(640, 480), Box: image.Rect(50, 50, 600, 450)}
	if v, err := tr.View(noise); err == nil {
		t.Errorf("a frame of noise: %+v, want an error", v)
	}
}
