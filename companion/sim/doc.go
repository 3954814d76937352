// Package sim is the simulated table behind `cantstop play --sim`: dice rolled at random
// (seeded) and drawn as synthetic camera frames that go through the real dice reader, the
// keyboard as the four buttons and the terminal as the display. It runs the same companion
// loop as the device, interactively or, with automatic players, unattended for many games (a
// soak test of reader and loop).
//
//	sum, err := sim.Play(ctx, sim.Config{Seed: 4, Auto: true, Games: 3, Players: 2,
//		StateDir: dir, Lang: display.English, Out: os.Stdout})
//	if err != nil { ... }
//	sum.Write(os.Stdout) // games played, readings, misreads, time per reading
//
// Table rolls and draws the frames (table.go, draw.go); scripts/simframes uses the same
// drawing to make extra training photos for the dice networks.
package sim
