package dice_test

import (
	"fmt"

	"gocv.io/x/gocv"

	"github.com/cantstop/cantstop/dice"
)

func ExampleReader_Read() {
	r, err := dice.NewReader(dice.Opts{Expect: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	frame := gocv.IMRead("testdata/photos/matteop65/four_41.jpg", gocv.IMReadColor)
	defer frame.Close()
	rd := r.Read(frame)
	fmt.Println(rd.Status, rd.Values())
	// Output: read [4 4 4 4 4]
}
