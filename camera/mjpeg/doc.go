// Package mjpeg cuts a Motion-JPEG stream (rpicam-vid --codec mjpeg -o -) into
// whole JPEG images, skipping damaged or cut-off bytes and refusing images
// whose frame header claims a size over package imghdr's limits. It is pure Go,
// so its parser can be fuzzed (FuzzSplitter).
//
//	s := mjpeg.NewSplitter(stdout, 64<<20)
//	for {
//		img, err := s.Next()
//		if err != nil {
//			break // io.EOF, io.ErrUnexpectedEOF or the pipe's error
//		}
//		decode(img)
//	}
package mjpeg
