package companion

import (
	"slices"
	"strings"

	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

// MaxName is the longest player name, in letters: what fits beside the colour on the OLED.
const MaxName = 8

// nameEdit spells a player's name with four buttons: Prev/Next change the letter under the
// cursor (past the last letter, an end mark cuts the name there), OK moves to the next
// letter, and OK on the end mark or STOP finishes.
type nameEdit struct {
	old     string
	runes   []rune
	cur     int
	letters []rune
}

func newNameEdit(name string, lang display.Lang) *nameEdit {
	return &nameEdit{old: name, runes: []rune(name), letters: nameLetters(lang)}
}

// nameLetters is the alphabet offered: the language's own capitals first, then digits and a
// space. Every letter is in the display font (the golden tests check it).
func nameLetters(lang display.Lang) []rune {
	latin := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	extra := map[display.Lang]string{
		display.German:  "ÄÖÜ",
		display.French:  "ÀÂÇÉÈÊËÎÏÔÙÛ",
		display.Spanish: "ÁÉÍÑÓÚÜ",
		display.Italian: "ÀÈÉÌÒÙ",
		display.Russian: "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
	}[lang]
	s := latin + extra
	if lang == display.Russian {
		s = extra + latin
	}
	return []rune(s + "0123456789 ")
}

// press applies one short press; it returns the finished name and true when editing is over.
// A name left empty, or only spaces, keeps the old one.
func (e *nameEdit) press(b hw.Button) (string, bool) {
	switch b {
	case hw.Next, hw.Prev:
		d := 1
		if b == hw.Prev {
			d = -1
		}
		// The choices at the cursor: every letter, then the end mark (index len(letters)).
		n := len(e.letters) + 1
		i := len(e.letters)
		if e.cur < len(e.runes) {
			i = slices.Index(e.letters, e.runes[e.cur])
			if i < 0 { // a letter from the config file that the alphabet lacks
				i = len(e.letters)
			}
		}
		i = ((i+d)%n + n) % n
		if i == len(e.letters) {
			e.runes = e.runes[:e.cur]
		} else if e.cur < len(e.runes) {
			e.runes[e.cur] = e.letters[i]
		} else {
			e.runes = append(e.runes, e.letters[i])
		}
	case hw.OK:
		if e.cur < len(e.runes) && e.cur < MaxName-1 {
			e.cur++
			return "", false
		}
		return e.finish(), true
	case hw.Stop:
		return e.finish(), true
	}
	return "", false
}

func (e *nameEdit) finish() string {
	if s := strings.TrimRight(string(e.runes), " "); s != "" {
		return s
	}
	return e.old
}

// draft is the name as it stands, and the cursor for the display (1-based; len+1 is the end mark).
func (e *nameEdit) draft() (string, int) { return string(e.runes), e.cur + 1 }
