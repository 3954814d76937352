//go:build opencvlean

package camera

import (
	"slices"
	"strings"
)

// decodedFormats are the imghdr formats the linked OpenCV decodes: the lean
// build of scripts/opencv-lean.sh leaves WebP and TIFF out (WITH_WEBP=OFF,
// WITH_TIFF=OFF), so those are refused with a message instead of failing to decode.
const decodedFormats = "jpeg png bmp pnm"

func decodes(format string) bool { return slices.Contains(strings.Fields(decodedFormats), format) }
