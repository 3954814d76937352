package config_test

import (
	"fmt"
	"strings"

	"github.com/cantstop/cantstop/config"
)

func ExampleParse() {
	c, err := config.Parse("cantstop.conf", strings.NewReader(`
[display]
address = 0x3D        # this module's jumper is set

[game]
players = ["Ann", "Bob", "Cleo"]
win_columns = 4
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("buttons %v, display 0x%X on %s, players %v, win %d columns\n",
		c.Buttons.Pins(), c.Display.Address, c.Display.I2CDev(), c.Game.Players, c.Game.Rules.WinColumns)
	// Output: buttons [5 6 13 19], display 0x3D on /dev/i2c-1, players [Ann Bob Cleo], win 4 columns
}

func ExampleParse_errors() {
	_, err := config.Parse("cantstop.conf", strings.NewReader(`[buttons]
stpo = 19
[display]
address = 0x3G
`))
	fmt.Println(err)
	// Output:
	// cantstop.conf:2: unknown key "stpo" in [buttons]: did you mean "stop"?; valid keys: input, prev, next, ok, stop, debounce, long_press
	// cantstop.conf:4: [display] address = 0x3G: i2c address is not a number: write it like 0x3C
}
