package calibration

import (
	"encoding/csv"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// The test photos (testdata/README.md): a real dice tray seen from above
// and a roll on a plain board, with the photographer's boxes and values.
const (
	trayPhoto  = "IMG_20191208_112833.jpg" // grey felt tray inside a black frame on a white board
	boardPhoto = "IMG_20191209_100620.jpg" // white board filling the view
)

type box struct {
	value int
	r     image.Rectangle
}

// photoBoxes reads testdata/boxes.csv for one photo.
func photoBoxes(t testing.TB, photo string) []box {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "boxes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []box
	for _, r := range rows[1:] {
		if r[0] != photo {
			continue
		}
		var n [5]int
		for i := range n {
			if n[i], err = strconv.Atoi(r[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, box{n[0], image.Rect(n[1], n[2], n[3], n[4])})
	}
	return out
}

// photoValues reads the sorted values of one photo from testdata/labels.csv.
func photoValues(t testing.TB, photo string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f, v, ok := strings.Cut(line, ","); ok && f == photo {
			return v
		}
	}
	t.Fatalf("%s not in labels.csv", photo)
	return ""
}

func readPhoto(t testing.TB, photo string) gocv.Mat {
	t.Helper()
	m := gocv.IMRead(filepath.Join("testdata", photo), gocv.IMReadColor)
	if m.Empty() {
		t.Fatalf("cannot read testdata/%s", photo)
	}
	return m
}

// emptyTray makes the "empty tray" picture of a roll photo: no photo of these
// trays without dice exists, so each die's box (grown by a third) is painted
// over with the median colour of a ring of tray just outside it. This is a
// synthetic frame, made only from the photo and its boxes.
func emptyTray(t testing.TB, photo string) gocv.Mat {
	t.Helper()
	m := readPhoto(t, photo)
	bounds := image.Rect(0, 0, m.Cols(), m.Rows())
	for _, b := range photoBoxes(t, photo) {
		g := b.r.Dx() / 6
		inner := b.r.Inset(-g).Intersect(bounds)
		outer := inner.Inset(-6).Intersect(bounds)
		var cs [][3]float64
		for y := outer.Min.Y; y < outer.Max.Y; y++ {
			for x := outer.Min.X; x < outer.Max.X; x++ {
				if !image.Pt(x, y).In(inner) {
					v := m.GetVecbAt(y, x)
					cs = append(cs, [3]float64{float64(v[0]), float64(v[1]), float64(v[2])})
				}
			}
		}
		c := medianLab(cs) // per-channel median (here of BGR)
		gocv.Rectangle(&m, inner, color.RGBA{uint8(c[2]), uint8(c[1]), uint8(c[0]), 0}, -1)
	}
	return m
}
