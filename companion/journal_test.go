package companion

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// payload is the deterministic i-th action written by the tests (1-based);
// its length varies so lines cross page and buffer boundaries differently.
func payload(i int) []byte {
	return []byte(fmt.Sprintf(`{"op":"test","i":%d,"pad":%q}`, i, strings.Repeat("x", i*37%300)))
}

func writeJournal(t *testing.T, dir string, n int) []byte {
	t.Helper()
	j, got, rec, err := OpenJournal(dir, nil)
	if err != nil || len(got) != 0 || rec.Damaged() {
		t.Fatalf("open new journal: %v, %d entries, %+v", err, len(got), rec)
	}
	for i := 1; i <= n; i++ {
		if err := j.Append(payload(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func checkPrefix(t *testing.T, got [][]byte) {
	t.Helper()
	for i, g := range got {
		if !bytes.Equal(g, payload(i+1)) {
			t.Fatalf("entry %d = %s, want %s", i+1, g, payload(i+1))
		}
	}
}

func TestJournalRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, 20)
	j, got, rec, err := OpenJournal(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if rec.Damaged() || len(got) != 20 || j.Len() != 20 {
		t.Fatalf("reopen: %d entries, len %d, %+v", len(got), j.Len(), rec)
	}
	checkPrefix(t, got)
	if err := j.Append([]byte("not json")); err == nil {
		t.Fatal("Append accepted a payload that is not JSON")
	}
}

// TestJournalTornTail cuts the file at every byte of its last two lines, as a
// power cut during a write would: each time the journal recovers to the lines
// that were complete, keeps a copy of what it cut, and goes on appending.
func TestJournalTornTail(t *testing.T) {
	src := t.TempDir()
	data := writeJournal(t, src, 6)
	ends := lineEnds(data)
	for cut := ends[3] + 1; cut < len(data); cut++ {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, JournalFile), data[:cut], 0o640); err != nil {
			t.Fatal(err)
		}
		j, got, rec, err := OpenJournal(dir, nil)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		want := completeLines(ends, cut)
		if len(got) != want {
			t.Fatalf("cut at %d: recovered %d entries, want %d", cut, len(got), want)
		}
		checkPrefix(t, got)
		torn := cut != ends[want-1]+1
		if rec.Damaged() != torn {
			t.Fatalf("cut at %d: damaged=%v, want %v (%+v)", cut, rec.Damaged(), torn, rec)
		}
		if torn {
			kept, err := os.ReadFile(rec.Copy)
			if err != nil || !bytes.Equal(kept, data[:cut]) {
				t.Fatalf("cut at %d: copy of damaged file %s differs (%v)", cut, rec.Copy, err)
			}
			if !strings.Contains(rec.Why, "torn") {
				t.Fatalf("cut at %d: why = %q", cut, rec.Why)
			}
		}
		if err := j.Append(payload(want + 1)); err != nil {
			t.Fatal(err)
		}
		j.Close()
		j, got, rec, err = OpenJournal(dir, nil)
		if err != nil || rec.Damaged() || len(got) != want+1 {
			t.Fatalf("cut at %d: after repair and append: %v %+v %d entries", cut, err, rec, len(got))
		}
		checkPrefix(t, got)
		j.Close()
	}
}

// TestJournalCorruptLine flips bytes inside a middle line: the journal keeps
// the lines before it, and the whole damaged file is kept beside it.
func TestJournalCorruptLine(t *testing.T) {
	src := t.TempDir()
	data := writeJournal(t, src, 8)
	ends := lineEnds(data)
	cases := []struct {
		name string
		edit func(b []byte)
		why  string
	}{
		{"flipped payload byte", func(b []byte) { b[ends[3]-5] ^= 0x01 }, "checksum"},
		{"garbage line", func(b []byte) { copy(b[ends[3]+1:], "\x00\x00\x00\x00") }, "not JSON"},
		{"sequence gap", func(b []byte) { copy(b[ends[3]+1:], `{"n":7`) }, "sequence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			bad := bytes.Clone(data)
			c.edit(bad)
			if err := os.WriteFile(filepath.Join(dir, JournalFile), bad, 0o640); err != nil {
				t.Fatal(err)
			}
			j, got, rec, err := OpenJournal(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			wantN := 4
			if c.name == "flipped payload byte" {
				wantN = 3
			}
			if len(got) != wantN || !rec.Damaged() || !strings.Contains(rec.Why, c.why) {
				t.Fatalf("recovered %d entries (want %d), %+v", len(got), wantN, rec)
			}
			checkPrefix(t, got)
			kept, err := os.ReadFile(rec.Copy)
			if err != nil || !bytes.Equal(kept, bad) {
				t.Fatalf("copy %s is not the damaged file: %v", rec.Copy, err)
			}
			if !strings.HasPrefix(filepath.Base(rec.Copy), "journal.corrupt-") {
				t.Fatalf("copy named %s", rec.Copy)
			}
		})
	}
}

func TestJournalArchive(t *testing.T) {
	dir := t.TempDir()
	writeJournal(t, dir, 3)
	j, _, _, err := OpenJournal(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := j.Archive()
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != 0 {
		t.Fatalf("after archive Len = %d", j.Len())
	}
	if err := j.Append(payload(1)); err != nil {
		t.Fatal(err)
	}
	j.Close()
	old, err := os.ReadFile(path)
	if err != nil || len(lineEnds(old)) != 3 {
		t.Fatalf("archived game %s: %v, %d lines", path, err, len(lineEnds(old)))
	}
	_, got, _, err := OpenJournal(dir, nil)
	if err != nil || len(got) != 1 {
		t.Fatalf("new journal: %v, %d entries", err, len(got))
	}
}

func lineEnds(b []byte) []int {
	var ends []int
	for i, c := range b {
		if c == '\n' {
			ends = append(ends, i)
		}
	}
	return ends
}

func completeLines(ends []int, cut int) int {
	n := 0
	for _, e := range ends {
		if e < cut {
			n++
		}
	}
	return n
}

// journalHelperEnv makes the test binary act as a process that appends the
// payload sequence to a journal forever, printing "ack N" after each Append.
const journalHelperEnv = "CANTSTOP_JOURNAL_HELPER"

func journalHelper(dir string) {
	j, got, _, err := OpenJournal(dir, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i, g := range got {
		if !bytes.Equal(g, payload(i+1)) {
			fmt.Fprintf(os.Stderr, "entry %d wrong on resume\n", i+1)
			os.Exit(3)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	for i := len(got) + 1; ; i++ {
		if err := j.Append(payload(i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Fprintf(w, "ack %d\n", i)
		w.Flush()
	}
}

// TestJournalSIGKILL kills a writing process at random moments and checks
// that every restart finds a prefix of the written sequence that holds every
// action the process had acknowledged.
func TestJournalSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 2026))
	acked := 0
	const kills = 40
	for k := 0; k < kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), journalHelperEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acks := make(chan int, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "ack ")); err == nil {
					acks <- n
				}
			}
			close(acks)
		}()
		// Wait for at least one ack so the kill lands mid-stream, then a random while.
		first, ok := <-acks
		if !ok {
			cmd.Wait()
			t.Fatalf("run %d: helper died: %s", k, stderr.String())
		}
		acked = max(acked, first)
		time.Sleep(time.Duration(rng.IntN(20000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for n := range acks {
			acked = max(acked, n)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("run %d: helper was not killed: %v %s", k, err, stderr.String())
		}
		j, got, rec, err := OpenJournal(dir, nil)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", k, err)
		}
		j.Close()
		checkPrefix(t, got)
		if len(got) < acked {
			t.Fatalf("run %d: %d entries after restart, but %d were acknowledged (%+v)", k, len(got), acked, rec)
		}
	}
	t.Logf("%d kills, %d actions acknowledged", kills, acked)
}
