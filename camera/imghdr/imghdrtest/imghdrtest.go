// Package imghdrtest crafts the images that tests of image decoding need:
// well-formed files whose headers claim sizes no decoder should be handed.
package imghdrtest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"

	"github.com/cantstop/cantstop/camera/imghdr"
)

// pngChunk is one PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// HugePNG is a well-formed PNG (valid CRCs, a zlib IDAT holding the first rows,
// all black) whose IHDR claims w x h, 8-bit RGB: OpenCV 4.6 aborts the process
// on 100000x100000.
func HugePNG(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // bit depth 8, colour type RGB
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 64<<10)) // a bytes.Buffer never fails
	zw.Close()
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, pngChunk("IHDR", ihdr)...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

// WithJPEGSize is a copy of jpg whose frame header (SOFn) claims w x h.
func WithJPEGSize(jpg []byte, w, h int) ([]byte, error) {
	out := bytes.Clone(jpg)
	off := 2
	for off+4 < len(out) {
		m, n := out[off+1], int(binary.BigEndian.Uint16(out[off+2:]))
		if imghdr.IsSOF(m) {
			if off+9 > len(out) {
				break
			}
			binary.BigEndian.PutUint16(out[off+5:], uint16(h))
			binary.BigEndian.PutUint16(out[off+7:], uint16(w))
			return out, nil
		}
		off += 2 + n
	}
	return nil, errors.New("no frame header (SOF) in the JPEG")
}
