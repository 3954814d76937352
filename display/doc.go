// Package display decides what the table companion shows and draws it on the 128×64 OLED,
// a terminal or PNG files. A Screen is plain data: its Kind (setup, roll-off, whose turn, the
// dice, the legal choices, what to move on the board, a stop, a bust, the winner, the chance of
// busting, why a move is refused, the menu, correcting the dice, a status) and the fields that
// kind needs, mostly engine types.
//
//	oled, err := display.OpenOLED(bus, display.DefaultAddr, &ssd1306.DefaultOpts, display.English)
//	if err != nil { ... }
//	err = oled.Show(display.Screen{Kind: display.KindChoices, Dice: d, Choices: engine.Legal(p, d)})
//	img, err := display.Render(s, display.French) // the 1-bit image any renderer draws
//
// Renderers draw a Screen in any of the languages of Languages:
//
//   - OLED: a 128×64 SSD1306 over I²C (periph.io/x/devices/v3/ssd1306),
//     1-bit, five 12 px rows of the bitmapfont face (Latin and Cyrillic);
//   - Terminal: ANSI clear plus plain UTF-8 lines, for an HDMI console or SSH;
//   - PNG: image files of the OLED picture, for tests, docs and the
//     simulated table.
//
// Render reports text wider than the screen, a body too long for it and
// runes the font lacks as errors (after drawing anyway), so the golden tests
// of every screen in every language catch them; `go test ./display -update`
// rewrites the golden files.
//
// Speed (go test ./display -run '^$' -bench . on the 2-core AMD EPYC build
// machine): Render about 70 µs per screen, OLED Show about 190 µs before the
// I²C transfer itself (a full 1 KiB frame takes about 25 ms at 400 kHz).
//
// Renderers are not safe for concurrent use: one goroutine shows screens.
package display
