package hw_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/cantstop/cantstop/hw"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// On the device: the buttons on the default pins, or the keyboard when the
// user asks for it ([buttons] input = keyboard) or has no Pi.
func ExampleOpen() {
	keyboard := false // from the config: [buttons] input = keyboard
	var (
		b   hw.Buttons
		err error
	)
	if keyboard {
		var k *hw.Keyboard
		if k, err = hw.OpenTerminal(os.Stdin); err == nil {
			fmt.Println(k.Help())
			b = k
		}
	} else {
		b, err = hw.Open(hw.DefaultPins(), hw.DefaultOpts())
	}
	if err != nil {
		log.Fatal(err) // e.g. "hw: GPIO5 (Prev button) not found: ... use the keyboard"
	}
	defer b.Close() // restores the terminal for the keyboard
	for {
		ev, err := b.Next(context.Background())
		if err != nil {
			log.Print(err)
			return
		}
		fmt.Println(ev)
	}
}

// A keyboard over any byte stream, as a script of presses.
func ExampleNewKeyboard() {
	k := hw.NewKeyboard(strings.NewReader("dd\nS"))
	defer k.Close()
	for {
		ev, err := k.Next(context.Background())
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(ev)
	}
	// Output:
	// Next
	// Next
	// OK
	// long Stop
	// EOF
}

// NewGPIO on periph's gpiotest pins: the OK button bounces as it closes and
// opens, and is read as one short press.
func ExampleNewGPIO() {
	var pins [4]*gpiotest.Pin
	var in [4]gpio.PinIn
	for i, name := range hw.DefaultPins().Names() {
		pins[i] = &gpiotest.Pin{N: name, EdgesChan: make(chan gpio.Level)}
		in[i] = pins[i]
	}
	o := hw.DefaultOpts()
	o.LongPress = 5 * time.Second // so a busy machine cannot make this press long
	b, err := hw.NewGPIO(in, o)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	ok := pins[hw.OK]
	for _, l := range []gpio.Level{gpio.Low, gpio.High, gpio.Low, gpio.High, gpio.Low} { // closing, bouncing
		ok.EdgesChan <- l
	}
	time.Sleep(200 * time.Millisecond) // held down

	for _, l := range []gpio.Level{gpio.High, gpio.Low, gpio.High} { // opening, bouncing
		ok.EdgesChan <- l
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ev, err := b.Next(ctx)
	fmt.Println(ev, err)
	b.Close()
	_, err = b.Next(ctx)
	fmt.Println(errors.Is(err, hw.ErrClosed))
	// Output:
	// OK <nil>
	// true
}
