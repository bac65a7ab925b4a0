package shellread

import "strings"

// sedRuns reports whether a sed script may run a command: GNU sed's e
// command, or the e flag of s. It reads the script command by command as
// GNU sed does (addresses, regular expressions with their bracket
// expressions, s and y with any delimiter, text and file names to the end
// of the line); where it cannot tell what a character is, it says yes.
func sedRuns(s string) bool {
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', ';', '{', '}', '!':
			i++
			continue
		case '#':
			i = sedLineEnd(s, i, false)
			continue
		}
		var ok bool
		if i, ok = sedAddress(s, i); !ok {
			return true
		}
		if i < len(s) && s[i] == ',' {
			if i, ok = sedAddress(s, i+1); !ok {
				return true
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '!') {
			i++
		}
		if i >= len(s) {
			return false
		}
		cmd := s[i]
		i++
		switch cmd {
		case 'e':
			return true
		case 's', 'y':
			const parts = 2
			var flags string
			if i, ok = sedDelimited(s, i, parts, cmd == 's'); !ok {
				return true
			}
			if cmd == 's' {
				start := i
				for i < len(s) && !strings.ContainsRune(";\n}#", rune(s[i])) && s[i] != 'w' {
					i++
				}
				flags = s[start:i]
				if i < len(s) && s[i] == 'w' {
					i = sedLineEnd(s, i, false) // w file: the rest of the line
				}
			}
			if strings.ContainsAny(flags, "e") {
				return true
			}
		case 'a', 'i', 'c':
			i = sedLineEnd(s, i, true)
		case 'r', 'R', 'w', 'W', ':':
			i = sedLineEnd(s, i, false)
		case 'b', 't', 'T', 'v':
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < len(s) && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '{', '}':
		default:
			return true
		}
	}
	return false
}

// sedAddress reads an address at i, if there is one: a line (5, $,
// first~step, +N, ~N) or a regular expression (/re/, \cREc) with its I
// and M flags.
func sedAddress(s string, i int) (int, bool) {
	if i >= len(s) {
		return i, true
	}
	switch c := s[i]; {
	case c == '$':
		return i + 1, true
	case c >= '0' && c <= '9', c == '+', c == '~':
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
			i++
		}
		return i, true
	case c == '/' || c == '\\':
		if c == '\\' {
			i++
		}
		var ok bool
		if i, ok = sedDelimited(s, i, 1, true); !ok {
			return i, false
		}
		for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
	}
	return i, true
}

// sedDelimited reads parts pieces after the delimiter at i (s/re/text/
// is 2, /re/ is 1), each ending at the delimiter not escaped nor, in a
// regular expression (the first piece, when re), in a bracket
// expression; it returns the index after the last delimiter.
func sedDelimited(s string, i, parts int, re bool) (int, bool) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return i, false
	}
	delim := s[i]
	i++
	for p := 0; p < parts; p++ {
		for {
			if i >= len(s) {
				return i, false
			}
			switch c := s[i]; {
			case c == '\\':
				i += 2
				continue
			case c == '[' && p == 0 && re:
				i = sedBracket(s, i)
				continue
			case c == delim:
			default:
				i++
				continue
			}
			break
		}
		i++ // the delimiter
	}
	return i, true
}

// sedBracket skips a bracket expression starting at i ([…], [^]…],
// [[:alpha:]/]).
func sedBracket(s string, i int) int {
	i++
	if i < len(s) && s[i] == '^' {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for i < len(s) && s[i] != ']' {
		if s[i] == '[' && i+1 < len(s) && strings.IndexByte(":.=", s[i+1]) >= 0 {
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				return len(s)
			}
			i += end + 4
			continue
		}
		i++
	}
	return i + 1
}

// sedLineEnd is the end of the line from i (a, i and c's text goes on
// past a newline escaped by \).
func sedLineEnd(s string, i int, continued bool) int {
	for i < len(s) && s[i] != '\n' {
		if continued && s[i] == '\\' {
			i++
		}
		i++
	}
	return i
}
