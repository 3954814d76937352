package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The notation (docs/NOTATION.md) is one shell-safe word:
//
//	PLAYERS:TURN:PIECES:RUNNERS:OPTIONS
//
// PIECES is one list per player separated by "/", RUNNERS one list, each list
// "COLUMN@SPACE" items separated by ","; OPTIONS are w3|w4|w5, skip, nostop,
// forced separated by ",". Empty trailing fields may be left out: "2:0" is a
// new two-player game, player 0 to move.

// String formats p in the notation; ParsePosition reads it back.
func (p Position) String() string {
	if p.players == 0 {
		return "invalid"
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(p.players)))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(int(p.turn)))
	fields := [3]string{}
	any := false
	var pb strings.Builder
	for pl := 0; pl < int(p.players); pl++ {
		if pl > 0 {
			pb.WriteByte('/')
		}
		for c, n := MinColumn, 0; c <= MaxColumn; c++ {
			if s := p.pieces[pl][c]; s > 0 {
				any = true
				if n > 0 {
					pb.WriteByte(',')
				}
				n++
				fmt.Fprintf(&pb, "%d@%d", c, s)
			}
		}
	}
	if any {
		fields[0] = pb.String()
	}
	if p.runners.Count() > 0 {
		fields[1] = p.runners.String()
	}
	fields[2] = p.rules.String()
	last := -1
	for i, f := range fields {
		if f != "" {
			last = i
		}
	}
	for i := 0; i <= last; i++ {
		b.WriteByte(':')
		b.WriteString(fields[i])
	}
	return b.String()
}

// String lists the runners as "6@1,10@2" ("" for none).
func (r Runners) String() string {
	var b strings.Builder
	for c := MinColumn; c <= MaxColumn; c++ {
		if r[c] > 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d@%d", c, r[c])
		}
	}
	return b.String()
}

// String lists the options that differ from the printed rules, as in the
// notation: "w4,skip" ("" for the default rules).
func (r Rules) String() string {
	var opts []string
	if r.WinColumns != 3 {
		opts = append(opts, "w"+strconv.Itoa(r.WinColumns))
	}
	if r.SkipOccupied {
		opts = append(opts, "skip")
	}
	if r.NoStopOnOccupied {
		opts = append(opts, "nostop")
	}
	if r.ForcedPlacement {
		opts = append(opts, "forced")
	}
	return strings.Join(opts, ",")
}

// ParsePosition reads the notation written by Position.String. Errors name
// the field and the problem.
func ParsePosition(s string) (Position, error) {
	p, err := parsePosition(strings.TrimSpace(s))
	if err != nil {
		return Position{}, fmt.Errorf("position %q: %w", s, err)
	}
	return p, nil
}

func parsePosition(s string) (Position, error) {
	f := strings.Split(s, ":")
	if len(f) < 2 || len(f) > 5 {
		return Position{}, fmt.Errorf("want PLAYERS:TURN:PIECES:RUNNERS:OPTIONS (at least PLAYERS:TURN, e.g. 2:0), got %d field(s)", len(f))
	}
	for len(f) < 5 {
		f = append(f, "")
	}
	players, err := strconv.Atoi(f[0])
	if err != nil {
		return Position{}, fmt.Errorf("players %q is not a number 2-4", f[0])
	}
	if err := validPlayers(players); err != nil {
		return Position{}, err
	}
	turn, err := strconv.Atoi(f[1])
	if err != nil {
		return Position{}, fmt.Errorf("turn %q is not a player number 0-%d", f[1], players-1)
	}
	rules, err := parseRules(f[4])
	if err != nil {
		return Position{}, err
	}
	pieces := make([]map[int]int, players)
	if f[2] != "" {
		lists := strings.Split(f[2], "/")
		if len(lists) != players {
			return Position{}, fmt.Errorf("pieces: %d players need %d lists separated by '/', got %d", players, players, len(lists))
		}
		for pl, l := range lists {
			if pieces[pl], err = parseList(l); err != nil {
				return Position{}, fmt.Errorf("pieces of player %d: %w", pl, err)
			}
		}
	}
	runners, err := parseList(f[3])
	if err != nil {
		return Position{}, fmt.Errorf("runners: %w", err)
	}
	return assemble(players, turn, rules, pieces, runners)
}

// parseRules reads the OPTIONS field.
func parseRules(s string) (Rules, error) {
	r := DefaultRules()
	if s == "" {
		return r, nil
	}
	for _, o := range strings.Split(s, ",") {
		switch strings.ToLower(o) {
		case "w3":
			r.WinColumns = 3
		case "w4":
			r.WinColumns = 4
		case "w5":
			r.WinColumns = 5
		case "skip":
			r.SkipOccupied = true
		case "nostop":
			r.NoStopOnOccupied = true
		case "forced":
			r.ForcedPlacement = true
		default:
			return r, fmt.Errorf("unknown option %q: options are w3, w4, w5, skip, nostop, forced", o)
		}
	}
	return r, r.Validate()
}

// parseList reads "COLUMN@SPACE,..." ("" = empty).
func parseList(s string) (map[int]int, error) {
	m := map[int]int{}
	if s == "" {
		return m, nil
	}
	for _, item := range strings.Split(s, ",") {
		cs, ss, ok := strings.Cut(item, "@")
		if !ok {
			return nil, fmt.Errorf("%q should be COLUMN@SPACE, e.g. 7@3", item)
		}
		c, err := strconv.Atoi(cs)
		if err != nil {
			return nil, fmt.Errorf("%q: column %q is not a number 2-12", item, cs)
		}
		sp, err := strconv.Atoi(ss)
		if err != nil {
			return nil, fmt.Errorf("%q: space %q is not a number", item, ss)
		}
		if _, dup := m[c]; dup {
			return nil, fmt.Errorf("column %d is listed twice", c)
		}
		m[c] = sp
	}
	return m, nil
}

// assemble builds a position and checks it could occur in a game.
func assemble(players, turn int, rules Rules, pieces []map[int]int, runners map[int]int) (Position, error) {
	p, err := NewPosition(players, rules, 0)
	if err != nil {
		return p, err
	}
	if turn < 0 || turn >= players {
		return Position{}, fmt.Errorf("turn %d: players are 0-%d", turn, players-1)
	}
	p.turn = int8(turn)
	if len(pieces) > players {
		return Position{}, fmt.Errorf("pieces for %d players in a %d-player game", len(pieces), players)
	}
	for pl, m := range pieces {
		for c, s := range m {
			if err := checkSpace(c, s); err != nil {
				return Position{}, fmt.Errorf("pieces of player %d: %w", pl, err)
			}
			p.pieces[pl][c] = int8(s)
		}
	}
	p.derive()
	for c := MinColumn; c <= MaxColumn; c++ {
		if owner := p.ClaimedBy(c); owner >= 0 {
			for pl := 0; pl < players; pl++ {
				if pl != owner && p.pieces[pl][c] != 0 {
					return Position{}, fmt.Errorf("column %d is claimed by player %d, so player %d cannot have a piece in it (a claim removes the others' pieces)", c, owner, pl)
				}
			}
		}
	}
	if len(runners) > MaxRunners {
		return Position{}, fmt.Errorf("runners: %d listed, there are only %d", len(runners), MaxRunners)
	}
	for c, s := range runners {
		if err := checkSpace(c, s); err != nil {
			return Position{}, fmt.Errorf("runners: %w", err)
		}
		if owner := p.ClaimedBy(c); owner >= 0 {
			return Position{}, fmt.Errorf("runners: column %d is claimed by player %d, no runner can be in it", c, owner)
		}
		if own := int(p.pieces[turn][c]); s <= own {
			return Position{}, fmt.Errorf("runners: the runner in column %d is on space %d, not above the mover's piece on space %d", c, s, own)
		}
		p.runners[c] = s
	}
	winners := 0
	for pl := 0; pl < players; pl++ {
		if len(p.Claimed(pl)) >= rules.WinColumns {
			winners++
		}
	}
	if winners > 1 {
		return Position{}, fmt.Errorf("%d players own %d columns: only one can have won", winners, rules.WinColumns)
	}
	if p.Over() && p.runners.Count() > 0 {
		return Position{}, fmt.Errorf("%s, so no runner can be on the board", p.result())
	}
	return p, nil
}

func checkSpace(c, s int) error {
	h := Height(c)
	switch {
	case h == 0:
		return fmt.Errorf("column %d does not exist: columns are 2-12", c)
	case s < 1:
		return fmt.Errorf("column %d: space %d does not exist: spaces count from 1 at the bottom", c, s)
	case s > h:
		return fmt.Errorf("column %d: space %d is above its top (column %d has %d spaces)", c, s, c, h)
	}
	return nil
}

// ParseDice reads a roll written "1546", "1 5 4 6", "1,5,4,6" or "1-5-4-6".
func ParseDice(s string) (Dice, error) {
	var vals []string
	t := strings.TrimSpace(s)
	if strings.ContainsAny(t, " ,-\t") {
		vals = strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '-' || r == '\t' })
	} else {
		for _, r := range t {
			vals = append(vals, string(r))
		}
	}
	var d Dice
	ok := len(vals) == 4
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 6 {
			ok = false
		} else if i < 4 {
			d[i] = n
		}
	}
	if !ok {
		return Dice{}, fmt.Errorf("dice must be four values 1-6, got %s", strings.Join(vals, " "))
	}
	return d, nil
}

// positionJSON is the JSON form of a Position; the fields follow the
// conformance cases (pieces and runners as column → space).
type positionJSON struct {
	Notation string        `json:"notation,omitempty"`
	Players  int           `json:"players"`
	Turn     int           `json:"turn"`
	Rules    *Rules        `json:"rules,omitempty"`
	Pieces   []map[int]int `json:"pieces"`
	Runners  map[int]int   `json:"runners"`
	Winner   *int          `json:"winner,omitempty"`
	Draw     bool          `json:"draw,omitempty"` // derived, like winner: ignored when read
}

// MarshalJSON writes the position as an object with its notation.
func (p Position) MarshalJSON() ([]byte, error) {
	if p.players == 0 {
		return nil, errors.New("marshal: not a position")
	}
	w := int(p.winner)
	j := positionJSON{Notation: p.String(), Players: int(p.players), Turn: int(p.turn), Rules: &p.rules,
		Pieces: make([]map[int]int, p.players), Runners: map[int]int{}, Winner: &w, Draw: p.draw}
	for pl := range j.Pieces {
		j.Pieces[pl] = map[int]int{}
		for c := MinColumn; c <= MaxColumn; c++ {
			if s := p.pieces[pl][c]; s > 0 {
				j.Pieces[pl][c] = int(s)
			}
		}
	}
	for c := MinColumn; c <= MaxColumn; c++ {
		if p.runners[c] > 0 {
			j.Runners[c] = p.runners[c]
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a notation string, or an object with players, turn,
// rules (absent = printed rules), pieces and runners; when players is absent
// the object's notation is used.
func (p *Position) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		q, err := ParsePosition(s)
		if err != nil {
			return err
		}
		*p = q
		return nil
	}
	var j positionJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if j.Players == 0 && j.Notation != "" {
		q, err := ParsePosition(j.Notation)
		if err != nil {
			return err
		}
		*p = q
		return nil
	}
	rules := DefaultRules()
	if j.Rules != nil {
		rules = *j.Rules
		if rules.WinColumns == 0 {
			rules.WinColumns = 3
		}
	}
	q, err := assemble(j.Players, j.Turn, rules, j.Pieces, j.Runners)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	*p = q
	return nil
}

// MarshalJSON writes runners as column → space, e.g. {"6":2,"10":1}.
func (r Runners) MarshalJSON() ([]byte, error) {
	m := map[int]int{}
	for c := MinColumn; c <= MaxColumn; c++ {
		if r[c] > 0 {
			m[c] = r[c]
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads column → space.
func (r *Runners) UnmarshalJSON(b []byte) error {
	var m map[int]int
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("runners: %w", err)
	}
	*r = Runners{}
	for c, s := range m {
		if err := checkSpace(c, s); err != nil {
			return fmt.Errorf("runners: %w", err)
		}
		r[c] = s
	}
	return nil
}
