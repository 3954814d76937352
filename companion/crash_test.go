package companion

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cantstop/cantstop/display"
)

// fileOp is one thing the journal did to its file: a write at an offset, or
// an fsync.
type fileOp struct {
	sync bool
	off  int
	data []byte
}

// memFile is a journal file held in memory that records every write and fsync.
type memFile struct {
	data []byte
	ops  []fileOp
}

func (f *memFile) Write(b []byte) (int, error) {
	f.ops = append(f.ops, fileOp{off: len(f.data), data: bytes.Clone(b)})
	f.data = append(f.data, b...)
	return len(b), nil
}
func (f *memFile) Sync() error { f.ops = append(f.ops, fileOp{sync: true}); return nil }
func (f *memFile) Truncate(n int64) error {
	f.data = f.data[:n]
	return nil
}
func (f *memFile) Close() error { return nil }
func (f *memFile) Name() string { return "mem:" + JournalFile }

// recordGame plays one random game to its end through a Journal whose file is
// a memFile, and returns the file's operations and the acknowledged payloads
// (those whose Append returned) in order.
func recordGame(t *testing.T, rng *rand.Rand) ([]fileOp, [][]byte) {
	t.Helper()
	j, _, _, err := OpenJournal(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	j.f.Close()
	mf := &memFile{}
	j.f = mf
	var tbl table
	var acked [][]byte
	langs := display.Languages()
	for len(acked) < 1000 && !(tbl.started && tbl.pos.Over()) {
		a := randomAction(rng, &tbl)
		if a.Op == OpSetup { // two players: short games, so that the test stays quick
			a.Setup.Players = DefaultPlayers(2)
			a.Setup.Lang = langs[rng.IntN(len(langs))]
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := tbl.apply(a); err != nil {
			t.Fatalf("random action %s: %v", b, err)
		}
		if err := j.Append(b); err != nil {
			t.Fatal(err)
		}
		acked = append(acked, b)
	}
	return mf.ops, acked
}

// powerCuts rebuilds the file as a power cut after the k-th fsync may leave it
// (k = 0: before the first): what was written before that fsync is on disk; of
// the write after it, which nothing has acknowledged, any part may be there.
// Append does one write and one fsync per action and returns only after the
// fsync, so at most one write is ever unsynced. The variants: nothing of it;
// a prefix cut at a random byte; the file's new size without its data (zeros);
// its 512-byte sectors landed out of order (a random subset, the rest zeros)
// and cut at a random length; all of it; and stale garbage in its place.
func powerCuts(rng *rand.Rand, ops []fileOp, k int) [][]byte {
	var durable []byte
	var next *fileOp
	syncs := 0
	for i := range ops {
		op := &ops[i]
		if op.sync {
			syncs++
			continue
		}
		if syncs < k {
			durable = append(durable[:op.off], op.data...)
		} else if next == nil {
			next = op
		}
	}
	files := [][]byte{bytes.Clone(durable)}
	if next == nil {
		return files
	}
	w := next.data
	with := func(tail []byte) []byte { return append(bytes.Clone(durable), tail...) }
	files = append(files,
		with(w[:1+rng.IntN(len(w)-1)]),
		with(make([]byte, len(w))),
		with(w))
	sectors := bytes.Clone(w)
	for s := 0; s < len(w); {
		end := min(len(w), (next.off+s)/512*512+512-next.off) // up to the next sector boundary
		if rng.IntN(2) == 0 {
			clear(sectors[s:end])
		}
		s = end
	}
	files = append(files, with(sectors[:1+rng.IntN(len(sectors))]))
	garbage := make([]byte, 1+rng.IntN(len(w)))
	for i := range garbage {
		garbage[i] = byte(rng.IntN(256))
		if rng.IntN(40) == 0 {
			garbage[i] = '\n'
		}
	}
	return append(files, with(garbage))
}

// TestJournalPowerCut is a crash-consistency test in the manner of SQLite's:
// it records every write and fsync of the journal over whole random games,
// rebuilds the file as a power cut would leave it at every fsync boundary (see
// powerCuts), and checks that each rebuilt file loads, replays, and holds every
// action acknowledged before the cut, exactly as acknowledged. Every 97th one
// is also opened on disk, repaired, appended to and reopened.
func TestJournalPowerCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 5))
	cuts, lost, unloadable, onDisk := 0, 0, 0, 0
	for game := 0; cuts < 10_000; game++ {
		ops, acked := recordGame(t, rng)
		// Replaying is checked once per number of actions kept: the actions
		// kept are checked to be the acknowledged ones, byte for byte.
		replays := map[int]error{}
		replay := func(n int) error {
			if err, ok := replays[n]; ok {
				return err
			}
			_, err := load(acked[:n])
			replays[n] = err
			return err
		}
		syncs := 0
		for _, op := range ops {
			if op.sync {
				syncs++
			}
		}
		if syncs != len(acked) {
			t.Fatalf("game %d: %d fsyncs for %d acknowledged actions", game, syncs, len(acked))
		}
		for k := 0; k <= syncs; k++ {
			for _, file := range powerCuts(rng, ops, k) {
				cuts++
				jd, err := readJournal(file)
				if err != nil {
					unloadable++
					t.Errorf("game %d, cut after fsync %d: %v", game, k, err)
					continue
				}
				got := jd.entries
				if len(got) < k {
					lost += k - len(got)
					t.Errorf("game %d, cut after fsync %d: %d actions kept, %d acknowledged (%s)", game, k, len(got), k, jd.why)
				}
				for i, p := range got {
					if i >= len(acked) || !bytes.Equal(p, acked[i]) {
						t.Fatalf("game %d, cut after fsync %d: action %d is %s, not what was written", game, k, i+1, p)
					}
				}
				if err := replay(len(got)); err != nil {
					unloadable++
					t.Errorf("game %d, cut after fsync %d: does not replay: %v", game, k, err)
				}
				if cuts%97 == 0 {
					onDisk++
					checkOnDisk(t, file, got, acked)
				}
			}
		}
	}
	t.Logf("%d power-cut points (%d also opened on disk): %d acknowledged actions lost, %d files that do not load", cuts, onDisk, lost, unloadable)
}

// checkOnDisk opens a rebuilt file as the program would after the power came
// back: it is repaired to the same actions, takes the next one, and reopens clean.
func checkOnDisk(t *testing.T, file []byte, want, acked [][]byte) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, JournalFile), file, 0o640); err != nil {
		t.Fatal(err)
	}
	j, got, _, err := OpenJournal(dir, nil)
	if err != nil || len(got) != len(want) {
		t.Fatalf("on disk: %v, %d actions, want %d", err, len(got), len(want))
	}
	if len(got) < len(acked) {
		if err := j.Append(acked[len(got)]); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	_, again, rec, err := OpenJournal(dir, nil)
	if err != nil || rec.Damaged() || len(again) != min(len(want)+1, len(acked)) {
		t.Fatalf("on disk, after repair and append: %v %+v %d actions", err, rec, len(again))
	}
	if _, err := load(again); err != nil {
		t.Fatalf("on disk, after repair and append: does not replay: %v", err)
	}
}
