// Package preview shows what the camera sees, continuously, while the camera is
// mounted and aimed: each frame with the tray and the dice found drawn in, in
// the terminal (24-bit colour half blocks) and, for a headless Pi, as a small
// local web page with a live MJPEG stream. It only shows: the caller decides
// what to draw on each frame (cantstop camera preview reads the dice into it).
//
//	err := preview.Run(ctx, src, look, preview.Opts{Terminal: os.Stdout, Listen: "127.0.0.1:8080"})
package preview
