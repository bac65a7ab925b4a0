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
// C0 and C1 control characters, DEL and invisible format characters (see
// invisible: bidi overrides, zero-width spaces and joiners, soft hyphens,
// tags...) are removed; tabs and line breaks become single spaces; invalid
// UTF-8 becomes U+FFFD. Printable text, including non-Latin scripts and
// emoji, is kept.
//
// Display is also what labels, headers and questions are compared on
// (FoldKey), so two labels that look the same are the same label, and
// "Other" with a zero-width space in it is still "Other".
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
	prev := rune(-1) // the last rune kept
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		n := b.Len()
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
		case invisible(r, prev, next(rs, i)):
			// dropped: they can make text read differently from what it is
		default:
			b.WriteRune(r)
		}
		if b.Len() > n {
			prev, _ = utf8.DecodeLastRuneInString(b.String())
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

func next(rs []rune, i int) rune {
	if i+1 < len(rs) {
		return rs[i+1]
	}
	return -1
}

// invisible reports whether r, between the kept rune prev and the rune
// next, is a character a person cannot see: a format character (Unicode
// category Cf: bidi embeddings, overrides, isolates and marks, zero-width
// space, word joiner, soft hyphen, BOM, tag characters...), a variation
// selector, the combining grapheme joiner or a Hangul filler. Left in, they
// would let "Prod\u200buction" pass for "Production", or reorder what a
// person reads. prev and next are -1 at the ends of the text.
//
// Some of them are visible where they are, and are kept there: the joiners
// (ZWJ, ZWNJ, Mongolian selectors) between two letters of a script whose
// letters join or combine, where they change the shapes (Persian text
// needs ZWNJ); ZWJ between two emoji, where it makes one emoji of them; a
// variation selector after a symbol or an ideograph, where it picks its
// glyph. The Arabic number signs and their kin (Cf, but drawn) are kept.
func invisible(r, prev, next rune) bool {
	switch {
	case r < 0xa0:
		return false
	case isBidiControl(r):
		return true
	case r == 0x200c || r == 0x200d || (r >= 0x180b && r <= 0x180d) || r == 0x180f:
		return !(shaping(prev) && shaping(next) || r == 0x200d && emoji(prev) && emoji(next))
	case (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef):
		return !(unicode.IsSymbol(prev) || unicode.Is(unicode.Han, prev))
	case r == 0x034f || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	case (r >= 0x0600 && r <= 0x0605) || r == 0x06dd || r == 0x070f || r == 0x0890 || r == 0x0891 ||
		r == 0x08e2 || r == 0x110bd || r == 0x110cd:
		return false // prepended concatenation marks: drawn
	}
	return unicode.Is(unicode.Cf, r)
}

// shapingScripts are the scripts in which a joiner between two letters
// changes what is drawn: joining scripts and the Indic abugidas.
var shapingScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Mandaic,
	unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya,
	unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
	unicode.Tibetan, unicode.Myanmar, unicode.Khmer,
}

// shaping reports whether r is a letter or mark of a shaping script.
func shaping(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) && unicode.IsOneOf(shapingScripts, r)
}

// emoji reports whether r can be part of an emoji ZWJ sequence: a
// pictograph, a skin tone, or the emoji variation selector after one.
func emoji(r rune) bool {
	return unicode.Is(unicode.So, r) || (r >= 0x1f3fb && r <= 0x1f3ff) || r == 0xfe0f
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
