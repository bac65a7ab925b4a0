package shellread

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Line is what a command line runs, as the rules see it.
type Line struct {
	// cmds are the simple commands, in order, including those inside
	// substitutions, functions and code strings.
	cmds []Cmd
	// uncovered says why no allow rule can cover the line; "" when the
	// rules decide.
	uncovered string
	// partial says why the line was not read in full: the reading
	// stopped short of it (too deep, too many commands, or a line that
	// does not parse, whose lines before the error bash still runs), or
	// it runs code no reading sees (from a pipe, a value, arithmetic on
	// a value, another language). A deny or ask rule may then miss a
	// command the line runs. "" when the line was read in full.
	partial string
}

// Cmd is one simple command.
type Cmd struct {
	// text is its words as an allow rule matches them, wrappers such as
	// nice and timeout taken off: "git status --short".
	text string
	// prefix is its first words, as a denial advises a rule for it: "git
	// status" (see commandPrefix).
	prefix string
	// seen are further texts deny and ask rules match: the command as
	// written, its name without a folder, what follows a wrapper's options.
	seen []string
	// glob is the command name when it is a file-name pattern (/bin/r?):
	// a deny rule whose command it could name matches.
	glob string
	// guess marks a reading of an unknown command's words (guess.go):
	// a deny or ask rule it matches asks, rather than denies.
	guess bool
	// denyOnly marks a reading of the words that deny and ask rules look
	// at but an allow rule need not cover (a wrapper as written, the
	// words after each of sudo's arguments).
	denyOnly bool
}

// Limits that keep a hostile line from costing more than a glance.
const (
	maxShellDepth = 16  // nested code strings, substitutions and wrappers
	MaxCmds       = 512 // readings of simple commands per line
)

// shellBudget is how many bytes of code and command texts reading a line
// of n bytes may handle, the line's own parse included: a few times the
// line, so the wrappers in front of a command and the code strings in it
// are read, but a line that makes the reader go over the same long words
// again and again (ssh ssh ssh … 'long code') stops, as the depth and
// command bounds alone did not: 20 KB cost 9 GB of reading.
func shellBudget(n int) int { return 4*n + 64<<10 }

// Read reads a command line.
func Read(line string) Line {
	a := &shellReader{budget: shellBudget(len(line))}
	a.code(line)
	a.ranWritten()
	return a.line
}

type shellReader struct {
	line  Line
	depth int
	// denyOnly is set while reading words an allow rule need not cover.
	denyOnly bool
	// budget is what is left of shellBudget.
	budget int
	// inherited are the redirections of the compound commands around the
	// one being read ({ bash -s; } <<< 'code'): the commands inside
	// inherit them.
	inherited []*syntax.Redirect
	// funcs are the functions the line defines, by name: a call to one
	// runs its body with the call's redirections.
	funcs map[string]*syntax.Stmt
	// guessing is set while an unknown command's words are read as
	// guesses; appended while the command read is given more words from
	// xargs's input.
	guessing, appended bool
	// piped is set while the commands read take their input from a pipe.
	piped bool
	// writes are the files the line writes, writesHidden set when it
	// writes one it cannot name; scripts the scripts and programs it runs
	// by their paths (script.go).
	writes       map[string]bool
	writesHidden bool
	scripts      []string
	// names is what the line does with each variable arithmetic may read
	// (arith.go); namesUnknown is set once it may set any.
	names        map[string]uint8
	namesUnknown bool
}

// spend takes n bytes from the budget; once it is spent the reading stops
// short of the line, and spend reports false.
func (a *shellReader) spend(n int) bool {
	if a.budget -= n; a.budget < 0 {
		a.stop("it is too long, or repeats itself too often, to read in full")
		return false
	}
	return true
}

// uncover records why no allow rule covers the line (the first reason).
func (a *shellReader) uncover(why string) {
	if a.line.uncovered == "" {
		a.line.uncovered = why
	}
}

// stop records that the reading stops short of the whole line, or that
// the line runs code no reading sees: no allow rule covers it, and deny
// and ask rules may not see all it runs.
func (a *shellReader) stop(why string) {
	a.uncover(why)
	a.unseen(why)
}

// unseen records that the line runs code no reading sees, for deny and
// ask rules, while an allow rule for the command may still cover it
// (python3 -c is python3's to allow).
func (a *shellReader) unseen(why string) {
	if a.line.partial == "" {
		a.line.partial = why
	}
}

// code reads a piece of shell code: the line itself, or code written out
// in eval, bash -c or a here-document fed to a shell.
func (a *shellReader) code(src string) {
	if a.depth >= maxShellDepth {
		a.stop("it nests code too deeply to read")
		return
	}
	if !a.spend(len(src)) {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.stop("it does not parse as a shell command line (" + clip(err.Error()) + ")")
		a.unparsed(src)
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	if a.depth == 1 {
		// The line itself: each statement of its top level may give a
		// variable a number every later read sees.
		for _, s := range f.Stmts {
			a.stmt(s)
			a.dominates(s)
		}
		return
	}
	// Code a shell runs elsewhere or later (bash -c, eval, trap, an
	// alias's value): no number the line gave a variable is sure to be
	// there, though what the code sets counts for the line.
	saved := a.names
	a.names = nil
	for name, st := range saved {
		if st&nameTainted != 0 {
			a.taint(name)
		}
	}
	a.stmts(f.Stmts)
	inner := a.names
	a.names = saved
	for name, st := range inner {
		if st&nameTainted != 0 {
			a.taint(name)
		}
	}
}

// unparsed gives deny and ask rules a line the parser could not read:
// the line, and each piece between the characters that separate commands.
func (a *shellReader) unparsed(src string) {
	a.add(Cmd{text: strings.Join(strings.Fields(src), " "), denyOnly: true})
	for _, piece := range strings.FieldsFunc(src, func(r rune) bool { return strings.ContainsRune(";&|()`\n{}<>", r) }) {
		if p := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(piece), "$")), " "); p != "" {
			a.add(Cmd{text: p, denyOnly: true})
		}
	}
}

func (a *shellReader) add(c Cmd) {
	if len(a.line.cmds) >= MaxCmds {
		a.stop("it holds too many commands to read")
		return
	}
	n := len(c.text)
	for _, t := range c.seen {
		n += len(t)
	}
	if !a.spend(n) {
		return
	}
	c.denyOnly = c.denyOnly || a.denyOnly || a.guessing
	c.guess = c.guess || a.guessing
	a.line.cmds = append(a.line.cmds, c)
}

func (a *shellReader) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *shellReader) stmt(s *syntax.Stmt) {
	switch {
	case s.Background || s.Coprocess || s.Disown:
		a.uncover("it runs a command in the background, beyond the call")
	}
	for _, r := range s.Redirs {
		a.redirect(r)
	}
	redirs := append(slices.Clip(a.inherited), s.Redirs...)
	if call, ok := s.Cmd.(*syntax.CallExpr); ok {
		a.call(call, redirs)
		return
	}
	if s.Cmd != nil {
		was := a.inherited
		a.inherited = redirs
		a.command(s.Cmd)
		a.inherited = was
	}
}
