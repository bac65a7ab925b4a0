package shellread

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
		a.arithmNode(n)
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
			if n.Exp != nil && n.Param != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				a.taint(n.Param.Value)
			}
			if why, hidden := riskyParam(n); hidden {
				a.stop(why)
			} else if why != "" {
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

// riskyParam says why a parameter expansion can run or change code, and
// whether what it runs is hidden from every rule: ${!x} expands the
// variable x's value names, and a subscript in that name runs a command
// (after echo 'a[$(rm -f v)]', "${!_}" runs rm); ${x@P} expands x's value
// as a prompt, which runs its substitutions; ${x=…} assigns, and a
// variable that is run (PS4, BASH_ENV) then runs the value. Subscripts
// and slices are arithmetic (arithmNode).
func riskyParam(p *syntax.ParamExp) (why string, hidden bool) {
	switch {
	case p.Excl && p.Names == 0 && (p.Index == nil || !allElements(p.Index)):
		return "it expands a variable named by another's value (${!x}), and a subscript in that name runs a command no rule sees", true
	case p.Index != nil || p.Slice != nil:
		return "it evaluates arithmetic (an array subscript or a slice), which can run commands", false
	case p.Excl || p.Names != 0:
		return "it lists variables' names or an array's keys (${!x*}, ${!a[@]})", false
	case p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull):
		if p.Param != nil && codeVar(p.Param.Value) {
			return "it sets " + p.Param.Value + ", whose value bash runs as code", true
		}
		return "it sets a variable (${x=…}), which can change what a later command runs", false
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps:
		if p.Exp.Word != nil && source(p.Exp.Word) == "P" {
			return "it expands a value as a prompt (${x@P}), which runs the command substitutions in it, unseen by any rule", true
		}
		return "it transforms a variable (${x@…}), which can run commands", false
	}
	return "", false
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
// read by the parser (declare, arithmNode).
var nameReaders = map[string]func(ws []word, risky func(word) bool) bool{
	"read":      anyName,                                                                                     // every word may be a name (zsh's -t takes no value)
	"unset":     anyName,                                                                                     // GROUPS, DIRSTACK and FUNCNAME are arrays in every bash
	"getopts":   func(ws []word, risky func(word) bool) bool { return anyName(ws[:min(len(ws), 3)], risky) }, // the name follows the option string
	"printf":    optionName('v'),
	"print":     optionName('v'), // zsh
	"test":      optionName('v'),
	"[":         optionName('v'),
	"wait":      optionName('p'),
	"mapfile":   anyName,
	"readarray": anyName,
}

// nameSetters are the nameReaders that set the variable they name: given
// one that is run (read PS4), they run what no rule sees.
var nameSetters = map[string]bool{"read": true, "getopts": true, "printf": true, "print": true, "wait": true, "mapfile": true, "readarray": true}

// nameCode reads a builtin of nameReaders: a name it is given that is not
// plain, or that names a variable that is run, runs what no rule sees.
// mapfile's -C names code to run as it reads.
func nameCode(a *shellReader, ws []word, _ []*syntax.Redirect) {
	base := commandBase(ws[0])
	risky := subscripted
	if nameSetters[base] {
		risky = func(w word) bool { return subscripted(w) || w.literal && codeVar(w.value) }
	}
	a.taintNames(base, ws)
	if nameReaders[base](ws, risky) {
		a.stop("it gives " + clip(ws[0].text) + " a variable name that is not plain (a[…], or not written out) or whose value is run (PS4), and that runs commands no rule sees")
	}
	if base == "mapfile" || base == "readarray" {
		a.optionCode(ws, 'C')
	}
}

// anyName reports whether any word after the command may name an
// element.
func anyName(ws []word, risky func(word) bool) bool {
	return slices.ContainsFunc(ws[1:], risky)
}

// optionName returns a check of the words after an option letter that
// takes a name (printf -v name, test -v name, wait -p name), joined to it
// or not. A word not written out may be that option, so the word after it
// is checked too ([ "$_" 'a[…]' ] after echo -v). Options are looked for
// among all the words, operands too: askuser does not tell them apart.
func optionName(letter byte) func(ws []word, risky func(word) bool) bool {
	return func(ws []word, risky func(word) bool) bool {
		takes := false // the word before may be the option
		for _, w := range ws[1:] {
			if takes && risky(w) {
				return true
			}
			takes = !w.literal
			if w.literal && strings.HasPrefix(w.value, "-") && !strings.HasPrefix(w.value, "--") {
				i := strings.IndexByte(w.value, letter)
				if i > 0 && risky(word{literal: true, value: w.value[i+1:]}) {
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

// taintNames notes the variables a builtin of nameSetters sets: any word
// of read, getopts and mapfile, the word after printf's -v or wait's -p.
func (a *shellReader) taintNames(base string, ws []word) {
	if !nameSetters[base] {
		return
	}
	option := map[string]string{"printf": "-v", "print": "-v", "wait": "-p"}[base]
	for i, w := range ws[1:] {
		switch {
		case !w.literal || !isName(w.value):
		case option == "" || ws[i].value == option:
			a.taint(w.value)
		}
		if option != "" && w.literal && strings.HasPrefix(w.value, option) && isName(w.value[2:]) {
			a.taint(w.value[2:])
		}
	}
}
