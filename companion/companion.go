package companion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// Companion runs one device's games. Build it with New, run it with Run;
// Ping tells a watchdog whether the loop still turns.
type Companion struct {
	deps  Deps
	opts  Options
	log   *slog.Logger
	j     *Journal
	t     table
	lang  display.Lang
	pings chan chan struct{}
	evs   chan buttonEvent
	// camFails counts dice reader errors in a row.
	camFails int
	// fromCamera says the roll awaiting a choice is the camera's last reading, as read or
	// corrected: playing it confirms that reading (Learner).
	fromCamera bool
	// recovered says the journal had to be repaired when it was opened.
	recovered Recovery
}

type buttonEvent struct {
	ev  hw.Event
	err error
}

// errBack is how a press that leaves a screen without acting is reported
// between the loop's steps; Run never returns it.
var errBack = errors.New("back")

// New opens the journal in opts.StateDir and replays the game in progress, if
// any, so that Run resumes exactly where the last action left it.
func New(deps Deps, opts Options) (*Companion, error) {
	if deps.Buttons == nil || deps.Screen == nil {
		return nil, fmt.Errorf("companion: Deps.Buttons and Deps.Screen are required")
	}
	if opts.StateDir == "" {
		return nil, fmt.Errorf("companion: Options.StateDir is required (the directory where games are saved)")
	}
	deps.Dice = noTypedNil(deps.Dice)
	def := DefaultOptions(opts.StateDir)
	if opts.Lang == "" {
		opts.Lang = def.Lang
	}
	if len(opts.Players) == 0 {
		opts.Players = def.Players
	}
	if opts.Rules.WinColumns == 0 {
		opts.Rules = def.Rules
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = def.ReadTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Log
	if log == nil {
		log = deps.Log
	}
	if log == nil {
		log = discardLog()
	}
	j, payloads, rec, err := OpenJournal(opts.StateDir, log)
	if err != nil {
		return nil, fmt.Errorf("companion: %w", err)
	}
	t, err := load(payloads)
	if err != nil {
		// The file is intact but does not replay (e.g. written by another
		// engine version): keep it aside and start afresh rather than refuse to run.
		path, aerr := j.Archive()
		if aerr != nil {
			j.Close()
			return nil, fmt.Errorf("companion: saved game does not replay (%v) and could not be put aside: %w", err, aerr)
		}
		log.Error("saved game does not replay: put aside, starting a new game", "err", err, "kept", path)
		t = table{}
		rec.Why, rec.Copy = err.Error(), path
	}
	c := &Companion{deps: deps, opts: opts, log: log, j: j, t: t, lang: opts.Lang,
		pings: make(chan chan struct{}), recovered: rec}
	if t.setup != nil {
		c.lang = t.setup.Lang
		log.Info("resuming saved game", "actions", len(t.actions), "journal_lines", j.Len())
	}
	return c, nil
}

// Close closes the journal. The game in progress stays on disk.
func (c *Companion) Close() error { return c.j.Close() }

// Ping returns once the loop goroutine has answered, which it does between
// events; a loop that is stuck never answers and ctx ends the wait.
func (c *Companion) Ping(ctx context.Context) error {
	reply := make(chan struct{})
	select {
	case c.pings <- reply:
	case <-ctx.Done():
		return fmt.Errorf("companion loop did not answer: %w", ctx.Err())
	}
	select {
	case <-reply:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("companion loop did not answer: %w", ctx.Err())
	}
}

// Run plays games until ctx ends or the buttons fail.
func (c *Companion) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.evs = make(chan buttonEvent)
	go c.pump(ctx)
	if c.recovered.Damaged() || c.recovered.Why != "" {
		c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusError,
			Detail: "saved game repaired: " + c.recovered.Why + " (copy: " + c.recovered.Copy + ")"})
		if _, err := c.next(ctx); err != nil {
			return c.end(ctx, err)
		}
	}
	if len(c.t.actions) > 0 {
		c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusResumed,
			Detail: fmt.Sprintf("%d actions", len(c.t.actions))})
	}
	for {
		if err := c.step(ctx); err != nil && !errors.Is(err, errBack) {
			return c.end(ctx, err)
		}
	}
}

func (c *Companion) end(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// record journals an action durably and applies it. Nothing is shown as done
// before record returns nil.
func (c *Companion) record(a Action) error {
	a.At = c.opts.Now().UTC()
	probe := c.t
	if err := probe.apply(a); err != nil {
		return fmt.Errorf("refused %w", err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("encode action: %w", err)
	}
	if err := c.j.Append(b); err != nil {
		c.show(display.Screen{Kind: display.KindStatus, Status: display.StatusSaveFailed, Detail: err.Error()})
		return fmt.Errorf("save %s: %w", a.Op, err)
	}
	c.t = probe
	c.log.Info("action", "op", a.Op, "player", a.Player, "dice", a.Dice, "sums", a.Sums)
	return nil
}

// show renders a screen in the game's language; a display error is logged,
// not fatal: the game goes on and is saved.
func (c *Companion) show(s display.Screen) {
	if s.Lang == "" {
		s.Lang = c.lang
	}
	if s.Players == nil && c.t.setup != nil {
		s.Players = c.players()
	}
	if err := c.deps.Screen.Show(s); err != nil {
		c.log.Error("display", "kind", s.Kind.String(), "err", err)
	}
}

// players are the seats with the columns each owns now.
func (c *Companion) players() []display.Player {
	ps := make([]display.Player, len(c.t.setup.Players))
	for i, p := range c.t.setup.Players {
		ps[i] = display.Player{Name: p.Name, Colour: p.Colour}
		if c.t.started {
			ps[i].Claimed = c.t.pos.Claimed(i)
		}
	}
	return ps
}

// noTypedNil is d, or nil for a nil *CameraReader (no camera), which must not look like one.
func noTypedNil(d DiceReader) DiceReader {
	if cr, ok := d.(*CameraReader); ok && cr == nil {
		return nil
	}
	return d
}
