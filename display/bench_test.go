package display

import (
	"io"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

// BenchmarkRender: laying out and drawing the choices screen (the one on
// the OK-to-choices path).
func BenchmarkRender(b *testing.B) {
	s := sampleNamed(b, "choices-one")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Render(s, Russian); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOLEDShow: render plus the ssd1306 driver's encoding and I²C
// writes (to a recorder, so without the bus time: 400 kHz adds ~25 ms per
// full frame on a Pi).
func BenchmarkOLEDShow(b *testing.B) {
	rec := &i2ctest.Record{}
	o, err := OpenOLED(rec, DefaultAddr, nil, English)
	if err != nil {
		b.Fatal(err)
	}
	screens := []Screen{sampleNamed(b, "choices"), sampleNamed(b, "choices-one")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rec.Ops = rec.Ops[:0]
		if err := o.Show(screens[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTerminal(b *testing.B) {
	s := sampleNamed(b, "choices-one")
	t := NewTerminal(io.Discard, English)
	for i := 0; i < b.N; i++ {
		if err := t.Show(s); err != nil {
			b.Fatal(err)
		}
	}
}
