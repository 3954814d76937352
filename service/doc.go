// Package service runs the companion loop as a systemd service (the unit in
// systemd/cantstop.service, Type=notify). It tells systemd when the device is ready and when
// it stops, and feeds the watchdog only while the loop itself answers, so a hung loop gets the
// service restarted instead of a frozen display staying up forever.
//
//	err := service.Run(ctx, companionLoop, service.Systemd, service.Options{
//		Watchdog: service.WatchdogInterval(), Log: log, Status: "playing"})
//	// READY=1 once running, WATCHDOG=1 after every answered Ping, STOPPING=1 at the end
//
// The unit also bounds the service's memory (GOMEMLIMIT, MemoryHigh=256M, MemoryMax=384M);
// its comments give the measurements behind those figures.
package service
