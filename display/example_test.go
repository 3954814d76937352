package display_test

import (
	"fmt"
	"log"
	"os"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/host/v3"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
)

// The OLED on a Raspberry Pi: the first I²C bus, the module at 0x3C.
func ExampleOpenOLED() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("") // "" = the first bus, e.g. /dev/i2c-1
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()

	opts := ssd1306.DefaultOpts // 128×64; set MirrorVertical etc. to match the module
	oled, err := display.OpenOLED(bus, display.DefaultAddr, &opts, display.French)
	if err != nil {
		log.Fatal(err)
	}
	players := []display.Player{{Name: "Anna", Colour: display.Red}, {Name: "Ben", Colour: display.Blue}}
	if err := oled.Show(display.Screen{Kind: display.KindTurn, Players: players, RunnersLeft: 3}); err != nil {
		log.Fatal(err)
	}
}

// The same screen model as text, as the terminal renderer prints it.
func ExampleText() {
	choices := []engine.Choice{
		{Sums: []int{6, 10}, Pairings: []engine.Pairing{0}},
		{Sums: []int{5, 11}, Pairings: []engine.Pairing{1}},
		{Sums: []int{7, 9}, Pairings: []engine.Pairing{2}},
	}
	s := display.Screen{Kind: display.KindChoices, Dice: engine.Dice{1, 5, 4, 6}, Choices: choices, Selected: 1}
	for _, l := range []display.Lang{display.English, display.Russian} {
		text, err := display.Text(s, l)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(text)
	}
	// Output:
	// Choose 1 5 4 6  2/3
	// ───────────────────
	//   6+10
	// > 5+11
	//   7+9
	// Выбор 1 5 4 6  2/3
	// ──────────────────
	//   6+10
	// > 5+11
	//   7+9
}

// Screens as PNG files, four times the OLED's size.
func ExamplePNG() {
	dir, err := os.MkdirTemp("", "screens")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := display.NewPNG(dir, display.German)
	p.Scale = 4
	if err := p.Show(display.Screen{Kind: display.KindOdds, BustRolls: 104}); err != nil {
		log.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	fmt.Println(entries[0].Name())
	// Output: 0001-odds.png
}
