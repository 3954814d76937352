package display

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// argsFor derives sample arguments from the English format of a message.
func argsFor(format string) []any {
	var args []any
	for _, v := range verb.FindAllString(strings.Split(format, "|")[0], -1) {
		switch v[len(v)-1] {
		case 'd':
			args = append(args, 7)
		case 's':
			args = append(args, "Anna")
		}
	}
	return args
}

// TestCatalogComplete fails when any language lacks a message, or when a
// translation takes other arguments than the English one, or has the wrong
// number of plural forms.
func TestCatalogComplete(t *testing.T) {
	if len(catalog) != len(Languages()) {
		t.Errorf("catalog has %d languages, Languages() lists %d", len(catalog), len(Languages()))
	}
	for _, l := range Languages() {
		m, ok := catalog[l]
		if !ok {
			t.Errorf("%s: no messages", l)
			continue
		}
		for k := msg(0); k < numMsgs; k++ {
			en := catalog[English][k]
			s := m[k]
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: message %d (English %q) is missing", l, k, en)
				continue
			}
			wantForms := 1
			if strings.Contains(en, "|") {
				wantForms = 2
				if l == Russian {
					wantForms = 3
				}
			}
			forms := strings.Split(s, "|")
			if len(forms) != wantForms {
				t.Errorf("%s: %q has %d plural forms, want %d", l, s, len(forms), wantForms)
			}
			args := argsFor(en)
			for _, f := range forms {
				out := fmt.Sprintf(f, args...)
				if strings.Contains(out, "%!") {
					t.Errorf("%s: %q does not take the arguments of %q: %s", l, f, en, out)
				}
				if len(args) > 0 && len(verb.FindAllString(strings.ReplaceAll(f, "%%", ""), -1)) != len(verb.FindAllString(strings.ReplaceAll(strings.Split(en, "|")[0], "%%", ""), -1)) {
					t.Errorf("%s: %q uses another number of values than %q", l, f, en)
				}
			}
		}
	}
}

func TestPlural(t *testing.T) {
	ru, _ := translator(Russian)
	en, _ := translator(English)
	fr, _ := translator(French)
	for _, c := range []struct {
		t    tr
		n    int
		want string
	}{
		{en, 1, "1 runner left"}, {en, 0, "0 runners left"}, {en, 3, "3 runners left"},
		{fr, 0, "0 marqueur restant"}, {fr, 1, "1 marqueur restant"}, {fr, 2, "2 marqueurs restants"},
		{ru, 1, "Остался 1 маркер"}, {ru, 2, "Осталось 2 маркера"}, {ru, 0, "Осталось 0 маркеров"},
		{ru, 21, "Остался 21 маркер"}, {ru, 11, "Осталось 11 маркеров"}, {ru, 14, "Осталось 14 маркеров"},
	} {
		if got := c.t.n(mRunnersLeft, c.n); got != c.want {
			t.Errorf("%s %d: got %q, want %q", c.t.lang, c.n, got, c.want)
		}
	}
}

func TestParseLang(t *testing.T) {
	for _, l := range Languages() {
		got, err := ParseLang(strings.ToUpper(string(l)))
		if err != nil || got != l {
			t.Errorf("ParseLang(%q) = %q, %v", strings.ToUpper(string(l)), got, err)
		}
	}
	_, err := ParseLang("pt")
	if err == nil || !strings.Contains(err.Error(), "en, it, fr, ru, nl, es, de") {
		t.Errorf("ParseLang(pt): %v, want an error listing the languages", err)
	}
	if _, err := Render(Screen{Kind: KindTurn}, "pt"); err == nil {
		t.Error("Render in an unknown language: no error")
	}
}
