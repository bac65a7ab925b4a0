package shellread

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// What the rules read of a Line and of each Cmd in it (read.go says what
// each is).

// Cmds are the line's simple commands, in order, including those inside
// substitutions, functions and code strings.
func (l Line) Cmds() []Cmd { return l.cmds }

// Uncovered says why no allow rule can cover the line; "" when the rules
// decide.
func (l Line) Uncovered() string { return l.uncovered }

// Partial says why the line was not read in full; "" when it was.
func (l Line) Partial() string { return l.partial }

// LineOf is a line of the commands cmds alone, read in full: how a rule
// that covers one command is checked against it.
func LineOf(cmds ...Cmd) Line { return Line{cmds: cmds} }

// Text is the command's words as an allow rule matches them, wrappers such
// as nice and timeout taken off: "git status --short".
func (c Cmd) Text() string { return c.text }

// Prefix is its first words, as a denial advises a rule for it: "git
// status" (commandPrefix).
func (c Cmd) Prefix() string { return c.prefix }

// Seen are further texts deny and ask rules match: the command as
// written, its name without a folder, what follows a wrapper's options.
func (c Cmd) Seen() []string { return c.seen }

// Glob is the command name when it is a file-name pattern (/bin/r?).
func (c Cmd) Glob() string { return c.glob }

// Guess marks a reading of an unknown command's words: a deny or ask rule
// it matches asks, rather than denies.
func (c Cmd) Guess() bool { return c.guess }

// DenyOnly marks a reading of the words that deny and ask rules look at
// but an allow rule need not cover.
func (c Cmd) DenyOnly() bool { return c.denyOnly }

// commandPrefix is the first words of a simple command, as an allow rule
// names them: the command's name, its options, and the first word that
// is not an option (git status, rm -rf build), so the rule covers that
// command on that target with any further arguments. It stops before a
// word whose value is not written out ($X): a rule would name its
// source, not what it runs with.
func commandPrefix(ws []word) string {
	end := 1
	for end < len(ws) && ws[end].literal {
		end++
		if !strings.HasPrefix(ws[end-1].value, "-") {
			break
		}
	}
	return joinWords(ws[:end])
}

// clipChars bounds what a reason quotes of a line, as the approval's
// summaries do.
const clipChars = 80

// clip makes text safe to show and short enough to quote: shown as
// ask.Display shows it, cut to clipChars characters, saying how long it
// is as written.
func clip(s string) string {
	shown := ask.Display(s)
	if r := []rune(shown); len(r) > clipChars {
		return fmt.Sprintf("%s… (%d characters)", string(r[:clipChars]), utf8.RuneCountInString(s))
	}
	return shown
}
