package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// command reads a compound command: every command inside it is read, and
// the constructs that run code no rule sees uncover the line.
func (a *shellReader) command(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		a.stmt(c.X)
		was := a.piped
		a.piped = a.piped || c.Op == syntax.Pipe || c.Op == syntax.PipeAll
		a.stmt(c.Y)
		a.piped = was
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
		a.loopVar(c)
		if cl, ok := c.Loop.(*syntax.CStyleLoop); ok {
			a.cLoop(c, cl)
			return
		}
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
			a.stop(why)
		}
		a.words(c.X)
	case *syntax.ArithmCmd, *syntax.LetClause:
		a.uncover("it evaluates arithmetic, which can run commands through array subscripts")
		a.words(c)
	case *syntax.DeclClause:
		a.declare(c)
	case *syntax.CoprocClause:
		a.uncover("it starts a coprocess, beyond the call")
		if c.Name != nil {
			if w := readWord(c.Name); w.literal {
				a.taint(w.value)
			}
		}
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
		// name ({a[_]}) as arithmetic, which runs any command a value in
		// it names.
		why := "it names a file descriptor by a variable (" + clip(r.N.Value+r.Op.String()) + "), which sets it, and a subscript can run commands"
		if strings.Contains(r.N.Value, "[") {
			a.stop(why)
		} else {
			a.uncover(why)
		}
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
	if r.Op != syntax.RdrIn && r.Op != syntax.DplIn {
		a.wrote(w)
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
