// Package engine is the complete rules of Sid Sackson's Can't Stop, as the
// table companion enforces them: positions, the legal choices for a roll of
// four dice and why every other pairing or sum is refused, stopping and
// claiming, exact bust odds, a one-line position notation, and game records
// that replay and undo exactly. It follows ../shared/rules/RULES.md; every
// edition difference is a Rules option (win_columns, skip_occupied,
// no_stop_on_occupied, forced_placement).
//
//	p, err := engine.ParsePosition("2:0::6@1,10@1") // or engine.NewPosition(2, engine.DefaultRules(), 0)
//	d, err := engine.ParseDice("2435")
//	an := engine.Explain(p, d) // an.Choices: 6+8, 5, 9, 7+7; an.Refusals: why 6 alone, 5 and 9 are not
//	p, err = p.Update(an.Choices[0])
//	odds := engine.BustOdds(p) // odds.Bust of 1296 rolls
//
// A Position is an immutable value: Update, Bust and Stop return a new one.
// Legal and Explain are pure functions of a position and a roll; Explain's
// refusals are data (a Reason plus columns and players), so a display can
// say them in any language. A Game wraps a position with its Record.
//
// The notation (see docs/NOTATION.md) is one shell-safe word:
//
//	2:0:7@4,12@3/7@5:2@1,7@6:skip
//
// means two players, player 0 to move; player 0 has pieces on space 4 of
// column 7 and space 3 (the top) of column 12, which they have claimed;
// player 1 has a piece on space 5 of column 7; the mover's runners stand on
// space 1 of column 2 and space 6 of column 7 (having skipped player 1's
// piece); rule option skip_occupied.
//
// Rule decisions the printed rules leave open:
//   - skip_occupied: a runner jumps every space holding another player's
//     piece. It can never be pushed past the top, because the top space of a
//     column still in play is always free (a piece there claims the column);
//     when every space above is occupied the runner lands on the top.
//   - 7+7 with the runner one space below the top: the runner reaches the top,
//     the second step is lost, and the choice still counts as using both sums.
//   - All 11 columns claimed and nobody owning win_columns (possible with
//     3 players and win_columns 5, 4 players and 4 or 5): no roll could ever
//     be used again, so the stop that claims the last column ends the game
//     at once. The player owning the most columns wins; if several tie for
//     the most, the game is a draw (Position.Draw; Winner is -1). With 3
//     players and 5, or 4 players and 4, such an end is always a draw
//     (4+4+3, 3+3+3+2); with 4 players and 5 it can be a win (4+3+2+2).
//     Every player count 2-4 is allowed with every win_columns 3, 4, 5.
//   - A game over (Position.Over: won or drawn) has no legal choices, busts
//     on every roll and refuses stops (ReasonGameOver); Game refuses rolls,
//     choices and stops. The turn stays with the player whose stop ended it.
//   - A roll that busts is recorded as the roll followed by the bust, and
//     Game.Undo takes back both.
//
// The engine does no I/O and keeps no mutable package state.
package engine
