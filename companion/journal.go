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
	"time"
)

// JournalFile is the name of the game in progress inside the state directory.
const JournalFile = "journal.jsonl"

// ArchiveDir holds finished (or abandoned) games, one journal per game.
const ArchiveDir = "games"

// line is one journal line: the entry's JSON as written and its CRC-32
// (IEEE) over exactly those bytes, so a torn or flipped line is detected.
type line struct {
	N   int             `json:"n"`
	CRC uint32          `json:"crc"`
	A   json.RawMessage `json:"a"`
}

// Journal is an append-only log of JSON lines, one action per line. Append
// returns only after the line and (for a new file) the directory entry are
// on disk, so an acknowledged action survives a power cut.
type Journal struct {
	dir  string
	f    *os.File
	n    int   // lines in the file
	size int64 // bytes of those lines: a failed append is cut back to here
	log  *slog.Logger
	now  func() time.Time
	sync bool
}

// Recovery describes what OpenJournal had to repair; the zero value means the
// journal was clean.
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
	entries, good, why := parseJournal(data)
	var rec Recovery
	if good < len(data) {
		rec = Recovery{Kept: len(entries), Dropped: len(data) - good, Why: why}
		rec.Copy, err = j.repair(path, data, good)
		if err != nil {
			return nil, nil, rec, err
		}
		log.Warn("journal damaged: recovered to the last good action",
			"kept", rec.Kept, "dropped_bytes", rec.Dropped, "why", why, "copy", rec.Copy)
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

// parseJournal returns the payloads of the leading good lines, the byte length
// they cover, and why the first bad line (if any) was refused.
func parseJournal(data []byte) ([][]byte, int, string) {
	var out [][]byte
	off := 0
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			return out, off, fmt.Sprintf("line %d is torn (no newline: a write cut short)", len(out)+1)
		}
		var l line
		if err := json.Unmarshal(data[off:off+nl], &l); err != nil {
			return out, off, fmt.Sprintf("line %d is not JSON: %v", len(out)+1, err)
		}
		if l.N != len(out)+1 {
			return out, off, fmt.Sprintf("line %d has sequence number %d", len(out)+1, l.N)
		}
		if crc32.ChecksumIEEE(l.A) != l.CRC {
			return out, off, fmt.Sprintf("line %d fails its checksum", len(out)+1)
		}
		out = append(out, []byte(l.A))
		off += nl + 1
	}
	return out, off, ""
}

// repair keeps a copy of the damaged file and atomically replaces the journal
// with its good prefix.
func (j *Journal) repair(path string, data []byte, good int) (string, error) {
	stamp := j.now().UTC().Format("20060102T150405.000000000Z")
	cp := filepath.Join(j.dir, "journal.corrupt-"+stamp)
	if err := writeFileSync(cp, data); err != nil {
		return "", fmt.Errorf("keep copy of damaged journal: %w", err)
	}
	tmp := path + ".tmp"
	if err := writeFileSync(tmp, data[:good]); err != nil {
		return cp, fmt.Errorf("write repaired journal: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return cp, fmt.Errorf("replace damaged journal: %w", err)
	}
	return cp, syncDir(j.dir)
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
	b, err := json.Marshal(line{N: j.n + 1, CRC: crc32.ChecksumIEEE(raw), A: raw})
	if err != nil {
		return fmt.Errorf("journal append: %w", err)
	}
	b = append(b, '\n')
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
