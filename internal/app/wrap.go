package app

import "strings"

// wrap breaks text into lines of at most width columns, the first
// starting at column indent, the others at column hang, breaking only at
// spaces: a word longer than a line gets a line of its own. Runs of
// spaces inside the text are kept.
func wrap(text string, width, indent, hang int) []string {
	var lines []string
	line, col := strings.Repeat(" ", indent), indent
	empty := true
	for _, tok := range splitKeepingGaps(text) {
		gap, word := tok[0], tok[1]
		n := len([]rune(word))
		if !empty && col+len(gap)+n > width {
			lines = append(lines, line)
			line, col, gap = strings.Repeat(" ", hang), hang, ""
		}
		if empty {
			gap = ""
		}
		line += gap + word
		col += len(gap) + n
		empty = false
	}
	return append(lines, line)
}

// splitKeepingGaps splits text into words, each with the spaces before it.
func splitKeepingGaps(text string) [][2]string {
	var out [][2]string
	for text != "" {
		word := strings.TrimLeft(text, " ")
		gap := text[:len(text)-len(word)]
		end := strings.IndexByte(word, ' ')
		if end < 0 {
			end = len(word)
		}
		if word[:end] != "" {
			out = append(out, [2]string{gap, word[:end]})
		}
		text = word[end:]
	}
	return out
}

// shellWords splits a command at the spaces outside quotes.
func shellWords(command string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	for _, r := range command {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}
