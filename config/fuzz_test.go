package config

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse: Parse never panics; a file it accepts is in range (Validate), and
// Format writes it back to a file that parses to the same configuration.
// Seeds: the test files of testdata and the shipped file.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.conf"))
	for _, p := range append(paths, filepath.Join("..", "systemd", FileName)) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("[buttons]\nprev = 6\nok = 40\n[game]\nplayers = [\"Ann\", 'Bob']\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.conf", bytes.NewReader(data))
		if err != nil {
			if _, ok := err.(Errors); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("accepted, but out of range: %v", err)
		}
		again, err := Parse("again.conf", bytes.NewReader([]byte(Format(c))))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("Format does not round-trip: %v\n%+v\n%+v", err, c, again)
		}
	})
}
