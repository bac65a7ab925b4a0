package approval

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code hides in words: an expansion, a test or a pattern that a glance
// reads as an argument can run a command when the line runs. The reader
// looks for each such place, reads what it can of the code for deny and
// ask rules, and says why no allow rule covers the line.

// words looks inside a node's words for the expansions that run code.
func (a *shellReader) words(n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.uncover("it runs a command substitution ($(…) or `…`)")
			a.nested(n.Stmts)
			return false
		case *syntax.ProcSubst:
			a.uncover("it runs a process substitution (<(…) or >(…))")
			a.nested(n.Stmts)
			return false
		case *syntax.ArithmExp:
			a.uncover("it evaluates arithmetic ($((…))), which can run commands through array subscripts")
		case *syntax.ExtGlob:
			// zsh, the shell many hosts run commands in, reads *(e:…:) as
			// a glob qualifier that runs code.
			a.uncover("it holds a pattern list (*(…), ?(…), @(…)), which zsh reads as a glob qualifier that can run code")
		case *syntax.ParamExp:
			if why := riskyParam(n); why != "" {
				a.uncover(why)
			}
		case *syntax.Word:
			if zshExpansion(n.Parts) {
				a.uncover("it holds $~, $=, $^ or $+, which zsh expands (a value read as a pattern can run code)")
			}
		}
		return true
	})
}

// zshExpansion reports whether parts hold a $ followed by ~, =, ^ or +:
// text to bash (and so to the parser), but in zsh, the shell many hosts
// run commands in, an expansion: $~x reads x's value as a pattern, whose
// glob qualifier *(e:…:) runs code, and $=x splits it into words. Such a
// value can come from the line itself ($_ is the previous command's last
// word).
func zshExpansion(parts []syntax.WordPart) bool {
	dollar := false // the last literal text ended in $
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if dollar && v != "" && strings.ContainsRune("~=^+", rune(v[0])) {
				return true
			}
			for i := 0; i+1 < len(v); i++ {
				if v[i] == '$' && strings.IndexByte("~=^+", v[i+1]) >= 0 {
					return true
				}
			}
			dollar = strings.HasSuffix(v, "$")
		case *syntax.DblQuoted:
			if zshExpansion(p.Parts) {
				return true
			}
			dollar = false
		default:
			dollar = false
		}
	}
	return false
}

// riskyParam says why a parameter expansion can run or change code:
// subscripts and slices are arithmetic, ${!x} reads a name from a value,
// ${x=…} assigns, ${x@P} expands a prompt (which runs substitutions).
func riskyParam(p *syntax.ParamExp) string {
	switch {
	case p.Index != nil || p.Slice != nil:
		return "it evaluates arithmetic (an array subscript or a slice), which can run commands"
	case p.Excl || p.Names != 0:
		return "it expands a variable named by another (${!x}), which can run commands"
	case p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull):
		return "it sets a variable (${x=…}), which can change what a later command runs"
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps:
		return "it transforms a variable (${x@…}), which can run commands"
	}
	return ""
}

// arithmTest says why a [[ … ]] test can run code, or "": bash evaluates
// the operands of -eq, -ne, -lt, -le, -gt and -ge as arithmetic, where
// a[$(…)] runs a command and a name is read for a value that may hold
// one ([[ _ -eq 0 ]] after echo 'a[$(rm -rf x)]'), and -v and -R read the
// subscript of the name they test. Integers and plain names are safe.
func arithmTest(x syntax.TestExpr) string {
	why := ""
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
				if !integerTest(n.X) || !integerTest(n.Y) {
					why = "it compares numbers in [[ … ]], which evaluates its operands as arithmetic, and that can run commands"
				}
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
				if w, ok := n.X.(*syntax.Word); !ok || !plainName(readWord(w)) {
					why = "it tests a variable in [[ … ]] by a name that is not plain, whose subscript can run commands"
				}
			}
		}
		return why == ""
	})
	return why
}

// integerTest reports whether a test operand is an integer written out.
func integerTest(x syntax.TestExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	v := readWord(w)
	digits := strings.TrimLeft(v.value, "+-")
	return v.literal && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// plainName reports whether a word is a variable's name, written out.
func plainName(w word) bool { return w.literal && isName(w.value) }

// nameReaders are the builtins that read words as variables' names, and
// a subscript in a name (a[$(…)]) is arithmetic, so it runs a command:
// bash 5.2 and zsh 5.9 were seen to run one for each. Each says whether
// its words may name an element. declare, local, export and let are
// read by the parser and uncovered elsewhere.
var nameReaders = map[string]func(ws []word) bool{
	"read":    anyName,                                                       // every word may be a name (zsh's -t takes no value)
	"unset":   anyName,                                                       // GROUPS, DIRSTACK and FUNCNAME are arrays in every bash
	"getopts": func(ws []word) bool { return anyName(ws[:min(len(ws), 3)]) }, // the name follows the option string
	"printf":  optionName('v'),
	"print":   optionName('v'), // zsh
	"test":    optionName('v'),
	"[":       optionName('v'),
	"wait":    optionName('p'),
}

// nameCode reads a builtin of nameReaders.
func nameCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	if nameReaders[commandBase(ws[0])](ws) {
		a.uncover("it gives " + clip(ws[0].text) + " a variable name that is not plain (a[…], or not written out), and a subscript can run commands")
	}
}

// anyName reports whether any word after the command may name an
// element.
func anyName(ws []word) bool {
	return slices.ContainsFunc(ws[1:], subscripted)
}

// optionName returns a check of the words after an option letter that
// takes a name (printf -v name, test -v name, wait -p name), joined to it
// or not. A word not written out may be that option, so the word after it
// is checked too ([ "$_" 'a[…]' ] after echo -v). Options are looked for
// among all the words, operands too: askuser does not tell them apart.
func optionName(letter byte) func(ws []word) bool {
	return func(ws []word) bool {
		takes := false // the word before may be the option
		for _, w := range ws[1:] {
			if takes && subscripted(w) {
				return true
			}
			takes = !w.literal
			if w.literal && strings.HasPrefix(w.value, "-") && !strings.HasPrefix(w.value, "--") {
				i := strings.IndexByte(w.value, letter)
				if i > 0 && subscripted(word{literal: true, value: w.value[i+1:]}) {
					return true
				}
				takes = i == len(w.value)-1
			}
		}
		return false
	}
}

// subscripted reports whether a word may name an array element: a name
// character before a [ anywhere in it (so a prompt such as "Continue
// [y/N]" does not), or a word not written out, whose value may be one.
func subscripted(w word) bool {
	if !w.literal {
		return true
	}
	for i := 1; i < len(w.value); i++ {
		if w.value[i] == '[' && isName(w.value[i-1:i]) {
			return true
		}
	}
	return false
}
