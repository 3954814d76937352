package calibration

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

const (
	// minTrayOverlap is the least overlap (intersection over union) of the tray seen now with
	// the calibrated one for the same place. On the test photos dice on the tray, another
	// resolution and a darker light keep 0.92 or more; a camera turned by a quarter of the
	// view, or another rig's tray, 0.5-0.63.
	minTrayOverlap = 0.8
	// maxTrayShift is how far (8-bit Lab) the tray's colour may drift with the day's light
	// before TrayView says the light or the tray changed.
	maxTrayShift = 20
)

// TrayView is the calibrated tray compared with the one a frame shows.
type TrayView struct {
	Box     image.Rectangle // the tray found in the frame, frame pixels
	Was     image.Rectangle // the calibrated tray's box, scaled to the frame
	Overlap float64         // intersection over union of Box and Was
	Shift   float64         // Lab distance between the two trays' colours
}

// Moved says the tray is not where it was calibrated: the camera moved, or this is another
// rig. A reader set up for the calibrated tray would leave out dice or learn other dice.
func (v TrayView) Moved() bool { return v.Overlap < minTrayOverlap }

// Recoloured says the tray's colour changed (the light, or another cloth) while its place
// did not.
func (v TrayView) Recoloured() bool { return v.Shift > maxTrayShift }

// Problem describes what changed since calibration, or "" when the tray is as calibrated.
func (v TrayView) Problem() string {
	switch {
	case v.Moved():
		return fmt.Sprintf("the tray is not where it was calibrated (box %v, now %v: %.0f%% overlap): the camera moved or this is another rig", v.Was, v.Box, 100*v.Overlap)
	case v.Recoloured():
		return fmt.Sprintf("the tray's colour changed since calibration (by %.0f): the light or the tray changed", v.Shift)
	}
	return ""
}

// View finds the tray in frame (dice on it do not matter: it is found as FindTray finds the
// empty one) and compares it with the one FindTray found at calibration (t.Found, not a Box
// typed in then). An error means no tray was found, so nothing can be said (a hand over it,
// the camera covered). A profile made before Found was kept is compared by colour only.
func (t Tray) View(frame gocv.Mat) (TrayView, error) {
	now, err := FindTray(frame)
	if err != nil {
		return TrayView{}, err
	}
	v := TrayView{Box: now.Box, Was: now.Box, Overlap: 1, Shift: dist(now.Lab, t.Lab)}
	if !t.Found.Empty() {
		v.Was = scaleRect(t.Found, t.Frame, now.Frame)
		v.Overlap = iou(now.Box, v.Was)
	}
	return v, nil
}

func iou(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	ia := float64(in.Dx() * in.Dy())
	u := float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - ia
	if u <= 0 {
		return 0
	}
	return ia / u
}
