package display

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cantstop/cantstop/engine"
)

// content is a screen in words, before it is fitted to a device: a title and
// paragraphs. The OLED wraps and scrolls it into 128×64; the terminal prints it.
type content struct {
	title string
	pos   string // e.g. "2/5", shown right of the title
	paras []para
	focus int // the paragraph kept in view when the body must scroll; -1: it must fit
}

type para struct {
	text     string
	item     bool // a list entry: one row, never wrapped
	sel      bool // highlighted
	big      bool // double size
	center   bool
	hard     bool // may break inside a word (untranslated detail text)
	optional bool // a hint, dropped when the body is full
	mark     int  // big text: 1-based index of the rune highlighted, 0 = none
	edit     bool // its value is being changed
}

// compose turns a screen into content in language t.
func compose(s Screen, t tr) (content, error) {
	c := content{focus: -1}
	switch s.Kind {
	case KindSetup:
		composeSetup(&c, s, t)
	case KindRollOff:
		composeRollOff(&c, s, t)
	case KindTurn:
		p := s.player(s.Player)
		c.title = t.f(mTTurn, p.Name)
		c.add(para{text: t.f(mColour, t.colour(p.Colour))})
		c.add(para{text: t.n(mRunnersLeft, s.RunnersLeft)})
		c.add(para{text: t.f(mColumns, t.columns(p.Claimed))})
		c.addOdds(s, t, false)
		c.add(para{text: t.f(mHintRoll), optional: true})
	case KindDice:
		c.title = t.f(mTDice)
		if s.DiceRead {
			c.add(para{text: diceText(s.Dice), big: true, center: true})
			c.add(para{text: t.f(mHintChoose), optional: true})
		} else {
			// The values that were read (unread dice are left out): the players see what
			// the camera made of the roll before they re-roll or correct it.
			if s.Dice != (engine.Dice{}) {
				c.title += " " + readValues(s.Dice)
			}
			c.add(para{text: t.f(mUnreadable)})
		}
	case KindChoices:
		c.title = t.f(mTChoose) + " " + diceText(s.Dice)
		c.list(s.Selected, len(s.Choices))
		for i, ch := range s.Choices {
			c.add(para{text: choiceText(ch, s.Choices, t), item: true, sel: i == s.Selected})
		}
	case KindMove:
		c.title = t.f(mTMove)
		for _, st := range s.Steps {
			c.add(para{text: stepText(st, t)})
		}
		c.addOdds(s, t, true)
		c.add(para{text: t.f(mHintAfterMove), optional: true})
	case KindStop:
		c.title = t.f(mTStop, s.player(s.Player).Name)
		for _, st := range s.Stop.Pieces {
			c.add(para{text: t.f(mPiece, st.Column, st.To)})
		}
		for _, col := range s.Stop.Claimed {
			c.add(para{text: t.f(mClaim, col)})
		}
		for _, r := range s.Stop.Removed {
			c.add(para{text: t.f(mRemove, s.player(r.Player).Name, r.Column)})
		}
		c.focus = clamp(s.Selected, len(c.paras))
		c.add(para{text: t.f(mHintOK), optional: true})
	case KindBust:
		// The dice read stay in view: a false bust from a misread is caught here (STOP corrects them).
		c.title = s.player(s.Player).Name
		if s.Dice != (engine.Dice{}) {
			c.title += " " + diceText(s.Dice)
		}
		c.add(para{text: t.f(mBust), big: true, center: true})
		c.add(para{text: t.f(mBustText), optional: true})
		c.add(para{text: t.f(mNextOK, s.player(s.Next).Name)})
		c.add(para{text: t.f(mHintBust)})
	case KindWinner:
		composeWinner(&c, s, t)
	case KindOdds:
		rolls := s.Rolls
		if rolls <= 0 {
			rolls = 1296
		}
		c.title = t.f(mTOdds)
		c.add(para{text: percent(s.BustRolls, rolls, t), big: true, center: true})
		c.add(para{text: t.f(mBustChance), center: true})
		c.add(para{text: t.f(mOfRolls, s.BustRolls, rolls), center: true})
	case KindRules:
		composeRules(&c, s, t)
	case KindMenu:
		c.title = t.f(mTMenu)
		c.list(s.Selected, len(s.Menu))
		for i, m := range s.Menu {
			text := "?"
			if m >= 0 && m < numMenuItems {
				text = t.f(mMCorrect + msg(m))
			}
			c.add(para{text: text, item: true, sel: i == s.Selected})
		}
	case KindCorrect:
		c.title = t.f(mTCorrect)
		text, at := correctText(s.Dice, s.Unsure)
		p := para{text: text, big: true, center: true}
		if s.Selected >= 0 && s.Selected < 4 {
			p.mark = at[s.Selected]
		}
		c.add(p)
		if s.Unsure != [4]bool{} {
			c.add(para{text: t.f(mCorrectUnsure), optional: true})
		}
		c.add(para{text: t.f(mCorrectHint), item: true})
		c.add(para{text: t.f(mCorrectDone), item: true, sel: s.Selected == 4})
	case KindStatus:
		st := s.Status
		if st < 0 || st >= numStatuses {
			st = StatusError
		}
		c.title = t.f(mSTError + msg(st))
		// With a detail, the general explanation gives way if space runs short.
		c.add(para{text: t.f(mSBError + msg(st)), optional: s.Detail != ""})
		if s.Detail != "" {
			c.add(para{text: s.Detail, hard: true})
		}
	case KindTray:
		composeTray(&c, s, t)
	default:
		return c, fmt.Errorf("screen kind %d: unknown; use one of the Kind constants", s.Kind)
	}
	return c, nil
}

func composeSetup(c *content, s Screen, t tr) {
	st := s.Setup
	c.title = t.f(mTSetup)
	items := SetupItems(len(st.Players))
	c.list(s.Selected, len(items))
	for i, it := range items {
		var text string
		switch it.Field {
		case FieldPlayers:
			text = t.f(mSetPlayers, len(st.Players))
		case FieldPlayer:
			p := st.Players[it.Player]
			text = fmt.Sprintf("%d %s: %s", it.Player+1, p.Name, t.colour(p.Colour))
			if i == s.Selected && st.NameCursor > 0 {
				// The colour makes room for the longest name with its brackets.
				text = fmt.Sprintf("%d %s", it.Player+1, spelling(p.Name, st.NameCursor-1))
			}
		case FieldWinColumns:
			text = t.n(mSetWin, st.Rules.WinColumns)
		case FieldSkipOccupied:
			text = t.f(mSetSkip, t.onOff(st.Rules.SkipOccupied))
		case FieldNoStopOnOccupied:
			text = t.f(mSetNoStop, t.onOff(st.Rules.NoStopOnOccupied))
		case FieldForcedPlacement:
			text = t.f(mSetForced, t.onOff(st.Rules.ForcedPlacement))
		case FieldLang:
			l := st.Lang
			if l == "" {
				l = t.lang
			}
			text = t.f(mSetLang, l.Name())
		case FieldStart:
			text = t.f(mSetStart)
		}
		sel := i == s.Selected
		c.add(para{text: text, item: true, sel: sel, edit: sel && st.Editing})
		if sel && st.Editing {
			c.pos = "◀▶" // the buttons now change the value
		}
	}
}

// spelling shows a name being spelt with the letter under the cursor in brackets; past the
// last letter the cursor is on the end mark, "_".
func spelling(name string, cur int) string {
	r := []rune(name)
	if cur >= len(r) {
		return string(r) + "[_]"
	}
	return string(r[:cur]) + "[" + string(r[cur]) + "]" + string(r[cur+1:])
}

func composeRollOff(c *content, s Screen, t tr) {
	r := s.RollOff
	tied := map[int]bool{}
	for _, p := range r.Tied {
		tied[p] = true
	}
	all := len(r.Rolls) > 0
	for i, d := range r.Rolls {
		name := s.player(i).Name
		if d[0] == 0 {
			all = false
			c.add(para{text: name + " …", item: true, sel: tied[i]})
			continue
		}
		c.add(para{text: fmt.Sprintf("%s %d+%d=%d", name, d[0], d[1], d[0]+d[1]), item: true,
			sel: tied[i] || (len(r.Tied) == 0 && i == r.Leader)})
	}
	switch {
	case len(r.Tied) > 0:
		c.title = t.f(mTTie)
	case all && r.Leader >= 0:
		c.title = t.f(mTStarts, s.player(r.Leader).Name)
		c.add(para{text: t.f(mHintStart), optional: true})
		return
	default:
		c.title = t.f(mTWhoStarts)
	}
	if s.Player >= 0 && s.Player < len(r.Rolls) {
		c.add(para{text: t.f(mHintRollOff, s.player(s.Player).Name), optional: true})
	}
}

// composeWinner shows the winner, or a draw and who tied: the names and the
// count give way, count first, when long names leave no room for them.
func composeWinner(c *content, s Screen, t tr) {
	c.title = t.f(mTGameOver)
	if s.Draw {
		c.add(para{text: t.f(mDraw), big: true, center: true})
		if names, most := tied(s.Players); most > 0 {
			c.add(para{text: strings.Join(names, ", "), center: true, optional: true})
			c.add(para{text: t.n(mEach, most), center: true, optional: true})
		}
		return
	}
	p := s.player(s.Player)
	c.add(para{text: p.Name, big: true, center: true})
	c.add(para{text: t.f(mWinsWith, t.columns(p.Claimed)), center: true})
	if len(p.Claimed) < s.WinColumns {
		c.add(para{text: t.f(mMostColumns), center: true, optional: true})
	}
}

// tied returns the names of the players owning the most columns, and how many.
func tied(ps []Player) (names []string, most int) {
	for _, p := range ps {
		most = max(most, len(p.Claimed))
	}
	for _, p := range ps {
		if most > 0 && len(p.Claimed) == most {
			names = append(names, p.Name)
		}
	}
	return names, most
}

func composeRules(c *content, s Screen, t tr) {
	c.title = t.f(mTWhyNot)
	if len(s.Refusals) == 0 {
		c.add(para{text: t.f(mRNoRefusals)})
		return
	}
	i := clamp(s.Selected, len(s.Refusals))
	if len(s.Refusals) > 1 {
		c.list(i, len(s.Refusals))
	}
	c.focus = -1 // one refusal per page: it must fit
	r := s.Refusals[i]
	if r.Sums != [2]int{} { // a refused stop has no sums
		c.add(para{text: t.f(mSums, r.Sums[0], r.Sums[1])})
	}
	c.add(para{text: reasonText(r, s, t)})
}

// reasonText says in words why a sum or pairing is refused.
func reasonText(r engine.Refusal, s Screen, t tr) string {
	switch r.Reason {
	case engine.ReasonClaimed:
		return t.f(mRClaimed, r.Column, s.player(r.Player).Name)
	case engine.ReasonTop:
		return t.f(mRTop, r.Column)
	case engine.ReasonNoRunner:
		return t.f(mRNoRunner, r.Column)
	case engine.ReasonMustUseBoth:
		return t.f(mRMustUseBoth)
	case engine.ReasonOneRunnerLeft:
		return t.f(mROneRunnerLeft, r.Sums[0], r.Sums[1])
	case engine.ReasonForcedPlacement:
		return t.f(mRForced)
	case engine.ReasonGameOver:
		return t.f(mRGameOver)
	case engine.ReasonStopOnOccupied:
		return t.f(mRStopOccupied, r.Column, s.player(r.Player).Name)
	case engine.ReasonNoRunnersToStop:
		return t.f(mRNoRunnersStop)
	default:
		return t.f(mRNone)
	}
}

// choiceText names a choice by its sums: "6+10", "7+7", "7 only", or
// "5 (not 11)" when the same pairing's other sum is a choice of its own.
func choiceText(ch engine.Choice, all []engine.Choice, t tr) string {
	switch len(ch.Sums) {
	case 0:
		return "?"
	case 1:
	default:
		return strconv.Itoa(ch.Sums[0]) + "+" + strconv.Itoa(ch.Sums[1])
	}
	for _, o := range all {
		if len(o.Sums) == 1 && o.Sums[0] != ch.Sums[0] && samePairing(o, ch) {
			return t.f(mInstead, ch.Sums[0], o.Sums[0])
		}
	}
	return t.f(mOnly, ch.Sums[0])
}

func samePairing(a, b engine.Choice) bool {
	for _, p := range a.Pairings {
		for _, q := range b.Pairings {
			if p == q {
				return true
			}
		}
	}
	return false
}

func stepText(st engine.Step, t tr) string {
	if st.New {
		return t.f(mPlace, st.Column, st.To)
	}
	return t.f(mAdvance, st.Column, st.To)
}

func diceText(d engine.Dice) string {
	return fmt.Sprintf("%d %d %d %d", d[0], d[1], d[2], d[3])
}

// correctText is the dice being corrected, a "?" after each unsure one ("1 5 4? 6"), and the
// 1-based rune index of each die's digit (para.mark).
func correctText(d engine.Dice, unsure [4]bool) (string, [4]int) {
	var b strings.Builder
	var at [4]int
	for i, v := range d {
		if i > 0 {
			b.WriteByte(' ')
		}
		at[i] = b.Len() + 1
		b.WriteString(strconv.Itoa(v))
		if unsure[i] {
			b.WriteByte('?')
		}
	}
	return b.String(), at
}

// readValues lists the values of a partial reading, zeros (no die) left out: "5 5 2".
func readValues(d engine.Dice) string {
	var s []string
	for _, v := range d {
		if v >= 1 && v <= 6 {
			s = append(s, strconv.Itoa(v))
		}
	}
	return strings.Join(s, " ")
}

func percent(bust, rolls int, t tr) string {
	p := (200*bust + rolls) / (2 * rolls) // rounded
	switch {
	case p == 0 && bust > 0:
		return "<" + t.f(mPercent, 1)
	case p == 100 && bust < rolls:
		return ">" + t.f(mPercent, 99)
	}
	return t.f(mPercent, p)
}

func (t tr) columns(cols []int) string {
	if len(cols) == 0 {
		return t.m[mNone]
	}
	s := make([]string, len(cols))
	for i, c := range cols {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, " ")
}

// player returns seat i, or a placeholder so a bad index still shows something.
func (s Screen) player(i int) Player {
	if i >= 0 && i < len(s.Players) {
		return s.Players[i]
	}
	return Player{Name: "P" + strconv.Itoa(i+1)}
}

func (c *content) add(p para) { c.paras = append(c.paras, p) }

// addOdds adds the chance of busting on the next roll when the screen has it.
func (c *content) addOdds(s Screen, t tr, optional bool) {
	if s.Rolls > 0 {
		c.add(para{text: t.f(mBustOdds, percent(s.BustRolls, s.Rolls, t)), optional: optional})
	}
}

// list marks the content as a scrolling list with item sel of n highlighted.
func (c *content) list(sel, n int) {
	if n == 0 {
		return
	}
	c.focus = clamp(sel, n)
	c.pos = strconv.Itoa(c.focus+1) + "/" + strconv.Itoa(n)
}

func clamp(i, n int) int {
	if i >= n {
		i = n - 1
	}
	if i < 0 {
		i = 0
	}
	return i
}
