// Package calibration fits the dice reader to one rig: a guided procedure
// (Run) looks at the empty tray, then at a roll of the game's dice, measures
// the tray, the dice and their pips, asks the person to confirm or correct
// what it read, checks that the resulting reader options read that roll, and
// returns a versioned Profile to save in the configuration directory, with a
// picture of what it saw.
//
// The reader works without a profile; with one it searches only the tray and
// knows the tray's colour and the contrast to expect (the dice's size it
// estimates from each frame, which reads more photos than a fixed one). A
// profile from a newer cantstop, or a damaged one, is refused with an error
// that says how to fix it.
package calibration
