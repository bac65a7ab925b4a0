package shellread

import (
	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates arithmetic in many places: $((…)), ((…)), let, a
// C-style for, an array's subscript (${a[i]}, a[i]=x, ([i]=x)), a slice
// (${x:i}), the operands of [[ … -eq … ]], a name given to printf -v,
// read, test -v and the like, and a variable declared -i. A name in it is
// read for its value, and that value is evaluated as arithmetic in turn:
// after echo 'a[$(rm -f v)]', $((_)) runs rm. No rule sees that command,
// so arithmetic that reads anything but a number leaves the line not read
// in full: a deny or ask rule that names Bash asks about it.
//
// A number is written out (3, 16#ff), an expansion that is always one
// ($#, ${#x}), or a variable the line itself gave a number before every
// read of it: set at the top level of the line, not behind && or || or
// in a loop (i=0; x=$((…)); ((n=5)); let n=5), or in a for ((…))'s first
// part, for the loop. A variable the line sets anywhere to anything else
// (read, for … in, x=$y, a function, a sourced file) is no number, and a
// read of it that came earlier counts too (a loop reads it again).

// Bits of what the line does with a variable's name.
const (
	nameNumeric uint8 = 1 << iota // it holds a number where it is read
	nameTainted                   // the line sets it to something else
	nameRead                      // arithmetic reads it
)

// numericVars are bash's own variables that always hold a number.
var numericVars = map[string]bool{"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true, "BASHPID": true,
	"PPID": true, "UID": true, "EUID": true, "EPOCHSECONDS": true, "BASH_SUBSHELL": true, "OPTIND": true}

// arithm checks an arithmetic expression, in the order bash evaluates it.
func (a *shellReader) arithm(x syntax.ArithmExpr) {
	if x != nil && !a.arithmSafe(x) {
		a.stop("it evaluates arithmetic on a value not written out (" + clip(source(x)) + "), which runs any command an array subscript in that value names")
	}
}

// arithmSafe reports whether an expression reads only numbers, noting
// the variables it reads and the numbers it gives them.
func (a *shellReader) arithmSafe(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *syntax.Word:
		return a.arithmWord(x)
	case *syntax.ParenArithm:
		return a.arithmSafe(x.X)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			name, ok := arithName(x.X)
			return ok && a.readName(name) // it reads the variable, then gives it a number
		}
		return a.arithmSafe(x.X)
	case *syntax.BinaryArithm:
		if isArithAssign(x.Op) {
			safe := a.arithmSafe(x.Y)
			name, ok := arithName(x.X)
			if !ok {
				return false // a[i] = …: its subscript is read as well
			}
			if x.Op != syntax.Assgn {
				safe = a.readName(name) && safe
			}
			return safe
		}
		left := a.arithmSafe(x.X)
		return a.arithmSafe(x.Y) && left
	}
	return false
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn,
		syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn,
		syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// arithName is the plain name an arithmetic operand is (i, not a[i]).
func arithName(x syntax.ArithmExpr) (string, bool) {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return lit.Value, ok && isName(lit.Value) && (lit.Value[0] < '0' || lit.Value[0] > '9')
}

// arithmWord reports whether a word in arithmetic is a number: digits
// first (a base, 16#ff, takes letters after), an expansion that is always
// one, or a variable that holds one ($i or i).
func (a *shellReader) arithmWord(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		if p.Value != "" && p.Value[0] >= '0' && p.Value[0] <= '9' {
			return true
		}
		return isName(p.Value) && a.readName(p.Value)
	case *syntax.ParamExp:
		if numericParam(p) {
			return true
		}
		plain := !p.Excl && !p.Length && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Param != nil
		return plain && isName(p.Param.Value) && a.readName(p.Param.Value)
	}
	return false
}

// numericParam reports whether an expansion is always a number: $#, $?,
// $$, $!, or a length ${#x} with no subscript to evaluate.
func numericParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Param == nil {
		return false
	}
	if p.Length {
		return p.Index == nil || allElements(p.Index)
	}
	switch p.Param.Value {
	case "#", "?", "$", "!":
		return p.Index == nil
	}
	return false
}

// allElements reports whether a subscript is @ or *, which name every
// element rather than evaluating anything.
func allElements(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	return ok && (lit.Value == "@" || lit.Value == "*")
}

// readName notes that arithmetic reads a variable, and reports whether it
// holds a number there.
func (a *shellReader) readName(name string) bool {
	if a.names == nil {
		a.names = map[string]uint8{}
	}
	a.names[name] |= nameRead
	st := a.names[name]
	if st&nameTainted != 0 || a.namesUnknown && !numericVars[name] {
		return false
	}
	return st&nameNumeric != 0 || numericVars[name]
}

// setNumeric notes that the line gives a variable a number before every
// read of it that follows.
func (a *shellReader) setNumeric(name string) {
	if a.names == nil {
		a.names = map[string]uint8{}
	}
	if a.names[name]&nameTainted == 0 {
		a.names[name] |= nameNumeric
	}
}

// taint notes that the line sets a variable to something that may not be
// a number: an earlier read of it in arithmetic no longer counts as one.
func (a *shellReader) taint(name string) {
	if a.names == nil {
		a.names = map[string]uint8{}
	}
	if a.names[name]&(nameRead|nameTainted) == nameRead {
		a.stop("it reads " + clip(name) + " in arithmetic and sets it to a value that may not be a number, which runs any command an array subscript in it names")
	}
	a.names[name] = a.names[name]&^nameNumeric | nameTainted
}

// setsAnything notes that the line may set any variable (source runs a
// file's code in the shell itself).
func (a *shellReader) setsAnything() {
	for name, st := range a.names {
		if st&nameRead != 0 && !numericVars[name] {
			a.stop("it reads " + clip(name) + " in arithmetic and runs code (source) that may set it to anything")
			break
		}
	}
	a.namesUnknown = true
}

// assigned notes a value the line gives a variable: a number keeps it
// one; anything else taints it.
func (a *shellReader) assigned(name string, value *syntax.Word, array bool) {
	if array || value != nil && !numericValue(value) {
		a.taint(name)
	}
}

// numericValue reports whether a value is a number: digits written out,
// or one arithmetic expansion.
func numericValue(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		digits := p.Value
		if len(digits) > 1 && digits[0] == '-' {
			digits = digits[1:]
		}
		return digits != "" && len(digits) < 19 && isDigits(digits)
	case *syntax.ArithmExp:
		return true
	}
	return false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
