package ask

import "strings"

// Look-alike letters. Unicode's confusables data (UTS #39) reduces text to
// a "skeleton" so that strings drawn alike compare equal; Go's standard
// library and golang.org/x/text carry no such table, and this package
// imports nothing else. What a label can be mistaken for here is Latin
// text: "Other", "(Recommended)", or another label of the question, which
// the model writes in Latin letters (or in another script altogether). So
// skeleton maps only the letters of Cyrillic and Greek that are drawn as a
// Latin letter in ordinary fonts, in the case in which they are (Cyrillic
// "В" is a B, "в" is not a b), and the fullwidth forms of ASCII, to that
// Latin character. Letters that resemble a Latin one only in some fonts or
// in italics (Cyrillic г, п, т; Greek α, ι, κ) are left alone, and so are
// digits (0 and O, 1 and l are told apart in the fonts askuser draws in).
//
// Normalising rather than rejecting keeps one rule: labels, headers and
// questions are compared on what a person sees (FoldKey), so a label that
// looks like "Other" is "Other" and is refused as such, two labels that
// look alike repeat each other, a look-alike "(Recommended)" marks the
// option, and a person's "Postgres" finds the option "Pоstgres". The
// texts themselves are kept as written: a Russian label stays Russian, and
// the model gets back the label it sent.
var lookalikes = map[rune]rune{
	// Cyrillic capitals
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P',
	'С': 'C', 'Т': 'T', 'Х': 'X', 'Ү': 'Y', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q',
	'Ԝ': 'W', 'Ӏ': 'I',
	// Cyrillic small letters
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's',
	'і': 'i', 'ј': 'j', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ү': 'y',
	// Greek capitals
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M',
	'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Greek small letters
	'ο': 'o', 'ν': 'v', 'ρ': 'p', 'υ': 'u',
}

// skeleton is s with every look-alike letter replaced by the Latin
// character it is drawn as (see lookalikes), rune for rune. Text without
// any is returned as it is, uncopied.
func skeleton(s string) string {
	if isPlain(s) {
		return s
	}
	return strings.Map(lookalike, s)
}

// lookalike is the Latin character r is drawn as, or r.
func lookalike(r rune) rune {
	if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
		return r - 0xFEE0
	}
	if l, ok := lookalikes[r]; ok {
		return l
	}
	return r
}

// hasLookalike reports whether s holds a letter that skeleton replaces.
func hasLookalike(s string) bool {
	return skeleton(s) != s
}
