package display

import (
	"fmt"
	"strings"
)

// Lang is a display language, by its ISO 639-1 code.
type Lang string

const (
	English Lang = "en"
	Italian Lang = "it"
	French  Lang = "fr"
	Russian Lang = "ru"
	Dutch   Lang = "nl"
	Spanish Lang = "es"
	German  Lang = "de"
)

// Languages lists every language the display speaks, English first.
func Languages() []Lang {
	return []Lang{English, Italian, French, Russian, Dutch, Spanish, German}
}

// ParseLang accepts a language code such as "fr" or "FR".
func ParseLang(s string) (Lang, error) {
	l := Lang(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := catalog[l]; ok {
		return l, nil
	}
	codes := make([]string, 0, len(catalog))
	for _, c := range Languages() {
		codes = append(codes, string(c))
	}
	return "", fmt.Errorf("unknown language %q: use one of %s", s, strings.Join(codes, ", "))
}

// Name is the language's own name for itself, as the setup screen shows it.
func (l Lang) Name() string {
	if m, ok := catalog[l]; ok {
		return m[mLangName]
	}
	return string(l)
}

// tr formats messages of one language.
type tr struct {
	lang Lang
	m    *[numMsgs]string
}

func translator(l Lang) (tr, error) {
	m, ok := catalog[l]
	if !ok {
		_, err := ParseLang(string(l))
		return tr{lang: English, m: catalog[English]}, err
	}
	return tr{lang: l, m: m}, nil
}

// f formats message k with args (fmt verbs, explicit indexes allowed for word order).
func (t tr) f(k msg, args ...any) string {
	return fmt.Sprintf(t.m[k], args...)
}

// n formats the plural form of k for count n; n is the first argument.
// Forms are separated by "|": one|other, or one|few|many for Russian.
func (t tr) n(k msg, n int, args ...any) string {
	forms := strings.Split(t.m[k], "|")
	i := pluralForm(t.lang, n)
	if i >= len(forms) {
		i = len(forms) - 1
	}
	return fmt.Sprintf(forms[i], append([]any{n}, args...)...)
}

// pluralForm picks the CLDR cardinal form: 0 = one, 1 = other (ru: 1 = few, 2 = many).
func pluralForm(l Lang, n int) int {
	if n < 0 {
		n = -n
	}
	switch l {
	case Russian:
		switch {
		case n%10 == 1 && n%100 != 11:
			return 0
		case n%10 >= 2 && n%10 <= 4 && (n%100 < 12 || n%100 > 14):
			return 1
		default:
			return 2
		}
	case French:
		if n <= 1 {
			return 0
		}
		return 1
	default:
		if n == 1 {
			return 0
		}
		return 1
	}
}

// colour names the colour in the translator's language.
func (t tr) colour(c Colour) string {
	if c < 0 || c >= numColours {
		return "?"
	}
	return t.m[mRed+msg(c)]
}

// onOff names a rule option's state.
func (t tr) onOff(b bool) string {
	if b {
		return t.m[mOn]
	}
	return t.m[mOff]
}
