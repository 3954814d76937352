package companion

import (
	"bytes"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// craftLine is journal line n for payload with a valid checksum, carrying
// version v (0: none, as version 1 wrote it).
func craftLine(t testing.TB, v, n int, payload string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(payload)); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(line{V: v, N: n, CRC: crc32.ChecksumIEEE(buf.Bytes()), A: buf.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

const setupEN = `{"op":"setup","at":"2026-01-02T15:04:05Z","setup":{"players":[{"Name":"Ann","Colour":0},{"Name":"Bob","Colour":1}],"rules":{"win_columns":3},"lang":"en"}}`

func TestJournalWritesVersion(t *testing.T) {
	dir := t.TempDir()
	data := writeJournal(t, dir, 3)
	lines := strings.SplitAfter(string(data), "\n")
	if !strings.HasPrefix(lines[0], `{"v":2,"n":1,`) {
		t.Fatalf("line 1 = %s, want the version first", lines[0])
	}
	for _, l := range lines[1:3] {
		if strings.Contains(l, `"v":`) {
			t.Fatalf("a later line carries the version: %s", l)
		}
	}
}

// TestJournalUpgrade: a version 1 journal (no "v") is read, and its first
// line rewritten with the version; the other lines are kept byte for byte.
func TestJournalUpgrade(t *testing.T) {
	dir := t.TempDir()
	old := craftLine(t, 0, 1, string(payload(1))) + craftLine(t, 0, 2, string(payload(2))) + craftLine(t, 0, 3, string(payload(3)))
	path := filepath.Join(dir, JournalFile)
	if err := os.WriteFile(path, []byte(old), 0o640); err != nil {
		t.Fatal(err)
	}
	j, got, rec, err := OpenJournal(dir, nil)
	if err != nil || rec.Damaged() || len(got) != 3 {
		t.Fatalf("open version 1: %v %+v %d entries", err, rec, len(got))
	}
	checkPrefix(t, got)
	if err := j.Append(payload(4)); err != nil {
		t.Fatal(err)
	}
	j.Close()
	now, _ := os.ReadFile(path)
	first, rest, _ := strings.Cut(old, "\n")
	want := craftLine(t, 2, 1, string(payload(1))) + rest + craftLine(t, 0, 4, string(payload(4)))
	if string(now) != want {
		t.Fatalf("upgraded file:\n%s\nwant:\n%s\n(old line 1: %s)", now, want, first)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "journal.corrupt-*")); len(m) != 0 {
		t.Fatalf("an upgrade kept a damaged copy: %v", m)
	}
}

// TestJournalNewer: a journal from a newer format is refused, naming both
// versions, and left untouched.
func TestJournalNewer(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, JournalFile)
	data := craftLine(t, 3, 1, setupEN) + "a line of version 3 this version cannot read\n"
	if err := os.WriteFile(path, []byte(data), 0o640); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := OpenJournal(dir, nil)
	if !errors.Is(err, ErrJournalNewer) || !strings.Contains(err.Error(), "format version 3") || !strings.Contains(err.Error(), "versions 1 to 2") {
		t.Fatalf("open version 3: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != data {
		t.Fatal("a newer journal was changed")
	}
}

// TestJournalValues: a line whose checksum holds but whose values are out of
// range is refused at Append and cut off (with a copy kept) at open, with a
// message naming the field, the value and the range.
func TestJournalValues(t *testing.T) {
	if err := checkPayload([]byte(setupEN)); err != nil {
		t.Fatalf("the valid setup is refused: %v", err)
	}
	long := strings.Repeat("A", 200)
	cases := []struct {
		name, payload string
		want          []string
	}{
		{"language xx", strings.Replace(setupEN, `"lang":"en"`, `"lang":"xx"`, 1),
			[]string{`setup.lang "xx" is not one of en, it, fr, ru, nl, es, de`}},
		{"200-letter name", strings.Replace(setupEN, `"Bob"`, `"`+long+`"`, 1),
			[]string{"setup.players[1].name", "has 200 letters, outside 1 to 16"}},
		{"empty name", strings.Replace(setupEN, `"Bob"`, `""`, 1), []string{"setup.players[1].name", "0 letters"}},
		{"control character in a name", strings.Replace(setupEN, `"Bob"`, `"B\u0007b"`, 1), []string{"cannot be shown"}},
		{"colour 12", strings.Replace(setupEN, `"Colour":1`, `"Colour":12`, 1), []string{"setup.players[1].colour 12 is outside 0 to 7"}},
		{"one player", strings.Replace(setupEN, `,{"Name":"Bob","Colour":1}`, ``, 1), []string{"setup.players (count) 1 is outside 2 to 4"}},
		{"win columns 9", strings.Replace(setupEN, `"win_columns":3`, `"win_columns":9`, 1), []string{"setup.rules"}},
		{"roll-off die 7", `{"op":"rolloff","player":1,"pair":[3,7]}`, []string{"pair[1] 7 is outside 1 to 6"}},
		{"player 9", `{"op":"first","player":9}`, []string{"player 9 is outside 0 to 3"}},
		{"move die 0", `{"op":"move","dice":[1,2,0,4]}`, []string{"dice[2] 0 is outside 1 to 6"}},
		{"sum 13", `{"op":"move","dice":[6,6,6,6],"sums":[12,13]}`, []string{"sums[1] 13 is outside 2 to 12"}},
		{"two errors at once", strings.Replace(strings.Replace(setupEN, `"lang":"en"`, `"lang":"xx"`, 1), `"Colour":0`, `"Colour":-1`, 1),
			[]string{"setup.players[0].colour -1", `setup.lang "xx"`}},
		{"not an object", `[1,2,3]`, []string{"not an action"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, JournalFile)
			good := craftLine(t, 2, 1, string(payload(1))) + craftLine(t, 0, 2, string(payload(2)))
			bad := good + craftLine(t, 0, 3, c.payload) + craftLine(t, 0, 4, string(payload(4)))
			if err := os.WriteFile(path, []byte(bad), 0o640); err != nil {
				t.Fatal(err)
			}
			j, got, rec, err := OpenJournal(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if len(got) != 2 || !rec.Damaged() || !strings.HasPrefix(rec.Why, "line 3: ") {
				t.Fatalf("recovered %d entries, %+v", len(got), rec)
			}
			for _, w := range c.want {
				if !strings.Contains(rec.Why, w) {
					t.Errorf("why %q lacks %q", rec.Why, w)
				}
			}
			if now, _ := os.ReadFile(path); string(now) != good {
				t.Errorf("repaired file:\n%s\nwant:\n%s", now, good)
			}
			if kept, _ := os.ReadFile(rec.Copy); string(kept) != bad {
				t.Errorf("copy %s is not the damaged file", rec.Copy)
			}
			err = j.Append([]byte(c.payload))
			if err == nil {
				t.Fatal("Append accepted it")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Append error %q lacks %q", err, w)
				}
			}
		})
	}
}
