//go:build !opencvlean

package camera

import (
	"slices"
	"strings"
)

// decodedFormats are the imghdr formats the linked OpenCV decodes: Debian's
// OpenCV reads them all.
const decodedFormats = "jpeg png bmp webp tiff pnm"

func decodes(format string) bool { return slices.Contains(strings.Fields(decodedFormats), format) }
