package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Format writes c as a complete, commented configuration file that Parse
// reads back to c. The default file shipped in the package is Format(Default()).
func Format(c Config) string {
	var b strings.Builder
	b.WriteString(`# cantstop.conf: configuration of the Can't Stop table companion.
# Check it with: cantstop config check FILE   Show the effective one: cantstop config show
# Format: [section], key = value, # comments. A key left out keeps its default.
# Restart after editing: sudo systemctl restart cantstop
`)
	ks := keys(Checks{})
	for _, s := range sections() {
		b.WriteString("\n[" + s.name + "]\n")
		for _, line := range strings.Split(s.doc, "\n") {
			b.WriteString("# " + line + "\n")
		}
		for _, k := range ks {
			if k.section != s.name {
				continue
			}
			for _, d := range k.doc {
				fmt.Fprintf(&b, "#   %s\n", d)
			}
			fmt.Fprintf(&b, "%s = %s\n", k.name, k.get(c))
		}
	}
	return b.String()
}

// quote writes s as a double-quoted string.
func quote(s string) string { return strconv.Quote(s) }
