package display

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"periph.io/x/conn/v3/display/displaytest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/devices/v3/ssd1306"
)

const trafficFile = "ssd1306-0x3d.txt"

// TestOLEDTraffic drives the real ssd1306 driver through OpenOLED at address
// 0x3D: init, the turn screen, then the choices screen (sent as the
// driver's changed-rectangle update).
// The bus traffic must equal testdata/ssd1306-0x3d.txt (recorded with
// -update), and decoding that traffic as the controller would must give
// exactly the images Render draws.
func TestOLEDTraffic(t *testing.T) {
	path := filepath.Join("testdata", trafficFile)
	var want []i2ctest.IO
	if !*update {
		var err error
		if want, err = readTraffic(path); err != nil {
			t.Fatalf("%v (run go test ./display -update to record it)", err)
		}
	}
	play := &i2ctest.Playback{Ops: want, DontPanic: true}
	rec := &i2ctest.Record{}
	if !*update {
		rec.Bus = play
	}
	screens := []Screen{sampleNamed(t, "turn"), sampleNamed(t, "choices")}
	var marks []int // ops sent before each screen
	o, err := OpenOLED(rec, 0x3D, nil, English)
	if err != nil {
		t.Fatalf("open: %v\nsent so far:\n%s", err, formatTraffic(rec.Ops))
	}
	for _, s := range screens {
		marks = append(marks, len(rec.Ops))
		if err := o.Show(s); err != nil {
			t.Fatalf("show %s: %v", s.Kind, err)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(formatTraffic(rec.Ops)), 0o644); err != nil {
			t.Fatal(err)
		}
		want = rec.Ops
	} else if err := play.Close(); err != nil {
		t.Fatalf("traffic: %v", err)
	}

	// Replay the traffic into a model of the controller's memory.
	if marks[0] == 0 || !bytes.HasPrefix(want[0].W, []byte{0x00, 0xAE}) {
		t.Errorf("traffic does not start with the init commands: % x", want[0].W)
	}
	var ram [Width * Height / 8]byte
	for i, s := range screens {
		end := len(want)
		if i+1 < len(marks) {
			end = marks[i+1]
		}
		if err := applyTraffic(ram[:], want[marks[i]:end]); err != nil {
			t.Fatal(err)
		}
		img, _ := Render(s, English)
		if !bytes.Equal(ram[:], img.Pix) {
			t.Errorf("after the %s screen the display memory differs from Render", s.Kind)
		}
	}
	for _, op := range want {
		if op.Addr != 0x3D {
			t.Errorf("sent to %#x, want 0x3d", op.Addr)
		}
	}
}

// applyTraffic executes the ssd1306 commands the driver uses after init
// (page start B0-B7, column low 00-0F, column high 10-1F) and data writes.
func applyTraffic(ram []byte, ops []i2ctest.IO) error {
	page, col := 0, 0
	for _, op := range ops {
		if len(op.W) == 0 {
			return fmt.Errorf("empty write")
		}
		switch op.W[0] {
		case 0x00:
			for _, c := range op.W[1:] {
				switch {
				case c >= 0xB0 && c <= 0xB7:
					page = int(c - 0xB0)
				case c <= 0x0F:
					col = col&0xF0 | int(c)
				case c >= 0x10 && c <= 0x1F:
					col = col&0x0F | int(c-0x10)<<4
				default:
					return fmt.Errorf("unexpected command %#x after init", c)
				}
			}
		case 0x40:
			for _, d := range op.W[1:] {
				ram[page*Width+col] = d
				col++
			}
		default:
			return fmt.Errorf("write starts with control byte %#x", op.W[0])
		}
	}
	return nil
}

// formatTraffic writes one transaction per line: address, then the bytes in hex.
func formatTraffic(ops []i2ctest.IO) string {
	var b strings.Builder
	b.WriteString("# I2C writes of ssd1306 init + the turn and choices screens; go test ./display -update\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "%#02x %s\n", op.Addr, hex.EncodeToString(op.W))
	}
	return b.String()
}

func readTraffic(path string) ([]i2ctest.IO, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []i2ctest.IO
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, w, ok := strings.Cut(line, " ")
		addr, err := strconv.ParseUint(a, 0, 16)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s:%d: want ADDR HEX, got %q", path, n, line)
		}
		data, err := hex.DecodeString(w)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		ops = append(ops, i2ctest.IO{Addr: uint16(addr), W: data})
	}
	return ops, sc.Err()
}

func TestOpenOLEDErrors(t *testing.T) {
	o := ssd1306.DefaultOpts
	o.H = 32
	if _, err := OpenOLED(&i2ctest.Record{}, 0x3C, &o, English); err == nil || !strings.Contains(err.Error(), "128×64") {
		t.Errorf("128×32 opts: %v", err)
	}
	// A bus that answers nothing: the init fails with a hint.
	bus := &i2ctest.Playback{DontPanic: true}
	if _, err := OpenOLED(bus, 0x3C, nil, English); err == nil || !strings.Contains(err.Error(), "i2cdetect") {
		t.Errorf("dead bus: %v", err)
	}
	var _ i2c.Bus = &addrBus{}
}

// TestOLEDDrawer: any 128×64 conn/display.Drawer receives the rendered image.
func TestOLEDDrawer(t *testing.T) {
	d := &displaytest.Drawer{Img: image.NewNRGBA(image.Rect(0, 0, Width, Height))}
	o := NewOLED(d, French)
	s := sampleNamed(t, "bust")
	if err := o.Show(s); err != nil {
		t.Fatal(err)
	}
	img, _ := Render(s, French)
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if on := d.Img.NRGBAAt(x, y).R >= 0x80; on != bool(img.BitAt(x, y)) {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
	small := &displaytest.Drawer{Img: image.NewNRGBA(image.Rect(0, 0, 128, 32))}
	if err := NewOLED(small, English).Show(s); err == nil {
		t.Error("a 128×32 drawer: no error")
	}
}
