package shellread

import (
	"mvdan.cc/sh/v3/syntax"
)

// Where arithmetic is: words() walks every node, a C-style for is read in
// order, and the line's top level gives variables numbers
// (arith.go).

// arithmNode checks the arithmetic a node evaluates, if it is one that
// does: words() calls it for every node it walks. A C-style for is read
// by cLoop.
func (a *shellReader) arithmNode(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		a.arithm(n.X)
	case *syntax.ArithmCmd:
		a.arithm(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			a.arithm(x)
		}
	case *syntax.ParamExp:
		if n.Index != nil && !allElements(n.Index) {
			a.arithm(n.Index)
		}
		if n.Slice != nil {
			a.arithm(n.Slice.Offset)
			a.arithm(n.Slice.Length)
		}
	case *syntax.Assign:
		if n.Index != nil {
			a.arithm(n.Index)
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			a.arithm(n.Index)
		}
	}
}

// cLoop reads for ((init; cond; post)): the variables init gives numbers
// hold numbers in the loop.
func (a *shellReader) cLoop(c *syntax.ForClause, cl *syntax.CStyleLoop) {
	a.arithm(cl.Init)
	var added []string
	for _, name := range arithAssigned(cl.Init) {
		if a.names[name]&(nameNumeric|nameTainted) == 0 {
			a.setNumeric(name)
			added = append(added, name)
		}
	}
	a.arithm(cl.Cond)
	a.arithm(cl.Post)
	a.words(cl) // substitutions in it
	a.stmts(c.Do)
	for _, name := range added {
		a.names[name] &^= nameNumeric // after the loop, only if the loop is sure to run (dominates)
	}
}

// arithAssigned are the variables an expression sure to be evaluated
// gives numbers: its assignments, but those behind ?:, && or ||.
func arithAssigned(x syntax.ArithmExpr) []string {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if x.Op == syntax.Comma {
			return append(arithAssigned(x.X), arithAssigned(x.Y)...)
		}
		if name, ok := arithName(x.X); ok && isArithAssign(x.Op) {
			return []string{name}
		}
	case *syntax.UnaryArithm:
		if name, ok := arithName(x.X); ok && (x.Op == syntax.Inc || x.Op == syntax.Dec) {
			return []string{name}
		}
	case *syntax.ParenArithm:
		return arithAssigned(x.X)
	}
	return nil
}

// dominates notes the numbers a statement of the line's top level is sure
// to give variables before the statements after it run: plain x=5 or
// x=$((…)), ((…)), let, declare, the first part of for ((…)), and the
// same in a { } block or before && or ||.
func (a *shellReader) dominates(s *syntax.Stmt) {
	if s.Background || s.Coprocess {
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			a.numericAssigns(c.Assigns)
		}
	case *syntax.DeclClause:
		a.numericAssigns(c.Args)
	case *syntax.ArithmCmd:
		for _, name := range arithAssigned(c.X) {
			a.setNumeric(name)
		}
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			for _, name := range arithAssigned(x) {
				a.setNumeric(name)
			}
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			a.dominates(c.X)
		}
	case *syntax.Block:
		for _, st := range c.Stmts {
			a.dominates(st)
		}
	case *syntax.ForClause:
		if cl, ok := c.Loop.(*syntax.CStyleLoop); ok {
			for _, name := range arithAssigned(cl.Init) {
				a.setNumeric(name)
			}
		}
	}
}

func (a *shellReader) numericAssigns(list []*syntax.Assign) {
	for _, as := range list {
		if as.Name != nil && !as.Naked && !as.Append && as.Index == nil && as.Array == nil && as.Value != nil && numericValue(as.Value) {
			a.setNumeric(as.Name.Value)
		}
	}
}
