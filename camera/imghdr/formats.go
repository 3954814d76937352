package imghdr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// jpegSize walks the JPEG's segments to its frame header (SOFn).
func jpegSize(data []byte) (int, int, error) {
	off := 2
	for {
		// A marker: FF, fill FFs, then the code.
		if off >= len(data) || data[off] != 0xFF {
			return 0, 0, errors.New("no frame header (SOF) before the data ends or stops being JPEG")
		}
		for off < len(data) && data[off] == 0xFF {
			off++
		}
		if off >= len(data) {
			return 0, 0, errors.New("cut short before its frame header (SOF)")
		}
		m := data[off]
		off++
		switch {
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7): // no length
			continue
		case m == 0xD8 || m == 0xD9 || m == 0xDA || m == 0x00:
			return 0, 0, fmt.Errorf("marker FF%02X before the frame header (SOF)", m)
		}
		if off+2 > len(data) {
			return 0, 0, errors.New("cut short before its frame header (SOF)")
		}
		n := int(binary.BigEndian.Uint16(data[off:]))
		if n < 2 || off+n > len(data) {
			return 0, 0, fmt.Errorf("segment FF%02X of %d bytes runs past the end", m, n)
		}
		if IsSOF(m) {
			return SOFSize(data[off+2 : off+n])
		}
		off += n
	}
}

// IsSOF reports whether a JPEG marker code is a frame header: C0-CF except
// DHT (C4), JPG (C8) and DAC (CC).
func IsSOF(m byte) bool { return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC }

// SOFSize reads width and height from a SOFn segment's payload (after the length).
func SOFSize(p []byte) (int, int, error) {
	if len(p) < 6 {
		return 0, 0, errors.New("frame header (SOF) too short")
	}
	h := int(binary.BigEndian.Uint16(p[1:]))
	w := int(binary.BigEndian.Uint16(p[3:]))
	if h == 0 {
		return 0, 0, errors.New("frame header gives no height (DNL), which is not read")
	}
	return w, h, nil
}

func pngSize(data []byte) (int, int, error) {
	// Signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
	if len(data) < 24 || string(data[12:16]) != "IHDR" {
		return 0, 0, errors.New("no IHDR chunk after the signature")
	}
	w, h := binary.BigEndian.Uint32(data[16:]), binary.BigEndian.Uint32(data[20:])
	if w > 1<<30 || h > 1<<30 {
		return 0, 0, fmt.Errorf("size %dx%d is not a PNG size", w, h)
	}
	return int(w), int(h), nil
}

func bmpSize(data []byte) (int, int, error) {
	if len(data) < 26 {
		return 0, 0, errors.New("cut short")
	}
	switch dib := binary.LittleEndian.Uint32(data[14:]); {
	case dib == 12: // OS/2 BITMAPCOREHEADER: 16-bit sizes
		return int(binary.LittleEndian.Uint16(data[18:])), int(binary.LittleEndian.Uint16(data[20:])), nil
	case dib >= 40:
		w := int64(int32(binary.LittleEndian.Uint32(data[18:])))
		h := int64(int32(binary.LittleEndian.Uint32(data[22:])))
		if h < 0 { // top-down
			h = -h
		}
		return int(w), int(h), nil
	default:
		return 0, 0, fmt.Errorf("unknown info header of %d bytes", dib)
	}
}

func webpSize(data []byte) (int, int, error) {
	if len(data) < 30 {
		return 0, 0, errors.New("cut short")
	}
	switch string(data[12:16]) {
	case "VP8 ": // lossy: key frame start code, then 14-bit sizes
		if data[23] != 0x9D || data[24] != 0x01 || data[25] != 0x2A {
			return 0, 0, errors.New("VP8 key frame start code missing")
		}
		return int(binary.LittleEndian.Uint16(data[26:]) & 0x3FFF), int(binary.LittleEndian.Uint16(data[28:]) & 0x3FFF), nil
	case "VP8L": // lossless: signature 2F, then 14-bit width-1 and height-1
		if data[20] != 0x2F {
			return 0, 0, errors.New("VP8L signature missing")
		}
		b := binary.LittleEndian.Uint32(data[21:])
		return int(b&0x3FFF) + 1, int(b>>14&0x3FFF) + 1, nil
	case "VP8X": // extended: 24-bit canvas width-1 and height-1
		u24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
		return u24(data[24:]) + 1, u24(data[27:]) + 1, nil
	}
	return 0, 0, fmt.Errorf("unknown chunk %q", data[12:16])
}

func tiffSize(data []byte) (int, int, error) {
	var bo binary.ByteOrder = binary.LittleEndian
	if data[0] == 'M' {
		bo = binary.BigEndian
	}
	if len(data) < 8 {
		return 0, 0, errors.New("cut short")
	}
	off := int64(bo.Uint32(data[4:]))
	if off+2 > int64(len(data)) {
		return 0, 0, errors.New("first directory (IFD) past the end")
	}
	n := int64(bo.Uint16(data[off:]))
	w, h := -1, -1
	for i := int64(0); i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(data)) {
			return 0, 0, errors.New("directory (IFD) runs past the end")
		}
		tag, typ := bo.Uint16(data[e:]), bo.Uint16(data[e+2:])
		var v int
		switch typ {
		case 3: // SHORT
			v = int(bo.Uint16(data[e+8:]))
		case 4: // LONG
			v = int(bo.Uint32(data[e+8:]) & 0x7FFFFFFF)
		default:
			continue
		}
		switch tag {
		case 256:
			w = v
		case 257:
			h = v
		}
	}
	if w < 0 || h < 0 {
		return 0, 0, errors.New("no ImageWidth and ImageLength in the first directory")
	}
	return w, h, nil
}

// pnmSize reads the text header of PBM/PGM/PPM (P1-P6) and PAM (P7).
func pnmSize(data []byte) (int, int, error) {
	off := 2
	if data[1] == '7' {
		var w, h = -1, -1
		for _, ln := range bytes.Split(data[2:min(len(data), 4096)], []byte("\n")) {
			f := bytes.Fields(ln)
			if len(f) == 2 && string(f[0]) == "WIDTH" {
				w = atoiSmall(f[1])
			}
			if len(f) == 2 && string(f[0]) == "HEIGHT" {
				h = atoiSmall(f[1])
			}
			if len(f) >= 1 && string(f[0]) == "ENDHDR" {
				break
			}
		}
		if w < 0 || h < 0 {
			return 0, 0, errors.New("no WIDTH and HEIGHT before ENDHDR")
		}
		return w, h, nil
	}
	var v [2]int
	for i := range v {
		for off < len(data) {
			if c := data[off]; c == '#' {
				for off < len(data) && data[off] != '\n' {
					off++
				}
			} else if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				off++
			} else {
				break
			}
		}
		start := off
		for off < len(data) && data[off] >= '0' && data[off] <= '9' && off-start < 10 {
			off++
		}
		if off == start {
			return 0, 0, errors.New("no width and height")
		}
		v[i] = atoiSmall(data[start:off])
	}
	return v[0], v[1], nil
}

// atoiSmall parses up to 9 decimal digits; -1 if b is not that.
func atoiSmall(b []byte) int {
	if len(b) == 0 || len(b) > 9 {
		return -1
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// JPEGComplete reports whether a JPEG ends with its end-of-image marker (FF D9),
// zero padding after it aside. libjpeg decodes a file cut short without an
// error, grey from the cut on; a camera's or rpicam-vid's image always ends so.
func JPEGComplete(data []byte) bool {
	end := len(data)
	for end > 0 && data[end-1] == 0 {
		end--
	}
	return end >= 4 && data[end-2] == 0xFF && data[end-1] == 0xD9
}
