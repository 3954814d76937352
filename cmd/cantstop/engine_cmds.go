package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/engine"
	"github.com/spf13/cobra"
)

// engineCmds returns the rules commands: moves and odds.
func engineCmds() []*cobra.Command {
	return []*cobra.Command{newMovesCmd(), newOddsCmd()}
}

const engPositionHelp = `POSITION is the one-line notation PLAYERS:TURN:PIECES:RUNNERS:OPTIONS (docs/NOTATION.md). The
notation counts players from 0; the text says P1, P2, ... as the device does:
  2:0                          new two-player game, P1 to move
  2:1:7@4/7@5:6@1,10@1         P2 to move; pieces 7@4 (P1's) and 7@5 (P2's);
                               runners on space 1 of columns 6 and 10
  3:0:12@3//:2@1:w4,forced     P1 owns column 12; three players, 4 columns win, forced placement
Options: w3 w4 w5 (columns to win), skip (skip_occupied), nostop (no_stop_on_occupied), forced (forced_placement).`

func newMovesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "moves POSITION DICE",
		Short: "List the legal choices for a roll, and why every other pairing or sum is not allowed",
		Long: "moves settles disputes at the table: it says whether the mover may stop now, lists every legal choice\n" +
			"for the four dice (what each does on the board), then each pairing or sum that cannot be used, with the\n" +
			"rule that forbids it.\n\n" +
			engPositionHelp + "\n\nDICE are four values 1-6: 1546, \"1 5 4 6\", 1 5 4 6 or 1,5,4,6.",
		Example: `  cantstop moves 2:0 1546
  cantstop moves 2:0::6@1,10@1 2 4 3 5
  cantstop moves 2:0:10@7/6@11,8@11 2,4,4,6
  cantstop moves --json 2:0::6@1,10@1:forced 1546`,
		Args:              cobra.RangeArgs(2, 5),
		ValidArgsFunction: cobra.NoFileCompletions, // positions and dice are typed, not files
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := engine.ParsePosition(args[0])
			if err != nil {
				return err
			}
			d, err := engine.ParseDice(strings.Join(args[1:], " "))
			if err != nil {
				return err
			}
			a := engine.Explain(p, d)
			if asJSON {
				ok, why := engStopRuling(p)
				return engWriteJSON(cmd.OutOrStdout(), engMovesJSON{Position: p, Dice: d, Stop: engStopJSON{ok, why},
					Bust: a.Bust(), Choices: a.Choices, Refusals: a.Refusals})
			}
			engWriteMoves(cmd.OutOrStdout(), p, d, a)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: position, dice, stop {allowed, why}, bust, choices, refusals")
	return cmd
}

type engMovesJSON struct {
	Position engine.Position `json:"position"`
	Dice     engine.Dice     `json:"dice"`
	Stop     engStopJSON     `json:"stop"` // may the mover stop now instead of rolling

	Bust     bool             `json:"bust"`
	Choices  []engine.Choice  `json:"choices"`
	Refusals []engine.Refusal `json:"refusals"`
}

type engStopJSON struct {
	Allowed bool   `json:"allowed"`
	Why     string `json:"why"`
}

func newOddsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "odds POSITION|COLUMN...",
		Short: "Exact chance that the next roll busts",
		Long: "odds counts, among the 1296 ordered rolls of four dice, those that bust. Given a POSITION it uses the\n" +
			"mover's turn state (runners placed and left, runners on a top space, claimed columns); given plain\n" +
			"COLUMN numbers it counts the rolls that can use none of those columns (as with three runners placed).\n\n" +
			engPositionHelp + "\n\nWith --json the fields are success (rolls that can be used), bust (the rest) and p_bust.",
		Example: `  cantstop odds 6 7 8
  cantstop odds 2:0::6@1,7@1,8@3
  cantstop odds --json 2 12`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			o, what, err := engOddsFor(args)
			if err != nil {
				return err
			}
			if asJSON {
				return engWriteJSON(cmd.OutOrStdout(), engOddsJSON{Success: o.Success, Bust: o.Bust, PBust: o.P()})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\nbust: %d of %d rolls (%.2f%%); %d rolls can be used\n",
				what, o.Bust, engine.Rolls, 100*o.P(), o.Success)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"success":N,"bust":N,"p_bust":P}`)
	return cmd
}

type engOddsJSON struct {
	Success int     `json:"success"`
	Bust    int     `json:"bust"`
	PBust   float64 `json:"p_bust"`
}

// engOddsFor reads either a list of columns or one position.
func engOddsFor(args []string) (engine.Odds, string, error) {
	if _, err := strconv.Atoi(args[0]); err != nil || len(args) > 1 {
		if len(args) == 1 {
			p, err := engine.ParsePosition(args[0])
			if err != nil {
				return engine.Odds{}, "", err
			}
			return engine.BustOdds(p), engDescribePosition(p), nil
		}
	}
	cols := make([]int, 0, len(args))
	seen := map[int]bool{}
	for _, a := range args {
		c, err := strconv.Atoi(a)
		if err != nil || engine.Height(c) == 0 {
			return engine.Odds{}, "", fmt.Errorf("%q is not a column: give column numbers 2-12 (e.g. odds 6 7 8) or one POSITION (e.g. odds 2:0::6@1)", a)
		}
		if seen[c] {
			return engine.Odds{}, "", fmt.Errorf("column %d is given twice", c)
		}
		seen[c] = true
		cols = append(cols, c)
	}
	return engine.ColumnOdds(cols...), "columns " + engJoinInts(cols, ", "), nil
}

func engWriteJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}
