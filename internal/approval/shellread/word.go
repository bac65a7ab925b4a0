package shellread

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the rules see it.
type word struct {
	// text is what a rule is matched against: the word's value when the
	// shell's reading of it is known before the line runs (quoted when it
	// holds white space or quotes, so one word never reads as two), else
	// its source ($X, *.go).
	text string
	// value is the word as the shell reads it (quotes and backslashes
	// removed); "" unless literal.
	value string
	// literal is true when the word expands to exactly value: no
	// parameter, command, arithmetic, tilde, brace or file-name expansion.
	literal bool
	// glob is the word's source when it is a file-name pattern with no
	// other expansion (r*, /bin/r?): the shell replaces it with file names.
	glob string
	// code is what the word holds as code for eval or sh -c: its value, or
	// for a double-quoted word with expansions the source inside the
	// quotes (eval "$(x); rm -rf y"), which deny rules read as best they
	// can.
	code string
}

// readWord reads a word without running anything.
func readWord(w *syntax.Word) word {
	if !literalParts(w.Parts) || tilde(w) || braces(w) {
		wd := word{text: source(w)}
		if q, ok := w.Parts[0].(*syntax.DblQuoted); ok && len(w.Parts) == 1 {
			wd.code = source(&syntax.Word{Parts: q.Parts})
		}
		return wd
	}
	if globbed(w) {
		src := source(w)
		return word{text: src, glob: src}
	}
	// Fields, not Literal: only Fields removes unquoted backslashes (g\it).
	// With no ReadDir it globs nothing, and braces were ruled out above.
	// A Config of its own: given nil, Fields writes to the library's one
	// shared default, a data race between concurrent decisions.
	fields, err := expand.Fields(&expand.Config{}, w)
	if err != nil || len(fields) != 1 {
		return word{text: source(w)}
	}
	return word{text: Quote(fields[0]), value: fields[0], literal: true, code: fields[0]}
}

// literalParts reports whether parts hold only quoted or plain text.
func literalParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !literalParts(p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// tilde reports whether the word starts with an unquoted ~ (the shell
// puts a home folder there).
func tilde(w *syntax.Word) bool {
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, "~")
}

// braces reports whether the shell would expand braces in the word
// ({rm,-rf,x} is three words, {1..3} a sequence); {} and a{b}c, which the
// parser also splits, are text to bash.
func braces(w *syntax.Word) bool {
	c := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(c) {
		return false
	}
	expands := false
	syntax.Walk(c, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BraceExp); ok && (b.Sequence || len(b.Elems) > 1) {
			expands = true
		}
		return !expands
	})
	return expands
}

// globbed reports whether an unquoted part is a file-name pattern.
func globbed(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if lit, ok := p.(*syntax.Lit); ok && pattern.HasMeta(lit.Value, 0) {
			return true
		}
	}
	return false
}

// Quote shows a value as one word, as bash reads it: as it is, unless it is empty or holds
// white space, quotes, $, ` or \, which could make it read as several
// words or as an expansion.
func Quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\v\f'\"$`\\") {
		return v
	}
	if q, err := syntax.Quote(v, syntax.LangBash); err == nil {
		return q
	}
	return "'" + strings.ReplaceAll(v, "\x00", "") + "'" // a NUL cannot be quoted; it never reaches a program either
}

// source prints a node as shell source.
func source(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.Minify(true)).Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// joinWords is the text of a simple command, as rules match it.
func joinWords(ws []word) string {
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
	}
	return strings.Join(texts, " ")
}
