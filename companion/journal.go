package companion

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/engine"
)

// JournalFile is the name of the game in progress inside the state directory.
const JournalFile = "journal.jsonl"

// ArchiveDir holds finished (or abandoned) games, one journal per game.
const ArchiveDir = "games"

// JournalVersion is the journal format this program writes, recorded as "v"
// in the first line. Version 1 had no "v"; version 2 adds it and the range
// checks of checkPayload. OpenJournal upgrades a version 1 journal in place and
// refuses one newer than JournalVersion.
const JournalVersion = 2

// ErrJournalNewer is returned (wrapped) by OpenJournal for a journal written
// by a newer cantstop, whose format this one does not know.
var ErrJournalNewer = errors.New("journal written by a newer cantstop")

// line is one journal line: the entry's JSON as written and its CRC-32
// (IEEE) over exactly those bytes, so a torn or flipped line is detected.
type line struct {
	V   int             `json:"v,omitempty"` // format version: line 1 only
	N   int             `json:"n"`
	CRC uint32          `json:"crc"`
	A   json.RawMessage `json:"a"`
}

// Journal is an append-only log of JSON lines, one action per line. Append
// returns only after the line and (for a new file) the directory entry are
// on disk, so an acknowledged action survives a power cut.
type Journal struct {
	dir  string
	f    journalFile
	n    int   // lines in the file
	size int64 // bytes of those lines: a failed append is cut back to here
	log  *slog.Logger
	now  func() time.Time
	sync bool
}

// journalFile is what the journal does with its open file (an *os.File); the
// crash-consistency test records the writes and fsyncs through it.
type journalFile interface {
	Write(b []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Close() error
	Name() string
}

// Recovery describes what OpenJournal had to repair; the zero value means the
// journal was clean (an upgrade from an older format is not damage).
type Recovery struct {
	Kept    int    // good lines kept
	Dropped int    // bytes after the last good line
	Copy    string // path of the untouched copy of the damaged file
	Why     string // what was wrong with the first bad line
}

// Damaged reports whether anything had to be repaired.
func (r Recovery) Damaged() bool { return r.Copy != "" }

// OpenJournal opens (creating it if needed) the journal in dir and returns the
// payloads of its good lines in order. A torn or corrupted tail is cut off
// after the last good line; the damaged file is first copied to
// journal.corrupt-<time> and a warning is logged, so nothing is lost silently.
func OpenJournal(dir string, log *slog.Logger) (*Journal, [][]byte, Recovery, error) {
	if log == nil {
		log = discardLog()
	}
	j := &Journal{dir: dir, log: log, now: time.Now, sync: true}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, nil, Recovery{}, fmt.Errorf("state directory %s: %w (check it exists and is writable by this user)", dir, err)
	}
	path := filepath.Join(dir, JournalFile)
	data, err := os.ReadFile(path)
	created := errors.Is(err, os.ErrNotExist)
	if err != nil && !created {
		return nil, nil, Recovery{}, fmt.Errorf("read journal: %w", err)
	}
	jd, err := readJournal(data)
	if err != nil {
		return nil, nil, Recovery{}, fmt.Errorf("journal %s: %w", path, err)
	}
	entries, good := jd.entries, jd.good
	var rec Recovery
	// A good prefix in an older format gets the version in its first line; a
	// damaged file is cut back to its good prefix, after a copy of it is kept.
	upgrade := jd.version < JournalVersion && len(entries) > 0
	if good < len(data) || upgrade {
		content := data[:good]
		if upgrade {
			first, err := encodeLine(1, entries[0])
			if err != nil {
				return nil, nil, rec, fmt.Errorf("upgrade journal: %w", err)
			}
			content = append(first, data[jd.first:good]...)
		}
		if good < len(data) {
			rec = Recovery{Kept: len(entries), Dropped: len(data) - good, Why: jd.why}
			if rec.Copy, err = j.keepCopy(data); err != nil {
				return nil, nil, rec, err
			}
		}
		if err := j.replace(path, content); err != nil {
			return nil, nil, rec, err
		}
		if rec.Damaged() {
			log.Warn("journal damaged: recovered to the last good action",
				"kept", rec.Kept, "dropped_bytes", rec.Dropped, "why", rec.Why, "copy", rec.Copy)
		}
		if upgrade {
			log.Info("journal upgraded", "from_version", jd.version, "to_version", JournalVersion, "actions", len(entries))
		}
		good = len(content)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return nil, nil, rec, fmt.Errorf("open journal: %w", err)
	}
	j.f, j.n, j.size = f, len(entries), int64(good)
	if created {
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, nil, rec, err
		}
	}
	return j, entries, rec, nil
}

// journalData is what readJournal finds in a journal file.
type journalData struct {
	entries [][]byte // payloads of the leading good lines
	good    int      // bytes those lines cover
	first   int      // bytes of line 1, if good
	version int      // format version of line 1: 1 when it has none
	why     string   // why the first bad line, if any, was refused
}

// parseJournal returns the payloads of the leading good lines, the byte length
// they cover, and why the first bad line (if any) was refused.
func parseJournal(data []byte) ([][]byte, int, string) {
	jd, err := readJournal(data)
	if err != nil {
		return nil, 0, err.Error()
	}
	return jd.entries, jd.good, jd.why
}

// readJournal reads a journal file's good lines. Its only error is a version
// newer than JournalVersion in line 1: the file is then left as it is.
func readJournal(data []byte) (journalData, error) {
	jd := journalData{version: JournalVersion}
	off := 0
	for off < len(data) {
		n := len(jd.entries) + 1
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			jd.why = fmt.Sprintf("line %d is torn (no newline: a write cut short)", n)
			return jd, nil
		}
		var l line
		if err := json.Unmarshal(data[off:off+nl], &l); err != nil {
			jd.why = fmt.Sprintf("line %d is not JSON: %v", n, err)
			return jd, nil
		}
		if n == 1 {
			switch {
			case l.V > JournalVersion:
				return jd, fmt.Errorf("%w: format version %d, but this cantstop reads versions 1 to %d: update cantstop, or move the file aside to start a new game",
					ErrJournalNewer, l.V, JournalVersion)
			case l.V == 0:
				jd.version = 1 // before versions were written
			case l.V < 2:
				jd.why = fmt.Sprintf("line 1: format version %d is outside 2 to %d (version 1 wrote none)", l.V, JournalVersion)
				return jd, nil
			default:
				jd.version = l.V
			}
		}
		if l.N != n {
			jd.why = fmt.Sprintf("line %d has sequence number %d", n, l.N)
			return jd, nil
		}
		if crc32.ChecksumIEEE(l.A) != l.CRC {
			jd.why = fmt.Sprintf("line %d fails its checksum", n)
			return jd, nil
		}
		if err := checkPayload(l.A); err != nil {
			jd.why = fmt.Sprintf("line %d: %v", n, err)
			return jd, nil
		}
		jd.entries = append(jd.entries, []byte(l.A))
		off += nl + 1
		jd.good = off
		if n == 1 {
			jd.first = off
		}
	}
	return jd, nil
}

// encodeLine is journal line n for payload raw, with its newline.
func encodeLine(n int, raw []byte) ([]byte, error) {
	l := line{N: n, CRC: crc32.ChecksumIEEE(raw), A: raw}
	if n == 1 {
		l.V = JournalVersion
	}
	b, err := json.Marshal(l)
	return append(b, '\n'), err
}

// MaxJournalName is the longest player name a journal holds, in letters: the
// configuration's limit ([game] players).
const MaxJournalName = 16

// checkPayload checks the values of an action against their ranges, as the
// configuration's are checked: a line whose checksum holds but whose values do
// not (a language "xx", a 200-letter name) is refused with the field, the value
// and the range. Ops it does not know are left to the replay.
func checkPayload(p []byte) error {
	var a Action
	if err := json.Unmarshal(p, &a); err != nil {
		return fmt.Errorf("not an action: %v", err)
	}
	inRange := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("%s %d is outside %d to %d", field, v, lo, hi)
		}
		return nil
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if s := a.Setup; s != nil {
		add(inRange("setup.players (count)", len(s.Players), engine.MinPlayers, engine.MaxPlayers))
		for i, pl := range s.Players {
			f := fmt.Sprintf("setup.players[%d]", i)
			switch n := utf8.RuneCountInString(pl.Name); {
			case !utf8.ValidString(pl.Name):
				add(fmt.Errorf("%s.name %q is not UTF-8 text", f, pl.Name))
			case n == 0 || n > MaxJournalName:
				add(fmt.Errorf("%s.name %q has %d letters, outside 1 to %d", f, shorten(pl.Name), n, MaxJournalName))
			case strings.IndexFunc(pl.Name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
				add(fmt.Errorf("%s.name %q has a character that cannot be shown", f, pl.Name))
			}
			add(inRange(f+".colour", int(pl.Colour), int(display.Red), int(display.Black)))
		}
		if !slices.Contains(display.Languages(), s.Lang) {
			add(fmt.Errorf("setup.lang %q is not one of %s", shorten(string(s.Lang)), langList()))
		}
		if err := s.Rules.Validate(); err != nil {
			add(fmt.Errorf("setup.rules: %w", err))
		}
	}
	add(inRange("player", a.Player, 0, engine.MaxPlayers-1))
	lo := 0
	if a.Op == OpRollOff {
		lo = 1
	}
	for i, v := range a.Pair {
		add(inRange(fmt.Sprintf("pair[%d]", i), v, lo, 6))
	}
	lo = 0
	if a.Op == OpMove || a.Op == OpBust {
		lo = 1
	}
	for i, v := range a.Dice {
		add(inRange(fmt.Sprintf("dice[%d]", i), v, lo, 6))
	}
	if len(a.Sums) > 2 {
		add(fmt.Errorf("sums has %d values, at most 2", len(a.Sums)))
	}
	for i, v := range a.Sums {
		add(inRange(fmt.Sprintf("sums[%d]", i), v, engine.MinColumn, engine.MaxColumn))
	}
	if len(a.Steps) > 2*engine.MaxRunners {
		add(fmt.Errorf("steps has %d values, at most %d", len(a.Steps), 2*engine.MaxRunners))
	}
	for i, st := range a.Steps {
		add(inRange(fmt.Sprintf("steps[%d].column", i), st.Column, engine.MinColumn, engine.MaxColumn))
	}
	return errors.Join(errs...)
}

// shorten keeps a refused value readable in a message.
func shorten(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:20]) + "…"
	}
	return s
}

func langList() string {
	var ls []string
	for _, l := range display.Languages() {
		ls = append(ls, string(l))
	}
	return strings.Join(ls, ", ")
}

// keepCopy writes the damaged file, untouched, beside the journal.
func (j *Journal) keepCopy(data []byte) (string, error) {
	stamp := j.now().UTC().Format("20060102T150405.000000000Z")
	cp := filepath.Join(j.dir, "journal.corrupt-"+stamp)
	if err := writeFileSync(cp, data); err != nil {
		return "", fmt.Errorf("keep copy of damaged journal: %w", err)
	}
	return cp, nil
}

// replace atomically replaces the journal with content.
func (j *Journal) replace(path string, content []byte) error {
	tmp := path + ".tmp"
	if err := writeFileSync(tmp, content); err != nil {
		return fmt.Errorf("write repaired journal: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace damaged journal: %w", err)
	}
	return syncDir(j.dir)
}

// Len is the number of actions in the journal.
func (j *Journal) Len() int { return j.n }

// Append writes one action durably: it returns after the line is fsynced.
func (j *Journal) Append(a []byte) error {
	if !json.Valid(a) {
		return fmt.Errorf("journal append: payload is not JSON: %q", a)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, a); err != nil {
		return fmt.Errorf("journal append: %w", err)
	}
	raw := buf.Bytes()
	if err := checkPayload(raw); err != nil {
		return fmt.Errorf("journal append: %w", err)
	}
	b, err := encodeLine(j.n+1, raw)
	if err != nil {
		return fmt.Errorf("journal append: %w", err)
	}
	if _, err := j.f.Write(b); err != nil {
		j.cutBack()
		return fmt.Errorf("journal append %s: %w", j.f.Name(), err)
	}
	if j.sync {
		if err := j.f.Sync(); err != nil {
			j.cutBack()
			return fmt.Errorf("journal sync %s: %w", j.f.Name(), err)
		}
	}
	j.n++
	j.size += int64(len(b))
	return nil
}

// cutBack removes what a failed append may have left (disk full, I/O error),
// so that later actions do not follow a torn line and get cut at the next start.
func (j *Journal) cutBack() {
	if err := j.f.Truncate(j.size); err != nil {
		j.log.Error("journal: cannot cut back a failed append", "err", err)
	}
}

// Archive moves the current journal to games/<time>.jsonl and starts an empty
// one. It is how a finished or abandoned game is put away.
func (j *Journal) Archive() (string, error) {
	arch := filepath.Join(j.dir, ArchiveDir)
	if err := os.MkdirAll(arch, 0o750); err != nil {
		return "", fmt.Errorf("archive directory: %w", err)
	}
	if err := j.f.Close(); err != nil {
		return "", fmt.Errorf("close journal: %w", err)
	}
	dst := filepath.Join(arch, j.now().UTC().Format("20060102T150405.000000000Z")+".jsonl")
	src := filepath.Join(j.dir, JournalFile)
	if err := os.Rename(src, dst); err != nil {
		return "", fmt.Errorf("archive journal: %w", err)
	}
	if err := syncDir(arch); err != nil {
		return "", err
	}
	f, err := os.OpenFile(src, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return "", fmt.Errorf("new journal: %w", err)
	}
	j.f, j.n, j.size = f, 0, 0
	return dst, syncDir(j.dir)
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes a created, renamed or removed directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
