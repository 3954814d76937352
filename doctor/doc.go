// Package doctor checks a device: configuration, groups, saved-game directory, calibration,
// camera, buttons and display, as `cantstop doctor` does. Each check prints one PASS, WARN or
// FAIL line and, when something is wrong, the fix.
//
//	checks := []doctor.Check{
//		doctor.Config(path, found, err),
//		doctor.StateDir("/var/lib/cantstop"),
//		doctor.Camera(spec, openFrames), // also warns of an overexposed frame
//	}
//	rs := doctor.Run(ctx, checks, 15*time.Second, os.Stdout)
//	if doctor.Failures(rs) > 0 { ... }
//
// The checks reach the hardware through small funcs, so they run with fakes in tests.
package doctor
