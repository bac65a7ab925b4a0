package shellread

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
	if a.budget < 0 || len(a.line.cmds) >= MaxCmds {
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
	if a.depth >= maxShellDepth || len(a.line.cmds) >= MaxCmds || a.budget < 0 {
		a.stop("it nests or holds too many commands to read")
		return
	}
	appended := a.appended
	a.appended = false
	name := ws[0]
	c := Cmd{text: joinWords(ws), prefix: commandPrefix(ws), glob: name.glob}
	switch {
	case name.glob != "":
		a.uncover("the command's name is a pattern (" + clip(name.text) + "), so no rule can tell what it runs")
	case !name.literal:
		// $RM, "$@", ~/bin/rm, {rm,-rf,x}: a deny rule cannot see it
		// either, so the line is asked about even under bypassPermissions.
		a.stop("the command's name is not written out (" + clip(name.text) + "), so no rule can tell what it runs")
	default:
		c.seen = nameForms(name.value, ws[1:])
		if strings.Contains(name.value, "/") {
			a.ran(name.value)
		}
	}
	a.noteWrites(ws)
	kind := commandKind(name)
	if name.literal && slices.Contains(stdinShells, commandBase(name)) {
		a.fedShell(clip(name.text), redirs)
	}
	if appended && !a.takesAppended(ws, kind) {
		a.stop("it runs " + clip(name.text) + " with words xargs takes from its input, which may make it run code no rule sees")
	}
	if kind.wrapper == nil && kind.code == nil {
		a.add(c)
		a.guess(c, ws, redirs)
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	if kind.code != nil {
		a.add(c)
		kind.code(a, ws, redirs)
		return
	}
	a.wrapped(c, ws, redirs, kind.wrapper, appended)
}

// nameForms are the texts a deny rule also sees when the command's name
// has a folder (/bin/rm) or zsh's = (=rm runs rm).
func nameForms(name string, args []word) []string {
	var out []string
	for _, n := range []string{path.Base(name), strings.TrimPrefix(name, "=")} {
		if n != name && n != "." && n != "/" && n != "" {
			out = append(out, joinWords(append([]word{{text: Quote(n)}}, args...)))
		}
	}
	return out
}
