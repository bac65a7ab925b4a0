package shellread

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code a shell runs from a string (bash -c, eval, trap) or from its input
// (bash with no script, -s, /dev/stdin, source /dev/fd/0) is read for deny
// and ask rules where the line writes it out: in the word itself, or in a
// here-document or here-string on the descriptor the shell reads. Where
// the code is not written out (a pipe: echo 'rm -rf x' | sh; a variable:
// bash -c "$x"; a substitution: source <(…)), no rule can see what it
// runs, so the line is not read in full: a deny or ask rule that names
// Bash asks about it, under every mode. No allow rule with a specifier
// covers code from a string or an input. Running a script file (bash
// build.sh) is a command like any other.

// shellCode reads sh, bash and the like.
func shellCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	name := clip(ws[0].text)
	o := readShellOptions(ws, commandBase(ws[0]) == "fish")
	if o.unknown != "" {
		a.writtenCode(ws[1:], redirs) // what can be read of it
		a.stop("it runs " + name + " with a word askuser does not read (" + clip(o.unknown) + "), which may make it run code from anywhere")
		return
	}
	for _, w := range o.init {
		a.codeWord(w, name+"'s start-up")
	}
	switch {
	case o.command:
		a.uncover("it runs shell code from a string (" + name + " -c)")
		if o.operand >= len(ws) {
			a.stop("it runs " + name + " -c with no code written out: the code comes from elsewhere (xargs's input)")
			return
		}
		a.codeWord(ws[o.operand], name+" -c")
	case o.operand < len(ws) && !o.stdin:
		a.scriptFile(ws[0], ws[o.operand], redirs)
	default:
		a.uncover("it runs shell code from its input (" + name + ")")
		a.inputCode(0, name, redirs)
	}
}

// shellOptions is what a shell's options say about where its code is.
type shellOptions struct {
	command, stdin bool // -c, -s
	// operand is the index of the first word after the options: the
	// code for -c, else the script.
	operand int
	// init are words run as code before the script (fish -C).
	init []word
	// unknown is a word askuser does not read as an option.
	unknown string
}

// shellLongOptions are the long options of bash and the like that take
// no value; --rcfile and --init-file take one (a file, read only by an
// interactive shell).
var shellLongOptions = []string{"login", "noediting", "noprofile", "norc", "posix", "restricted", "verbose", "version", "help",
	"debugger", "dump-po-strings", "dump-strings", "pretty-print", "no-config", "no-execute", "interactive", "private"}

func readShellOptions(ws []word, fish bool) shellOptions {
	var o shellOptions
	i := 1
	for ; i < len(ws); i++ {
		w := ws[i]
		if !w.literal {
			o.unknown = w.text // it may be -c
			return o
		}
		v := w.value
		if v == "--" || v == "-" {
			i++
			break
		}
		if long, ok := strings.CutPrefix(v, "--"); ok {
			name, _, hasValue := strings.Cut(long, "=")
			switch {
			case name == "rcfile" || name == "init-file":
				if !hasValue {
					i++
				}
			case !containsString(shellLongOptions, name):
				o.unknown = v
				return o
			}
			continue
		}
		if len(v) < 2 || v[0] != '-' && v[0] != '+' {
			break
		}
		for _, ch := range v[1:] {
			switch {
			case ch == 'c':
				o.command = true
			case ch == 's':
				o.stdin = true
			case ch == 'o' || ch == 'O':
				i++ // set -o name, shopt -O name
			case fish && ch == 'C':
				if i+1 < len(ws) {
					o.init = append(o.init, ws[i+1])
				}
				i++
			}
		}
	}
	o.operand = i
	return o
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// codeWord reads a word that is run as shell code: for deny and ask rules
// where it is written out; not written out, it hides what it runs.
func (a *shellReader) codeWord(w word, what string) {
	if w.code != "" {
		a.denyCode(w.code)
	}
	if !w.literal {
		a.stop("it runs code not written out (" + what + " " + clip(w.text) + "), which no rule can see")
	}
}

// sourceCode reads source and ., which run a file's code in the shell
// itself: a file named is a command like any other, as bash build.sh is.
func sourceCode(a *shellReader, ws []word, redirs []*syntax.Redirect) {
	if len(ws) < 2 {
		return // bash refuses it
	}
	a.setsAnything() // the file's code runs in this shell
	a.scriptFile(ws[0], ws[1], redirs)
}

// scriptFile reads a shell or source given a script's path: a path that
// names a stream rather than a file (bash /dev/stdin <<< 'code') is bash
// -c in disguise, read as the shell's input; a path not written out may
// be one (<(…), "$f").
func (a *shellReader) scriptFile(shell, script word, redirs []*syntax.Redirect) {
	name := clip(shell.text + " " + script.text)
	switch {
	case !script.literal:
		a.stop("it runs shell code from a file named by a value not written out (" + name + "), which may be a stream of code no rule sees")
	case streamPath(script.value):
		a.uncover("it runs shell code from its input (" + name + ")")
		a.inputCode(streamFD(script.value), name, redirs)
	default:
		a.ran(script.value)
	}
}

// streamPath reports whether a script's path may name a stream rather
// than a file: anything in /dev or /proc (/dev/stdin, /dev/fd/3,
// /proc/self/fd/0) and, as a cd earlier in the line may have gone there,
// a relative path that ends in stdin or a descriptor's number, or starts
// with dev/ or proc/.
func streamPath(p string) bool {
	clean := path.Clean(p)
	first, _, _ := strings.Cut(strings.TrimLeft(clean, "/"), "/")
	last := path.Base(clean)
	return first == "dev" || first == "proc" || last == "stdin" || strings.Trim(last, "0123456789") == ""
}

// streamFD is the descriptor a stream's path names (/dev/stdin 0,
// /dev/fd/3 3), or -1 when it names none askuser knows.
func streamFD(p string) int {
	last := path.Base(path.Clean(p))
	if last == "stdin" {
		return 0
	}
	if n, err := strconv.Atoi(last); err == nil && n >= 0 {
		return n
	}
	return -1
}

// inputCode reads the code a shell takes from descriptor fd: for deny and
// ask rules every here-document and here-string given is read; the one
// on fd must be written out in full, or the line is not read in full
// (a pipe, a file named by a value, the call's own input).
func (a *shellReader) inputCode(fd int, name string, redirs []*syntax.Redirect) {
	a.writtenCode(nil, redirs)
	r := lastRedirect(fd, redirs)
	hidden := ""
	switch {
	case fd < 0:
		hidden = "a stream askuser cannot name"
	case r == nil:
		hidden = "its input, which the line does not write out (a pipe, or the call's own input)"
	case r.Hdoc != nil:
		if !literalParts(r.Hdoc.Parts) {
			hidden = "a here-document with expansions"
		}
	case r.Op == syntax.WordHdoc:
		if !readWord(r.Word).literal {
			hidden = "a here-string not written out"
		}
	case r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut:
		if w := readWord(r.Word); !w.literal || streamPath(w.value) {
			hidden = "a file named by a value not written out, or a stream"
		}
		// A file written out is a script like any other.
	default:
		hidden = "a descriptor copied from another (" + clip(r.Op.String()+source(r.Word)) + ")"
	}
	if hidden != "" {
		a.stop("it runs shell code (" + name + ") from " + hidden + ", which no rule can see")
	}
}

// lastRedirect is the redirection that sets descriptor fd last, or nil.
func lastRedirect(fd int, redirs []*syntax.Redirect) *syntax.Redirect {
	var last *syntax.Redirect
	for _, r := range redirs {
		n := 1
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn:
			n = 0
		case syntax.RdrAll, syntax.AppAll:
			continue // &> sets 1 and 2
		}
		if r.N != nil {
			if v, err := strconv.Atoi(r.N.Value); err == nil {
				n = v
			} else {
				n = -1 // {name}: a descriptor bash picks
			}
		}
		if n == fd {
			last = r
		}
	}
	return last
}

// evalCode reads eval: its words, joined, are code.
func evalCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	a.uncover("it runs a string as shell code (eval)")
	a.joinedCode(ws[1:], "eval")
}

// joinedCode reads words that are joined into code (eval, git submodule
// foreach).
func (a *shellReader) joinedCode(ws []word, what string) {
	texts := make([]string, 0, len(ws))
	literal := true
	for _, w := range ws {
		texts = append(texts, w.code)
		literal = literal && w.literal
	}
	a.codeWord(word{text: joinWords(ws), code: strings.Join(texts, " "), literal: literal}, what)
}

// trapCode reads trap, whose first word after its options is code run
// later.
func trapCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	a.uncover("it sets code to run on a signal (trap)")
	for i := 1; i < len(ws); i++ {
		switch w := ws[i]; {
		case w.literal && (w.value == "-l" || w.value == "-p" || w.value == "-lp" || w.value == "-pl"):
			return // lists
		case w.literal && w.value == "--":
			continue
		default:
			a.codeWord(w, "trap")
			return
		}
	}
}

// writtenCode reads, for deny and ask rules, code written out in words
// and in here-documents or here-strings.
func (a *shellReader) writtenCode(args []word, redirs []*syntax.Redirect) {
	was := a.denyOnly
	a.denyOnly = true
	defer func() { a.denyOnly = was }()
	for _, w := range args {
		if w.code != "" {
			a.code(w.code)
		}
	}
	for _, r := range redirs {
		switch {
		case r.Hdoc != nil:
			a.code(source(r.Hdoc))
		case r.Op == syntax.WordHdoc:
			if w := readWord(r.Word); w.code != "" {
				a.code(w.code)
			}
		}
	}
}
