//go:build matprofile

package calibration

import (
	"bytes"
	"context"
	"testing"

	"gocv.io/x/gocv"
)

// TestRunLeavesNoMat: a whole calibration, its picture closed, leaves no Mat
// alive: go test -tags matprofile ./calibration/
func TestRunLeavesNoMat(t *testing.T) {
	empty, roll := emptyTray(t, trayPhoto), readPhoto(t, trayPhoto)
	defer empty.Close()
	defer roll.Close()
	before := gocv.MatProfile.Count()
	cam := &scene{}
	s := &script{t: t, steps: append([]step{
		{ask: "Take the dice out", act: func() { cam.now = empty }},
		{ask: "Is that the tray?"},
		{ask: "Roll the 4 dice", act: func() { cam.now = roll }}}, append(retries(),
		step{ask: "Are the dice", answer: photoValues(t, trayPhoto)},
		step{ask: "Keep this calibration anyway?", answer: "y", optional: true})...)}
	res, err := Run(context.Background(), cam, s, Options{Rolls: 1})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	// A calibration that fails half way frees what it held too.
	s = &script{t: t, steps: []step{{ask: "Take the dice out", act: func() { cam.now = empty }}, {ask: "Is that the tray?", answer: "q,q"},
		{ask: "Is that the tray?", answer: "x"}, {ask: "Is that the tray?", answer: "-"}}}
	if _, err := Run(context.Background(), cam, s, Options{Rolls: 1}); err == nil {
		t.Error("a calibration with no usable tray box succeeded")
	}
	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats left alive:\n%s", n, b.String())
	}
}
