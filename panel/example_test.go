package panel_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
	"github.com/cantstop/cantstop/panel"
)

// shown prints the screens a Panel shows, as a display would show them.
type shown struct{}

func (shown) Show(s display.Screen) error {
	if s.Kind == display.KindCorrect {
		fmt.Println("dice", s.Dice, "highlighted", s.Selected)
	} else {
		fmt.Println(strings.TrimSpace(fmt.Sprint("status ", s.Status, " ", s.Detail)))
	}
	return nil
}

// The keyboard stands in for the buttons: Enter is OK, → is Next, s is STOP.
func Example() {
	keys := hw.NewKeyboard(strings.NewReader("\n" + "s" + "l" + "\n\n"))
	defer keys.Close()
	p := panel.New(keys, shown{}, io.Discard)
	ctx := context.Background()

	ans, _ := p.Ask(ctx, calibration.Question{Kind: calibration.AskRoll})
	fmt.Printf("rolled: %q\n", ans)
	// The four dice as read: STOP goes back to the last, Next turns its 5 into a 6, OK on it
	// and on "use these dice".
	ans, _ = p.Ask(ctx, calibration.Question{Kind: calibration.AskValues, Dice: []int{2, 3, 5, 5}})
	fmt.Printf("values: %q\n", ans)
	// Output:
	// status 11
	// rolled: ""
	// dice [2 3 5 5] highlighted 4
	// dice [2 3 5 5] highlighted 3
	// dice [2 3 5 6] highlighted 3
	// dice [2 3 5 6] highlighted 4
	// values: "2 3 5 6"
}
