package camera

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestZZMis(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, dir := range strings.Fields(os.Getenv("DIRS")) {
		ls, err := loadLabels(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ls {
			if len(p.values) > 6 {
				continue
			}
			img := gocv.IMRead(filepath.Join(dir, p.file), gocv.IMReadColor)
			rd := r.Read(img)
			img.Close()
			got := rd.Values()
			common := intersect(p.values, got)
			tag := "ok"
			switch {
			case rd.Status != StatusRead:
				tag = "unread"
			case common < len(got):
				tag = "MISREAD"
			case !(common == len(p.values) && len(got) == len(p.values) && len(got) == len(rd.Dice)):
				tag = "incompl"
			}
			fmt.Printf("%s %s %s true %v got %v\n", tag, filepath.Base(dir), p.file, p.values, got)
		}
	}
}
