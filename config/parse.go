package config

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem in a configuration file, at a line (0 when it is
// about the file as a whole).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Errors is every problem found in one file, in line order.
type Errors []*Error

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Load reads and parses the file at path.
func Load(path string, ch Checks) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Default(), fmt.Errorf("read config: %w", err)
	}
	defer f.Close()
	return ParseChecked(path, f, ch)
}

// value is a parsed right-hand side: the text of a scalar, or a list.
type value struct {
	text   string
	list   []string
	isList bool
}

// oneOf accepts one of the given words.
func (v value) oneOf(words ...string) (string, error) {
	for _, w := range words {
		if v.text == w {
			return w, nil
		}
	}
	msg := "not one of " + strings.Join(words, ", ")
	if s := suggest(v.text, words); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return "", errors.New(msg)
}

// Checks are checks this package cannot make itself, run on values as they
// are parsed so that their errors carry the line. Nil funcs are skipped.
type Checks struct {
	// Source checks the camera source's syntax (camera.ParseSpec); it is not
	// called for "none".
	Source func(spec string) error
}

// Parse reads a configuration from r; name is the file name used in errors.
// Keys not in the file keep their defaults. On error the Config holds the
// defaults overlaid with every value that parsed, and the error is Errors.
func Parse(name string, r io.Reader) (Config, error) { return ParseChecked(name, r, Checks{}) }

// ParseChecked is Parse with extra checks.
func ParseChecked(name string, r io.Reader, ch Checks) (Config, error) {
	c := Default()
	ks := keys(ch)
	var errs Errors
	fail := func(line int, format string, a ...any) {
		errs = append(errs, &Error{File: name, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	setAt := map[string]int{}   // "section.key" -> line
	failed := map[string]bool{} // "section.key" whose value was refused
	section := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			body := strings.TrimSpace(stripComment(line))
			if !strings.HasSuffix(body, "]") {
				fail(n, "section header %s has no closing ]: write it like [buttons]", body)
				section = "?"
				continue
			}
			s := strings.TrimSpace(body[1 : len(body)-1])
			if !knownSection(s) {
				msg := fmt.Sprintf("unknown section [%s]", s)
				if g := suggest(s, sectionNames()); g != "" {
					msg += fmt.Sprintf(": did you mean [%s]?", g)
				}
				fail(n, "%s valid sections: %s", msg+";", strings.Join(sectionNames(), ", "))
				section = "?"
				continue
			}
			if prev, ok := setAt["["+s+"]"]; ok {
				fail(n, "section [%s] appears again (first on line %d): put all its keys under one header", s, prev)
			}
			setAt["["+s+"]"] = n
			section = s
			continue
		}
		k, rhs, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok {
			fail(n, "%q is not a setting: write key = value, a [section] or a # comment", line)
			continue
		}
		if k == "" || strings.ContainsAny(k, " \t\"'[]") {
			fail(n, "%q is not a key name: keys are words like pins or long_press", k)
			continue
		}
		if section == "?" {
			continue // already reported the bad header
		}
		if section == "" {
			msg := fmt.Sprintf("key %q is outside any section", k)
			if s := sectionOf(k); s != "" {
				msg += fmt.Sprintf(": put it under [%s]", s)
			} else {
				msg += ": put it under one of " + strings.Join(sectionNames(), ", ")
			}
			fail(n, "%s", msg)
			continue
		}
		kk, found := findKey(ks, section, k)
		if !found {
			fail(n, "%s", unknownKey(ks, section, k))
			continue
		}
		if prev, ok := setAt[section+"."+k]; ok {
			fail(n, "[%s] %s is set again (first on line %d): keep one", section, k, prev)
			continue
		}
		setAt[section+"."+k] = n
		failed[section+"."+k] = true // until its value is taken
		v, err := parseValue(rhs)
		if err != nil {
			fail(n, "[%s] %s: %v", section, k, err)
			continue
		}
		if v.isList && k != "players" {
			fail(n, "[%s] %s takes one value, not a list", section, k)
			continue
		}
		if !v.isList && v.text == "" {
			fail(n, "[%s] %s has no value: write %s = %s (the default), or remove the line", section, k, k, kk.get(Default()))
			continue
		}
		if err := kk.set(&c, v); err != nil {
			fail(n, "[%s] %s = %s: %v", section, k, shown(rhs), err)
			continue
		}
		delete(failed, section+"."+k)
	}
	if err := sc.Err(); err != nil {
		fail(0, "read: %v", err)
	}
	// Cross-key problems are reported with the others, except those that
	// involve a key whose own value was refused (it holds its default).
problems:
	for _, p := range c.problems() {
		line := 0
		for _, k := range p.keys {
			if failed[k] {
				continue problems
			}
			if l := setAt[k]; l > line {
				line = l // the last of the keys involved that the file sets
			}
		}
		fail(line, "[%s] %s", p.section, p.msg)
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b *Error) int { return a.Line - b.Line })
		return c, errs
	}
	return c, nil
}

// parseValue reads the right-hand side of key = value: a quoted string, a
// [list], or bare text up to a # comment.
func parseValue(rhs string) (value, error) {
	s := strings.TrimSpace(rhs)
	if strings.HasPrefix(s, "[") {
		end := strings.LastIndex(s, "]")
		if end < 0 {
			return value{}, errors.New("list has no closing ]: write it like [\"Ann\", \"Bob\"]")
		}
		if rest := strings.TrimSpace(s[end+1:]); rest != "" && rest[0] != '#' {
			return value{}, fmt.Errorf("unexpected %q after the list", rest)
		}
		var items []string
		body := strings.TrimSpace(s[1:end])
		for body != "" {
			item, rest, err := scalar(body, ",")
			if err != nil {
				return value{}, err
			}
			items = append(items, item)
			rest = strings.TrimSpace(rest)
			if rest == "" {
				break
			}
			body = strings.TrimSpace(rest[1:]) // skip the comma
		}
		return value{list: items, isList: true}, nil
	}
	text, rest, err := scalar(s, "")
	if err != nil {
		return value{}, err
	}
	if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
		return value{}, fmt.Errorf("unexpected %q after the value: put a # before a comment", rest)
	}
	v := value{text: text}
	if !strings.HasPrefix(s, "\"") && !strings.HasPrefix(s, "'") && strings.Contains(text, ",") {
		for _, p := range strings.Split(text, ",") {
			v.list = append(v.list, strings.TrimSpace(p))
		}
	} else {
		v.list = []string{text}
	}
	return v, nil
}

// scalar reads one quoted or bare item from the start of s; a bare item ends
// at a # comment or at any byte in stop. It returns the item and the rest.
func scalar(s, stop string) (string, string, error) {
	switch {
	case strings.HasPrefix(s, "\""):
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				u, err := strconv.Unquote(s[:i+1])
				if err != nil {
					return "", "", fmt.Errorf("bad escape in %s: write \\\\ for a backslash and \\\" for a quote", s[:i+1])
				}
				return u, s[i+1:], nil
			}
		}
		return "", "", fmt.Errorf("string %s has no closing \"", s)
	case strings.HasPrefix(s, "'"):
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", fmt.Errorf("string %s has no closing '", s)
		}
		return s[1 : end+1], s[end+2:], nil
	}
	end := strings.IndexAny(s, "#"+stop)
	if end < 0 {
		end = len(s)
	}
	return strings.TrimSpace(s[:end]), s[end:], nil
}

// stripComment cuts a # comment off a header line.
func stripComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

func sectionNames() []string {
	var ns []string
	for _, s := range sections() {
		ns = append(ns, s.name)
	}
	return ns
}

func knownSection(s string) bool {
	for _, n := range sectionNames() {
		if n == s {
			return true
		}
	}
	return false
}

func findKey(ks []key, section, name string) (key, bool) {
	for _, k := range ks {
		if k.section == section && k.name == name {
			return k, true
		}
	}
	return key{}, false
}

// sectionOf names the section a key belongs to, or "".
func sectionOf(name string) string {
	for _, k := range keys(Checks{}) {
		if k.name == name {
			return k.section
		}
	}
	return ""
}

// unknownKey explains an unknown key: a near miss, a key from another
// section, and the valid keys.
func unknownKey(ks []key, section, name string) string {
	var valid []string
	for _, k := range ks {
		if k.section == section {
			valid = append(valid, k.name)
		}
	}
	msg := fmt.Sprintf("unknown key %q in [%s]", name, section)
	if s := sectionOf(name); s != "" {
		msg += fmt.Sprintf(": %s belongs in [%s]", name, s)
	} else if g := suggest(name, valid); g != "" {
		msg += fmt.Sprintf(": did you mean %q?", g)
	}
	return msg + "; valid keys: " + strings.Join(valid, ", ")
}

// shown is a value as the file wrote it, without a trailing comment, for
// error messages.
func shown(rhs string) string {
	s := strings.TrimSpace(rhs)
	if i := strings.Index(s, " #"); i >= 0 && !strings.ContainsAny(s[:i], "\"'") {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
