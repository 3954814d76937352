//go:build matprofile

package dice

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestSettleLeavesNoMat reads, annotates and settles (moving frames, then still ones averaged,
// and noisy still frames) and checks that no Mat is left alive:
// go test -tags matprofile -run LeavesNoMat ./dice/
func TestSettleLeavesNoMat(t *testing.T) {
	r := settleReader(t)
	before := gocv.MatProfile.Count()
	for _, f := range []string{"tai-studio/eyes_1_1.jpg", "matteop65/dice_34.jpg", "nell-byler/IMG_20191208_112600.jpg"} {
		img := settlePhoto(t, f)
		a := Annotate(img, r.Read(img))
		a.Close()
		if _, err := Settle(context.Background(), &noisyFrames{img: img, n: 8}, r, SettleOpts{Window: 5, Agree: 3}); err != nil && !errors.Is(err, io.EOF) {
			t.Fatal(err)
		}
		img.Close()
	}
	src := newListSource(t, filepath.Join("testdata", "photos", "matteop65", "four_41.jpg"), 2, 5)
	if _, err := Settle(context.Background(), src, r, DefaultSettleOpts()); err != nil {
		t.Fatal(err)
	}
	src.Close()
	if n := gocv.MatProfile.Count() - before; n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats left alive:\n%s", n, b.String())
	}
}
