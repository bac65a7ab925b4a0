package approval

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line is read with a real shell parser (mvdan.cc/sh, as bash
// reads it) and never run. The rules then see it as the simple commands it
// would run:
//   - an allow rule covers a line only when every simple command in it is
//     allowed, and nothing in it runs code no rule can see (a command or
//     process substitution, eval, sh -c, a function, a variable set for a
//     command, arithmetic) or writes where no rule looks (a redirection to
//     a file, a background job); a line that does not parse is never
//     covered;
//   - a deny or ask rule matches when any command the line would run
//     matches it, wherever it is: after && or |, inside $(…), inside
//     bash -c '…' or eval when the code is written out, in a here-document
//     or here-string a shell reads (given to it, or to a block, loop,
//     function or wrapper around it), behind sudo, xargs, env, nice,
//     timeout, find -exec, or named by a path (/bin/rm).
//
// Either way a line that cannot be read does not get through: at worst a
// person is asked.

// shellLine is what a command line runs, as the rules see it.
type shellLine struct {
	// cmds are the simple commands, in order, including those inside
	// substitutions, functions and code strings.
	cmds []shellCmd
	// uncovered says why no allow rule can cover the line; "" when the
	// rules decide.
	uncovered string
	// partial says why the reading stopped short of the whole line (too
	// deep, too many commands, or a line that does not parse, whose lines
	// before the error bash still runs): a deny or ask rule may then miss
	// a command the line runs. "" when the line was read in full.
	partial string
}

// shellCmd is one simple command.
type shellCmd struct {
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
	// denyOnly marks a reading of the words that deny and ask rules look
	// at but an allow rule need not cover (a wrapper as written, the
	// words after each of sudo's arguments).
	denyOnly bool
}

// Limits that keep a hostile line from costing more than a glance.
const (
	maxShellDepth = 16  // nested code strings, substitutions and wrappers
	maxShellCmds  = 512 // readings of simple commands per line
)

// shellBudget is how many bytes of code and command texts reading a line
// of n bytes may handle, the line's own parse included: a few times the
// line, so the wrappers in front of a command and the code strings in it
// are read, but a line that makes the reader go over the same long words
// again and again (ssh ssh ssh … 'long code') stops, as the depth and
// command bounds alone did not: 20 KB cost 9 GB of reading.
func shellBudget(n int) int { return 4*n + 64<<10 }

// readShell reads a command line.
func readShell(line string) shellLine {
	a := &shellReader{budget: shellBudget(len(line))}
	a.code(line)
	return a.line
}

type shellReader struct {
	line  shellLine
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

// stop records that the reading stops short of the whole line: no allow
// rule covers it, and deny and ask rules may not see all it runs.
func (a *shellReader) stop(why string) {
	a.uncover(why)
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
	a.stmts(f.Stmts)
	a.depth--
}

// unparsed gives deny and ask rules a line the parser could not read:
// the line, and each piece between the characters that separate commands.
func (a *shellReader) unparsed(src string) {
	a.add(shellCmd{text: strings.Join(strings.Fields(src), " "), denyOnly: true})
	for _, piece := range strings.FieldsFunc(src, func(r rune) bool { return strings.ContainsRune(";&|()`\n{}<>", r) }) {
		if p := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(piece), "$")), " "); p != "" {
			a.add(shellCmd{text: p, denyOnly: true})
		}
	}
}

func (a *shellReader) add(c shellCmd) {
	if len(a.line.cmds) >= maxShellCmds {
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
	c.denyOnly = c.denyOnly || a.denyOnly
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

// command reads a compound command: every command inside it is read, and
// the constructs that run code no rule sees uncover the line.
func (a *shellReader) command(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		a.stmt(c.X)
		a.stmt(c.Y)
	case *syntax.Block:
		a.stmts(c.Stmts)
	case *syntax.Subshell:
		a.stmts(c.Stmts)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			a.stmts(c.Cond)
			a.stmts(c.Then)
		}
	case *syntax.WhileClause:
		a.stmts(c.Cond)
		a.stmts(c.Do)
	case *syntax.ForClause:
		a.uncover("it sets a variable (a for loop), which can change what a later command runs")
		a.words(c.Loop)
		a.stmts(c.Do)
	case *syntax.CaseClause:
		a.words(c.Word)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				a.words(p)
			}
			a.stmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		a.uncover("it defines a function, which can stand in for any command name")
		if a.funcs == nil {
			a.funcs = map[string]*syntax.Stmt{}
		}
		// zsh's anonymous functions have no name; its f g () {…} has several.
		for _, n := range append([]*syntax.Lit{c.Name}, c.Names...) {
			if n != nil {
				a.funcs[n.Value] = c.Body
			}
		}
		if c.Body != nil {
			a.stmt(c.Body)
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt)
		}
	case *syntax.TestClause:
		if why := arithmTest(c.X); why != "" {
			a.uncover(why)
		}
		a.words(c.X)
	case *syntax.ArithmCmd, *syntax.LetClause:
		a.uncover("it evaluates arithmetic, which can run commands through array subscripts")
		a.words(c)
	case *syntax.DeclClause:
		a.uncover("it sets a variable (" + c.Variant.Value + "), which can change what a later command runs")
		a.assigns(c.Args)
	case *syntax.CoprocClause:
		a.uncover("it starts a coprocess, beyond the call")
		a.stmt(c.Stmt)
	default:
		a.uncover("it holds a construct askuser does not read")
		a.words(c)
	}
}

// redirect reads a redirection: copying or closing a stream, a here-
// document and /dev/null are harmless; any other file is not.
func (a *shellReader) redirect(r *syntax.Redirect) {
	a.words(r.Word)
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		// {fd}>&2 sets fd, and bash and zsh evaluate a subscript in the
		// name ({a[_]}) as arithmetic, which can run commands.
		a.uncover("it names a file descriptor by a variable (" + clip(r.N.Value+r.Op.String()) + "), which sets it, and a subscript can run commands")
	}
	if r.Hdoc != nil {
		a.words(r.Hdoc)
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	}
	// The file, or for <& and >& a descriptor (2) or - (close).
	w := readWord(r.Word)
	dup := r.Op == syntax.DplIn || r.Op == syntax.DplOut
	if w.literal && (harmlessFile(w.value) || dup && (w.value == "-" || w.value != "" && strings.Trim(w.value, "0123456789") == "")) {
		return
	}
	a.uncover("it redirects to or from a file (" + clip(r.Op.String()+source(r.Word)) + ")")
}

// harmlessFile is a file a redirection may name without touching anything.
func harmlessFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// nested reads the statements of a substitution, one level deeper.
func (a *shellReader) nested(list []*syntax.Stmt) {
	if a.depth >= maxShellDepth {
		a.stop("it nests commands too deeply to read")
		return
	}
	a.depth++
	a.stmts(list)
	a.depth--
}

// call reads a simple command.
func (a *shellReader) call(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	a.assigns(c.Assigns)
	if len(c.Assigns) > 0 {
		// PATH=. git status runs ./git; GIT_PAGER, LD_PRELOAD and BASH_ENV
		// run anything. Deny rules still see the command.
		a.uncover("it sets a variable for the command, which can change what it runs")
	}
	if len(c.Args) == 0 {
		return
	}
	ws := make([]word, len(c.Args))
	for i, w := range c.Args {
		a.words(w)
		ws[i] = readWord(w)
	}
	a.simple(ws, redirs)
	if body := a.funcs[ws[0].value]; body != nil && ws[0].literal && feedsCode(redirs) {
		a.calledFunc(body, redirs)
	}
}

// assigns reads variables set for a command or by export, declare and
// the like. A value written out that reads as code is read as code by
// deny and ask rules: many variables are run (PROMPT_COMMAND,
// GIT_SSH_COMMAND, PAGER).
func (a *shellReader) assigns(list []*syntax.Assign) {
	for _, as := range list {
		a.words(as)
		if as.Value == nil {
			continue
		}
		if w := readWord(as.Value); w.literal && strings.ContainsAny(w.value, " \t\n;&|") {
			a.denyCode(w.value)
		}
	}
}

// denyCode reads src as code for deny and ask rules only.
func (a *shellReader) denyCode(src string) {
	was := a.denyOnly
	a.denyOnly = true
	a.code(src)
	a.denyOnly = was
}

// calledFunc reads, for deny and ask rules, a function's body again as a
// call runs it: with the call's redirections (f <<< 'code', where f runs
// bash -s).
func (a *shellReader) calledFunc(body *syntax.Stmt, redirs []*syntax.Redirect) {
	if a.budget < 0 || len(a.line.cmds) >= maxShellCmds {
		a.stop("it calls its functions too often to read") // f() { f <<< x; f <<< x; } would read 2^depth bodies
		return
	}
	was, wasInherited := a.denyOnly, a.inherited
	a.denyOnly, a.inherited = true, redirs
	a.nested([]*syntax.Stmt{body})
	a.denyOnly, a.inherited = was, wasInherited
}

// feedsCode reports whether redirs write out what a command reads: a
// here-document or a here-string.
func feedsCode(redirs []*syntax.Redirect) bool {
	return slices.ContainsFunc(redirs, func(r *syntax.Redirect) bool { return r.Hdoc != nil || r.Op == syntax.WordHdoc })
}

// simple reads the words of one simple command: the command as an allow
// rule sees it, and what the wrappers in front of it run.
func (a *shellReader) simple(ws []word, redirs []*syntax.Redirect) {
	if a.depth >= maxShellDepth || len(a.line.cmds) >= maxShellCmds || a.budget < 0 {
		a.stop("it nests or holds too many commands to read")
		return
	}
	name := ws[0]
	c := shellCmd{text: joinWords(ws), prefix: commandPrefix(ws), glob: name.glob}
	switch {
	case name.glob != "":
		a.uncover("the command's name is a pattern (" + clip(name.text) + "), so no rule can tell what it runs")
	case !name.literal:
		// $RM, "$@", ~/bin/rm, {rm,-rf,x}: a deny rule cannot see it
		// either, so the line is asked about even under bypassPermissions.
		a.stop("the command's name is not written out (" + clip(name.text) + "), so no rule can tell what it runs")
	default:
		c.seen = nameForms(name.value, ws[1:])
	}
	kind := commandKind(name)
	if kind.wrapper == nil && kind.code == nil {
		a.add(c)
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	if kind.code != nil {
		a.add(c)
		kind.code(a, ws, redirs)
		return
	}
	a.wrapped(c, ws, redirs, kind.wrapper)
}

// nameForms are the texts a deny rule also sees when the command's name
// has a folder (/bin/rm) or zsh's = (=rm runs rm).
func nameForms(name string, args []word) []string {
	var out []string
	for _, n := range []string{path.Base(name), strings.TrimPrefix(name, "=")} {
		if n != name && n != "." && n != "/" && n != "" {
			out = append(out, joinWords(append([]word{{text: quoted(n)}}, args...)))
		}
	}
	return out
}
