// Package sim is the simulated table: dice rolled at random (seeded) and
// drawn as synthetic camera frames that go through the real dice reader, the
// keyboard as the four buttons and the terminal as the display. It runs the
// same companion loop as the device, interactively or, with an automatic
// player, unattended for many games (a soak test of reader and loop).
package sim
