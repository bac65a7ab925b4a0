package ask

import (
	"strconv"
	"strings"
)

// outlineIndent is how far Outline indents a level.
const outlineIndent = "  "

// Outline lays n out as text, for a terminal: one line per field or item,
// a long or many-line string on lines of its own under its key (a file's
// content as its lines), each level indented two spaces further:
//
//	path: notes/plan.md
//	content:
//	  # Plan
//
//	  Step one.
//	tags:
//	  1. draft
//	  2. auth
//
// It is the web card's layout in text: the same fields in the same order,
// the same strings on lines of their own, and what the budget left out
// said the same way ("… and 3 more fields"). Lines are not wrapped: the
// terminal wraps them to its width, keeping each line's indent.
func (n JSONNode) Outline() string { return strings.Join(n.outline(), "\n") }

func (n JSONNode) outline() []string {
	var out []string
	switch n.Kind {
	case JSONObject:
		for _, f := range n.Fields {
			out = append(out, under(f.Key+":", f.Value)...)
		}
		return append(out, moreLine(n.Left, "field")...)
	case JSONArray:
		for i, it := range n.Items {
			out = append(out, hang(strconv.Itoa(i+1)+". ", it.outline())...)
		}
		return append(out, moreLine(n.Left, "item")...)
	}
	if n.Empty() {
		return []string{`""`}
	}
	out = strings.Split(n.Text, "\n")
	if n.Left > 0 {
		out[len(out)-1] += "… and " + GroupDigits(n.Left) + " more characters"
	}
	return out
}

// inline reports whether n is shown on its key's line: a literal or a
// short one-line string.
func (n JSONNode) inline() bool {
	return n.Kind == JSONLiteral || (n.Kind == JSONString && !n.Block)
}

// under is a field: its value after the key when it is inline, else on
// the lines below, indented.
func under(key string, v JSONNode) []string {
	lines := v.outline()
	if v.inline() {
		return []string{key + " " + lines[0]}
	}
	out := []string{key}
	for _, l := range lines {
		if l != "" {
			l = outlineIndent + l
		}
		out = append(out, l)
	}
	return out
}

// hang is an array's item: its first line after the number, the others
// under it.
func hang(number string, lines []string) []string {
	pad := strings.Repeat(" ", len(number))
	out := []string{number + lines[0]}
	for _, l := range lines[1:] {
		if l != "" {
			l = pad + l
		}
		out = append(out, l)
	}
	return out
}

// moreLine says how many fields or items the budget left out, as the
// card does.
func moreLine(left int, what string) []string {
	switch {
	case left == 0:
		return nil
	case left == 1:
		return []string{"… and 1 more " + what}
	}
	return []string{"… and " + GroupDigits(left) + " more " + what + "s"}
}
