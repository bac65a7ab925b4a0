package prompt

import (
	"strings"
	"unicode/utf8"
)

// seg is a piece of text in one style: sgr is an SGR parameter string
// ("1;36"), or "" for the terminal's default.
type seg struct{ text, sgr string }

// line is one screen line, as styled pieces. Its text never holds a
// control character: everything shown was passed through ask.Display.
type line []seg

func (l line) width() int {
	w := 0
	for _, s := range l {
		w += textWidth(s.text)
	}
	return w
}

// plain is the line's text without styles.
func (l line) plain() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.text)
	}
	return b.String()
}

// render is the line's text, with SGR sequences when color is set.
func (l line) render(color bool) string {
	var b strings.Builder
	for _, s := range l {
		if color && s.sgr != "" && s.text != "" {
			b.WriteString("\x1b[" + s.sgr + "m" + s.text + "\x1b[0m")
		} else {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// styled makes a one-piece line.
func styled(s, sgr string) line { return line{{s, sgr}} }

// nbsp joins words that must stay on one line (a key hint, the header
// chip); wrapLine turns it back into a space.
const nbsp = "\u00a0"

// wrapLine breaks the styled pieces into lines of at most width cells, at
// spaces, breaking a word only when it is wider than a whole line. The
// first line starts with first, the others with rest (an indent, usually),
// and the width includes them. Runs of spaces are kept within a line and
// dropped where it breaks.
func wrapLine(pieces []seg, width int, first, rest line) []line {
	type word struct {
		text, sgr string
		gap       int // spaces before it
	}
	var words []word
	gap := 0
	for _, p := range pieces {
		for i, f := range strings.Split(p.text, " ") {
			if i > 0 {
				gap++
			}
			if f == "" {
				continue
			}
			words = append(words, word{strings.ReplaceAll(f, nbsp, " "), p.sgr, gap})
			gap = 0
		}
	}
	out := []line{append(line{}, first...)}
	col := first.width()
	start := true // nothing but the prefix on the current line yet
	for _, w := range words {
		ww := textWidth(w.text)
		gap := w.gap
		if start {
			gap = 0
		}
		if !start && col+gap+ww > width {
			out = append(out, append(line{}, rest...))
			col, gap, start = rest.width(), 0, true
		}
		if gap > 0 {
			out[len(out)-1] = append(out[len(out)-1], seg{strings.Repeat(" ", gap), ""})
			col += gap
		}
		// A word wider than the room left is cut into pieces that fit.
		for t := w.text; t != ""; {
			head, tail := cutWidth(t, max(width-col, 1))
			if head == "" { // not even one character fits
				head, tail = firstRune(t)
			}
			out[len(out)-1] = append(out[len(out)-1], seg{head, w.sgr})
			col += textWidth(head)
			start = false
			if t = tail; t != "" {
				out = append(out, append(line{}, rest...))
				col = rest.width()
			}
		}
	}
	return out
}

// wrapText wraps text that may hold line breaks, each paragraph on its own
// lines, all in one style. A paragraph's leading spaces are kept, on each
// of its lines, so indented text (JSON, a list) keeps its shape.
func wrapText(s, sgr string, width int, first, rest line) []line {
	var out []line
	for i, para := range strings.Split(s, "\n") {
		f := first
		if i > 0 {
			f = rest
		}
		body := strings.TrimLeft(para, " ")
		if n := len(para) - len(body); n > 0 && body != "" {
			indent := seg{strings.Repeat(" ", min(n, width/2)), ""}
			f = append(append(line{}, f...), indent)
			r := append(append(line{}, rest...), indent)
			out = append(out, wrapLine([]seg{{body, sgr}}, width, f, r)...)
			continue
		}
		out = append(out, wrapLine([]seg{{para, sgr}}, width, f, rest)...)
	}
	return out
}

// cutWidth splits s after as many characters as fit in width cells.
func cutWidth(s string, width int) (head, tail string) {
	w := 0
	for i, r := range s {
		rw := textWidth(string(r))
		if w+rw > width {
			return s[:i], s[i:]
		}
		w += rw
	}
	return s, ""
}

func firstRune(s string) (string, string) {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n], s[n:]
}

// truncate cuts a line to width cells, ending it with "…" when it was cut.
func truncate(l line, width int) line {
	if l.width() <= width {
		return l
	}
	var out line
	col := 0
	for _, s := range l {
		w := textWidth(s.text)
		if col+w <= width-1 {
			out = append(out, s)
			col += w
			continue
		}
		head, _ := cutWidth(s.text, width-1-col)
		out = append(out, seg{head, s.sgr})
		break
	}
	return append(out, seg{"…", ""})
}
