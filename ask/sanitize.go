package ask

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxFreeTextChars caps the free text ("Other") a person or a program can
// give for one question. Longer text is cut at this many characters (runes):
// a tool result is not the place for a document, and the cap keeps a stuck
// key or a pasted file from flooding the model's context.
const MaxFreeTextChars = 2000

// Display makes model-written text safe to show on a terminal, on one line:
// ANSI escape sequences (CSI, OSC, DCS and friends, in 7-bit and 8-bit form),
// C0 and C1 control characters, DEL and Unicode bidirectional overrides are
// removed; tabs and line breaks become single spaces; invalid UTF-8 becomes
// U+FFFD. Printable text, including non-Latin scripts and emoji, is kept.
func Display(s string) string { return clean(s, false) }

// DisplayBlock is Display but keeps line breaks, for longer text such as a
// question that a model wrote over several lines.
func DisplayBlock(s string) string { return clean(s, true) }

// CleanFreeText prepares text typed by a person (or sent by a program as
// free text) for the model: Display, trimmed, capped at MaxFreeTextChars.
func CleanFreeText(s string) string {
	s = strings.TrimSpace(Display(s))
	if utf8.RuneCountInString(s) > MaxFreeTextChars {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:MaxFreeTextChars]))
	}
	return s
}

func clean(s string, keepNewlines bool) string {
	if isPlain(s) {
		if keepNewlines {
			return s
		}
		return collapseSpaces(s)
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == 0x1b: // ESC: skip the whole sequence it starts
			i = skipEscape(rs, i+1) - 1
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(rs, i+1) - 1
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(rs, i+1) - 1
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f':
			if keepNewlines && r == '\n' {
				b.WriteRune('\n')
			} else if keepNewlines && r == '\r' {
				if i+1 >= len(rs) || rs[i+1] != '\n' {
					b.WriteRune('\n')
				}
			} else {
				b.WriteRune(' ')
			}
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// other control characters: dropped
		case isBidiControl(r):
			// dropped: they can make text read differently from what it is
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if !keepNewlines {
		out = collapseSpaces(out)
	}
	return out
}

// isPlain reports whether s is printable ASCII, the common case.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x061c
}

// skipEscape returns the index after the escape sequence whose ESC was at i-1.
func skipEscape(rs []rune, i int) int {
	if i >= len(rs) {
		return i
	}
	switch rs[i] {
	case '[':
		return skipCSI(rs, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(rs, i+1)
	}
	// Two-character sequences (ESC c, ESC 7, ...) and ESC with intermediates.
	for i < len(rs) && rs[i] >= 0x20 && rs[i] <= 0x2f {
		i++
	}
	if i < len(rs) {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes up to the final byte.
func skipCSI(rs []rune, i int) int {
	for i < len(rs) {
		r := rs[i]
		i++
		if r >= 0x40 && r <= 0x7e {
			break
		}
		if r < 0x20 || r > 0x7e { // malformed: stop before a non-CSI rune
			return i - 1
		}
	}
	return i
}

// skipString skips an OSC/DCS-style string up to BEL, ESC \ or 8-bit ST.
func skipString(rs []rune, i int) int {
	for i < len(rs) {
		switch rs[i] {
		case 0x07, 0x9c:
			return i + 1
		case 0x1b:
			if i+1 < len(rs) && rs[i+1] == '\\' {
				return i + 2
			}
			return i
		}
		i++
	}
	return i
}

func collapseSpaces(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	prev := false
	for _, r := range s {
		sp := unicode.IsSpace(r)
		if sp && prev {
			continue
		}
		prev = sp
		b.WriteRune(r)
	}
	return b.String()
}
