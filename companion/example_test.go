package companion_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// A device wires its buttons, dice reader and display into the loop and
// feeds the systemd watchdog from Ping. Here the keyboard stands in for the
// buttons (the keys "a" then Enter go to "Start" and start the game), there is
// no camera (dice are entered with the buttons) and the display is a terminal.
func Example() {
	dir, _ := os.MkdirTemp("", "companion-example-")
	defer os.RemoveAll(dir)
	keys := hw.NewKeyboard(strings.NewReader("a\r"))
	defer keys.Close()
	var screen strings.Builder
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	c, err := companion.New(companion.Deps{Buttons: keys, Screen: display.NewTerminal(&screen, display.English), Log: log},
		companion.DefaultOptions(dir))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() { // the watchdog: a loop that stops answering is restarted by systemd
		for ctx.Err() == nil {
			if c.Ping(ctx) == nil {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}()
	err = c.Run(ctx) // returns when the keys run out
	fmt.Println(err)
	saved, _ := os.ReadFile(filepath.Join(dir, companion.JournalFile))
	fmt.Println(strings.Count(string(saved), "\n"), "action saved:", strings.Contains(string(saved), `"op":"setup"`))
	// Output:
	// buttons: EOF
	// 1 action saved: true
}
