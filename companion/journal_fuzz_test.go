package companion

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzJournal feeds arbitrary files to the journal reader: it never panics,
// what it keeps passes the value checks and reads back the same on its own
// (so a repair is final), and the replay of what it keeps fails cleanly or not at all.
// Seeds: journals written by the tests and the recorded roll-off games of testdata.
func FuzzJournal(f *testing.F) {
	var seed bytes.Buffer
	for i := 1; i <= 4; i++ {
		b, _ := encodeLine(i, payload(i))
		seed.Write(b)
	}
	f.Add(seed.Bytes())
	f.Add(seed.Bytes()[:seed.Len()-7])
	if data, err := os.ReadFile(filepath.Join("testdata", "rolloff-journals.json")); err == nil {
		var games []struct{ Lines []json.RawMessage }
		if json.Unmarshal(data, &games) == nil {
			for _, g := range games[:min(len(games), 8)] {
				var b bytes.Buffer
				for i, l := range g.Lines {
					var c bytes.Buffer
					json.Compact(&c, l)
					line, _ := encodeLine(i+1, c.Bytes())
					b.Write(line)
				}
				f.Add(b.Bytes())
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jd, err := readJournal(data)
		if err != nil {
			return // a newer version: refused as a whole
		}
		if jd.good > len(data) || (jd.good < len(data)) != (jd.why != "") {
			t.Fatalf("good %d of %d bytes, why %q", jd.good, len(data), jd.why)
		}
		again, err := readJournal(data[:jd.good])
		if err != nil || again.why != "" || len(again.entries) != len(jd.entries) {
			t.Fatalf("the good prefix does not read back clean: %v %q", err, again.why)
		}
		for i, p := range jd.entries {
			if err := checkPayload(p); err != nil {
				t.Fatalf("entry %d kept but refused: %v", i+1, err)
			}
		}
		_, _ = load(jd.entries)
	})
}
