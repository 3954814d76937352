// Package imghdr reads an image's format and size from its first bytes, without
// decoding it, and holds the limits on what the program decodes. It exists so
// that no oversized image ever reaches OpenCV, which allocates whatever a
// header claims and aborts the process when it cannot; it is pure Go, so its
// parsers (and the MJPEG splitter built on them) can be fuzzed.
//
//	h, err := imghdr.Read(data)
//	if err == nil {
//		err = h.Check()
//	}
package imghdr
