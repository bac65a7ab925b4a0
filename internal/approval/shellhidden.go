package approval

import (
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
