package camera

import "gocv.io/x/gocv"

// OpenCVVersion is the version of the OpenCV library the program runs with,
// for `cantstop version` and bug reports.
func OpenCVVersion() string { return gocv.OpenCVVersion() }
