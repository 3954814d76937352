// Package dicebench scores the dice reader (package dice) on folders of labelled photos, as
// `cantstop dice bench` does. Each folder has a labels.csv (file,values) and, when the dice's
// boxes are known, a boxes.csv (file,value,x0,y0,x1,y1).
//
//	r, _ := dice.NewReader(dice.Opts{})
//	rep, err := dicebench.Bench(ctx, []string{"dice/testdata/photos/nell-byler"}, r,
//		dicebench.BenchOpts{MaxDice: 6})
//	// rep.Total: photos read exactly, misread, unreadable; median and p95 time
//
// Each photo is read once, or changed first as another rig would change it
// (BenchOpts.Vary, see Variations), or settled over frames of sensor noise as the companion
// reads a still tray (BenchOpts.Settle), or cut through each die (BenchCuts).
// BENCHMARKS-dice.md records the figures.
package dicebench
