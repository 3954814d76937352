package hw

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// header is the Raspberry Pi 40-pin header: physical pin → BCM GPIO, for
// the GPIO pins; grounds are listed apart.
var header = map[int]string{
	3: "GPIO2", 5: "GPIO3", 7: "GPIO4", 8: "GPIO14", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27",
	15: "GPIO22", 16: "GPIO23", 18: "GPIO24", 19: "GPIO10", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8",
	26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 35: "GPIO19",
	36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 40: "GPIO21",
}

var grounds = map[int]bool{6: true, 9: true, 14: true, 20: true, 25: true, 30: true, 34: true, 39: true}

// WIRING.md's button table must match DefaultPins and the real header.
func TestWiringDoc(t *testing.T) {
	doc, err := os.ReadFile("WIRING.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (Prev|Next|OK|Stop) +\|[^|]+\| (GPIO\d+) +\| (\d+) +\| (\d+) +\|$`)
	rows := row.FindAllStringSubmatch(string(doc), -1)
	if len(rows) != 4 {
		t.Fatalf("found %d button rows in WIRING.md, want 4", len(rows))
	}
	want := DefaultPins().Names()
	for i, r := range rows {
		if r[1] != Button(i).String() || r[2] != want[i] {
			t.Errorf("row %d is %s on %s, want %v on %s", i, r[1], r[2], Button(i), want[i])
		}
		phys, _ := strconv.Atoi(r[3])
		gnd, _ := strconv.Atoi(r[4])
		if header[phys] != r[2] {
			t.Errorf("%s: physical pin %d is %q on the header, not %s", r[1], phys, header[phys], r[2])
		}
		if !grounds[gnd] {
			t.Errorf("%s: pin %d is not a ground pin", r[1], gnd)
		}
	}
}
