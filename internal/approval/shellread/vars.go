package shellread

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Variables are code in disguise when bash, or a program it starts, runs
// their values (PS4 under set -x, BASH_ENV when a bash starts, GIT_PAGER,
// LD_PRELOAD), and a variable declared -i or -n evaluates what it is
// given as arithmetic or as a name whose subscript runs a command. A
// value written out is read as code for deny and ask rules; a value not
// written out, given to such a variable, leaves the line not read in
// full.

// codeVars are variables whose values are run (or loaded) as code.
var codeVars = map[string]bool{
	"PS0": true, "PS1": true, "PS2": true, "PS4": true, "PROMPT_COMMAND": true, "BASH_ENV": true, "ENV": true,
	"SHELLOPTS": true, "BASHOPTS": true, "FCEDIT": true, "BASH_LOADABLES_PATH": true,
	"PAGER": true, "EDITOR": true, "VISUAL": true, "MANPAGER": true, "BROWSER": true, "LESSOPEN": true, "LESSCLOSE": true,
	"GIT_SSH": true, "GIT_EXTERNAL_DIFF": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true,
	"RSYNC_RSH": true, "CVS_RSH": true, "LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true,
	"PERL5OPT": true, "PERL5LIB": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "NODE_OPTIONS": true, "RUBYOPT": true,
	"MAKEFLAGS": true, "MFLAGS": true, "GNUMAKEFLAGS": true, "SHELL": true,
}

// codeVar reports whether a variable's value is run as code: one of
// codeVars, git's configuration by the environment (GIT_CONFIG_*), a
// function exported by bash (BASH_FUNC_f%%), or a name that says it holds
// a command (GIT_SSH_COMMAND, SYSTEMD_PAGER, SSH_ASKPASS).
func codeVar(name string) bool {
	if codeVars[name] {
		return true
	}
	for _, p := range []string{"GIT_CONFIG", "BASH_FUNC_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	for _, s := range []string{"_COMMAND", "_PAGER", "_EDITOR", "_ASKPASS", "_SHELL"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// assignment reads a value given to a variable, for deny and ask rules:
// a value written out is read as code when it reads as code (a space, ;,
// & or |) or the variable is run (git's !cmd written without its !); a
// value not written out, given to a variable that is run, hides what it
// runs.
func (a *shellReader) assignment(name string, v word) {
	run := codeVar(name)
	switch {
	case v.literal && name == "GIT_CONFIG_PARAMETERS":
		a.gitConfigList(v.value)
	case v.literal && (run || strings.ContainsAny(v.value, " \t\n;&|")):
		a.denyCode(strings.TrimPrefix(v.value, "!"))
	case !v.literal && run:
		if v.code != "" {
			a.denyCode(v.code) // what can be read of it
		}
		a.stop("it sets " + clip(name) + ", whose value is run as code, to a value not written out (" + clip(v.text) + ")")
	}
}

// assigns reads variables set for a command or by export, declare and
// the like (NAME=value; a naked word of declare's is read by declare).
func (a *shellReader) assigns(list []*syntax.Assign) {
	for _, as := range list {
		a.words(as)
		if as.Naked || as.Name == nil {
			continue
		}
		a.assigned(as.Name.Value, as.Value, as.Array != nil)
		switch {
		case as.Array != nil && codeVar(as.Name.Value):
			a.stop("it sets " + clip(as.Name.Value) + ", whose value is run as code, to an array")
		case as.Value != nil:
			a.assignment(as.Name.Value, readWord(as.Value))
		}
	}
}

// declare reads declare, typeset, local, export and readonly: the
// variables they set, and the options that make a variable evaluate what
// it is given (-i: as arithmetic; -n: as the name of another, subscript
// and all).
func (a *shellReader) declare(c *syntax.DeclClause) {
	variant := c.Variant.Value
	a.uncover("it sets a variable (" + variant + "), which can change what a later command runs")
	for _, as := range c.Args {
		if !as.Naked || as.Value == nil {
			continue
		}
		w := readWord(as.Value)
		switch {
		case !w.literal:
			a.stop("it gives " + variant + " a word not written out (" + clip(w.text) + "), which may set a variable that is run or whose subscript runs a command")
		case strings.HasPrefix(w.value, "-") || strings.HasPrefix(w.value, "+"):
			if variant != "export" && strings.ContainsAny(w.value[1:], "in") {
				a.stop("it makes a variable evaluate what it is given (" + variant + " " + clip(w.value) + "), as arithmetic or a name, whose subscript runs a command")
			}
		default:
			name, value, hasValue := strings.Cut(w.value, "=")
			name = strings.TrimSuffix(name, "+")
			if subscripted(word{literal: true, value: name}) {
				a.stop("it gives " + variant + " a name with a subscript (" + clip(name) + "), which runs any command in it")
			}
			if hasValue {
				if !isDigits(value) || value == "" {
					a.taint(name)
				}
				a.assignment(name, word{text: Quote(value), value: value, literal: true, code: value})
			}
		}
	}
	a.assigns(c.Args)
}

// loopVar checks a for or select loop's variable: a loop over values
// given to a variable that is run runs them.
func (a *shellReader) loopVar(c *syntax.ForClause) {
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil {
		return
	}
	a.taint(it.Name.Value)
	if codeVar(it.Name.Value) {
		a.stop("it loops over values given to " + clip(it.Name.Value) + ", whose value is run as code")
	}
}
