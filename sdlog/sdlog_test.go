package sdlog

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestJournalPrefixes(t *testing.T) {
	var b bytes.Buffer
	log := New(&b, slog.LevelDebug, true).With("component", "camera")
	log.Debug("frame", "n", 3)
	log.Info("ready")
	log.Warn("camera slow", "ms", 250)
	log.Error("camera failed", "err", "open /dev/video0: no such file\nsecond line")
	log.WithGroup("gpio").Info("pins", "ok", 13)
	want := []string{
		`<7>msg=frame component=camera n=3`,
		`<6>msg=ready component=camera`,
		`<4>msg="camera slow" component=camera ms=250`,
		`<3>msg="camera failed" component=camera err="open /dev/video0: no such file\nsecond line"`,
		`<6>msg=pins component=camera gpio.ok=13`,
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), strings.Join(want, "\n"))
	}
}

func TestLevelFilterAndPlainText(t *testing.T) {
	var b bytes.Buffer
	log := New(&b, slog.LevelWarn, false)
	log.Info("hidden")
	log.Warn("shown")
	if s := b.String(); strings.Contains(s, "hidden") || !strings.Contains(s, "level=WARN msg=shown") || strings.HasPrefix(s, "<") {
		t.Fatalf("plain output %q", s)
	}
}

func TestPriority(t *testing.T) {
	for l, want := range map[slog.Level]int{slog.LevelDebug - 4: 7, slog.LevelDebug: 7, slog.LevelInfo: 6,
		slog.LevelInfo + 2: 6, slog.LevelWarn: 4, slog.LevelError: 3, slog.LevelError + 8: 3} {
		if got := Priority(l); got != want {
			t.Errorf("Priority(%v) = %d, want %d", l, got, want)
		}
	}
}

func TestUnderJournal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stream"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	st := fi.Sys().(*syscall.Stat_t)
	stream := fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	if !UnderJournal(stream, f) {
		t.Errorf("matching JOURNAL_STREAM %s not recognised", stream)
	}
	for _, bad := range []string{"", "x", fmt.Sprintf("%d:%d", st.Dev, st.Ino+1), "1:y"} {
		if UnderJournal(bad, f) {
			t.Errorf("JOURNAL_STREAM %q taken as the journal", bad)
		}
	}
}
