//go:build matprofile

package dice

import (
	"bytes"
	"testing"

	"gocv.io/x/gocv"
)

// TestAdaptLeavesNoMat adapts to a rig's examples and reads with the rig's head, and checks
// that no Mat is left alive: go test -tags matprofile -run LeavesNoMat ./dice/
func TestAdaptLeavesNoMat(t *testing.T) {
	r, err := NewReader(Opts{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	before := gocv.MatProfile.Count()
	ex, rest := rigExamples(t, r, "nell-byler", 24)
	if a, err := r.Adapt(ex); err != nil || !a.Used {
		t.Fatalf("adapt: %+v, %v", a, err)
	}
	img := readPhoto(t, rest[0].file)
	r.Read(img)
	img.Close()
	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats left alive:\n%s", n, b.String())
	}
}
