// Package companion is the table companion's game loop: it turns button presses and dice
// readings into engine actions, shows every step on the display, and journals each action
// durably so a game survives a power cut. `cantstop run` and `cantstop play --sim` both run it.
//
//	dr := companion.NewCameraReader(src, reader) // camera.Source + *dice.Reader (nil Dice: enter by buttons)
//	c, err := companion.New(companion.Deps{Buttons: buttons, Dice: dr, Screen: oled, Log: log},
//		companion.DefaultOptions(stateDir))
//	if err != nil { ... }
//	defer c.Close()
//	err = c.Run(ctx) // resumes the saved game, then plays until ctx ends
//
// The loop talks to the hardware only through small interfaces (Buttons,
// DiceReader, Renderer), so it runs the same on a Raspberry Pi, in the
// simulated table of package sim, and in tests with fakes. CameraReader is
// the DiceReader over a camera: it settles with dice.Settle and maps the
// dice package's Reading to a DiceResult.
//
// Flow: setup (players, colours, rule options, language) → roll-off for the
// first player → turns until a winner. In a turn, OK reads the dice, the legal
// choices are shown (or the device calls a bust), Prev/Next move the highlight
// and OK confirms; the display then says what to move on the board and the
// chance of busting on the next roll; OK rolls again, STOP banks. A long press
// opens the menu: correct the dice, undo, rules, odds, new game.
//
// The journal (journal.go) holds one JSON action per line, each written and
// fsynced before it is shown as done, with the format version (JournalVersion)
// in its first line: an older journal is upgraded in place, a newer one refused.
package companion
