// Package companion is the table companion's game loop: it turns button
// presses and dice readings into engine actions, shows every step on the
// display, and journals each action durably so a game survives a power cut.
//
// The loop talks to the hardware only through small interfaces (Buttons,
// DiceReader, Renderer), so it runs the same on a Raspberry Pi, in the
// simulated table of package sim, and in tests with fakes.
//
// Flow: setup (players, colours, rule options, language) → roll-off for the
// first player → turns until a winner. In a turn, OK reads the dice, the legal
// choices are shown (or the device calls a bust), Prev/Next move the highlight
// and OK confirms; the display then says what to move on the board and the
// chance of busting on the next roll; OK rolls again, STOP banks. A long press
// opens the menu: correct the dice, undo, rules, odds, new game.
package companion
