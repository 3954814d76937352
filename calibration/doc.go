// Package calibration fits the dice reader to one rig: the camera, its tray and the game's
// dice. It runs the guided procedure behind `cantstop calibrate` and saves and loads the
// versioned Profile (format Version 4) that `cantstop run` reads the dice with, and keeps the
// dice the players confirm in play (Learner, in the Learnt file of the state directory).
//
//	res, err := calibration.Run(ctx, src, calibration.NewTerminal(os.Stdin, os.Stdout),
//		calibration.Options{Dice: 4, Camera: "v4l2:/dev/video0"})
//	if err != nil { ... }
//	defer res.Close()
//	err = res.Profile.Save(path)                 // path: DefaultPath() unless told
//	p, err := calibration.Load(path)             // later, at start
//	r, err := dice.NewReader(p.ReaderOpts(frameSize)) // after p.Tray.View(frame) found it in place
//
// Run looks at the empty tray, then at a roll of the game's dice, measures the tray and the
// dice's size (from the reader's boxes), asks the person to confirm or correct the tray and the
// values, checks that the resulting reader options (package dice: the dice count Expect and the
// tray's box Tray) read that roll, then asks for more rolls (Options.Rolls in all), each
// confirmed or corrected, whose dice become the profile's Examples (dice.Label) and adapt the
// reader (dice.Reader.Adapt). The empty tray and the confirmed rolls, their dice masked, make
// the rig's dice.Background, kept in the profile. It returns the Profile with a picture of
// what it saw. It looks
// again when the "empty" tray holds dice, and warns when the empty tray is overexposed and
// when dice are under MinSidePx wide.
//
// The reader works without a profile; with one it keeps only the dice whose centre lies in the
// tray. A profile from a newer cantstop, or a damaged one, is refused with an error that says
// how to fix it; one from an older cantstop (versions 1 and 2 held the old pip reader's
// settings, version 3 no examples) loads with those settings dropped, saying which
// (Profile.Upgraded).
package calibration
