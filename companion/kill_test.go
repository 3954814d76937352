package companion

import (
	"bufio"
	"bytes"
	"encoding/json"
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

	"github.com/cantstop/cantstop/engine"
)

// gameHelperEnv makes the test binary play random games into a journal in
// the given directory, the way the loop records them, printing "ack N JSON"
// once action N is durable.
const gameHelperEnv = "CANTSTOP_GAME_HELPER"

// randomAction picks a legal next action for t: setup, first player,
// moves, busts, stops, and now and then an undo.
func randomAction(rng *rand.Rand, t *table) Action {
	if t.setup == nil {
		n := 2 + rng.IntN(3)
		rules := engine.DefaultRules()
		rules.NoStopOnOccupied = rng.IntN(2) == 0
		return Action{Op: OpSetup, Setup: &GameSetup{Players: DefaultPlayers(n), Rules: rules, Lang: "en"}}
	}
	if len(t.actions) > 1 && rng.IntN(12) == 0 {
		return Action{Op: OpUndo}
	}
	if !t.started {
		if rng.IntN(3) == 0 {
			return Action{Op: OpFirst, Player: rng.IntN(len(t.setup.Players))}
		}
		return Action{Op: OpRollOff, Player: t.roll.roller(), Pair: [2]int{1 + rng.IntN(6), 1 + rng.IntN(6)}}
	}
	if ok, _ := t.pos.CanStop(); ok && rng.IntN(3) == 0 {
		return Action{Op: OpStop}
	}
	d := engine.Dice{1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6), 1 + rng.IntN(6)}
	cs := engine.Legal(t.pos, d)
	if len(cs) == 0 {
		return Action{Op: OpBust, Dice: d}
	}
	c := cs[rng.IntN(len(cs))]
	return Action{Op: OpMove, Dice: d, Runner: &c.Runners, Sums: c.Sums, Steps: c.Steps}
}

func gameHelper(dir string) {
	j, payloads, _, err := OpenJournal(dir, nil)
	if err == nil {
		var t table
		t, err = load(payloads)
		if err == nil {
			w := bufio.NewWriter(os.Stdout)
			rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
			for {
				if t.setup != nil && t.started && t.pos.Over() {
					if _, err = j.Archive(); err != nil {
						break
					}
					t = table{}
					fmt.Fprintf(w, "archived\n")
					w.Flush()
				}
				a := randomAction(rng, &t)
				b, _ := json.Marshal(a)
				if err = t.apply(a); err != nil {
					break
				}
				if err = j.Append(b); err != nil {
					break
				}
				fmt.Fprintf(w, "ack %d %s\n", j.Len(), b)
				w.Flush()
			}
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}

// TestSIGKILLResume plays random games in a child process, kills it with
// SIGKILL at random moments and checks at every restart that the journal
// replays and holds every acknowledged action, exactly as acknowledged.
func TestSIGKILLResume(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	acked := map[int]string{} // line number -> payload, for the game in progress
	const kills = 40
	total := 0
	for k := 0; k < kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), gameHelperEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 4096)
		go func() {
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<16), 1<<20)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		record := func(l string) {
			if l == "archived" {
				acked = map[int]string{}
				return
			}
			f := strings.SplitN(l, " ", 3)
			n, _ := strconv.Atoi(f[1])
			acked[n] = f[2]
			total++
		}
		first, ok := <-lines
		if !ok {
			cmd.Wait()
			t.Fatalf("run %d: helper died: %s", k, stderr.String())
		}
		record(first)
		deadline := time.After(time.Duration(rng.IntN(30000)) * time.Microsecond)
	drain:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break drain
				}
				record(l)
			case <-deadline:
				break drain
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines {
			record(l)
		}
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("run %d: helper was not killed: %s", k, stderr.String())
		}
		j, payloads, rec, err := OpenJournal(dir, nil)
		if err != nil {
			t.Fatalf("run %d: reopen: %v", k, err)
		}
		j.Close()
		if rec.Damaged() {
			t.Logf("run %d: recovered: %+v", k, rec)
		}
		if _, err := load(payloads); err != nil {
			t.Fatalf("run %d: journal does not replay: %v", k, err)
		}
		if len(acked) > len(payloads) {
			// Killed between archiving a won game and saying so: the
			// acknowledged actions must be in the newest archived game.
			games, _ := filepath.Glob(filepath.Join(dir, ArchiveDir, "*.jsonl"))
			if len(games) == 0 {
				t.Fatalf("run %d: %d actions acknowledged, journal has %d and no game archived", k, len(acked), len(payloads))
			}
			data, _ := os.ReadFile(games[len(games)-1])
			payloads, _, _ = parseJournal(data)
			acked2 := acked
			acked = map[int]string{}
			for n, p := range acked2 {
				if n > len(payloads) || string(payloads[n-1]) != p {
					t.Fatalf("run %d: acknowledged action %d lost (journal and archive)", k, n)
				}
			}
			continue
		}
		for n, p := range acked {
			if n > len(payloads) {
				t.Fatalf("run %d: action %d was acknowledged but the journal has %d", k, n, len(payloads))
			}
			if string(payloads[n-1]) != p {
				t.Fatalf("run %d: action %d is %s, acknowledged %s", k, n, payloads[n-1], p)
			}
		}
	}
	t.Logf("%d kills, %d actions acknowledged", kills, total)
}
