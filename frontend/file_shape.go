package frontend

import (
	"fmt"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"

	"github.com/askuser/askuser/ask"
)

// collection is a list or mapping open at some point of the token stream.
type collection struct {
	col   int  // a block collection's column; flow collections need none
	list  bool // a list (block "-" entries or [...]) rather than a mapping
	items int
	start position
}

// shapeCheck follows goccy's tokens the way its parser will nest them, in
// one pass: flow collections by their brackets, block collections by the
// columns of their "-" entries and keys. It stops at the first limit
// exceeded.
type shapeCheck struct {
	p     *fileParser
	block []collection
	flow  []collection
	docs  int
}

// shape reports the first limit the tokens exceed; ok is false if it did.
func (p *fileParser) shape(tks token.Tokens) (ok bool) {
	c := &shapeCheck{p: p}
	for i, tk := range tks {
		if !c.token(tks, i, tk) {
			return false
		}
	}
	return true
}

func (c *shapeCheck) token(tks token.Tokens, i int, tk *token.Token) bool {
	pos := tokenPos(tk.Position.Line, tk.Position.Column)
	switch tk.Type {
	case token.CommentType:
		return true
	case token.DocumentHeaderType:
		if len(c.flow) > 0 {
			return true
		}
		c.block, c.docs = c.block[:0], c.docs+1
		if c.docs > MaxFileItems {
			c.p.add(pos, "more than %d YAML documents (--- lines); an answers file is one document", MaxFileItems)
			return false
		}
	case token.SequenceStartType, token.MappingStartType:
		c.flow = append(c.flow, collection{list: tk.Type == token.SequenceStartType, items: 1, start: pos})
		return c.depth(pos, "look for a [ or { that is never closed")
	case token.SequenceEndType, token.MappingEndType:
		if len(c.flow) > 0 {
			c.flow = c.flow[:len(c.flow)-1]
		}
	case token.CollectEntryType:
		if len(c.flow) > 0 {
			top := &c.flow[len(c.flow)-1]
			top.items++
			return c.items(top, pos)
		}
	case token.SequenceEntryType:
		if len(c.flow) == 0 {
			return c.blockItem(pos, true)
		}
	case token.MappingKeyType:
		if len(c.flow) == 0 {
			return c.blockItem(pos, false)
		}
	case token.MappingValueType:
		if len(c.flow) == 0 {
			if k := keyStart(tks, i); k >= 0 {
				kt := tks[k]
				return c.blockItem(tokenPos(kt.Position.Line, kt.Position.Column), false)
			}
		}
	default:
		if n := len(tk.Value); n > MaxFileScalarBytes {
			c.p.add(pos, "a value of %d bytes (%s); a key, label or free text may be at most %d bytes",
				n, quotePrefix(tk.Value), MaxFileScalarBytes)
			return false
		}
	}
	return true
}

// keyStart is the index of the first token of the block mapping key before
// the ":" at i, on the same line (an anchor or tag counts as part of it), or
// -1 when the ":" starts its line (the value of a "?" key).
func keyStart(tks token.Tokens, i int) int {
	line := tks[i].Position.Line
	k := i - 1
	if k < 0 || tks[k].Position.Line != line {
		return -1
	}
	for k > 0 && tks[k-1].Position.Line == line {
		switch {
		case tks[k-1].Type == token.TagType:
			k--
		case tks[k-1].Type == token.AnchorType:
			k--
		case k > 1 && tks[k-1].Type == token.StringType && tks[k-2].Type == token.AnchorType && tks[k-2].Position.Line == line:
			k -= 2 // &name: goccy gives the name as a string after the anchor
		default:
			return k
		}
	}
	return k
}

// blockItem places a "-" entry (list) or a key at pos: another item of the
// collection at that column, or a new collection inside the ones left of
// it. A list may sit at the same column as the key that holds it.
func (c *shapeCheck) blockItem(pos position, list bool) bool {
	for n := len(c.block); n > 0; n = len(c.block) {
		top := c.block[n-1]
		if top.col < pos.col || (top.col == pos.col && (top.list == list || list)) {
			break
		}
		c.block = c.block[:n-1]
	}
	if n := len(c.block); n > 0 && c.block[n-1].col == pos.col && c.block[n-1].list == list {
		top := &c.block[n-1]
		top.items++
		return c.items(top, pos)
	}
	c.block = append(c.block, collection{col: pos.col, list: list, items: 1, start: pos})
	return c.depth(pos, `look for indentation or "- " that keeps growing`)
}

func (c *shapeCheck) depth(pos position, hint string) bool {
	if len(c.block)+len(c.flow) <= MaxFileDepth {
		return true
	}
	c.p.add(pos, "lists and mappings nested more than %d deep; an answers file needs 4 at most "+
		"(answers: → a question → {select: [labels]}): %s", MaxFileDepth, hint)
	return false
}

func (c *shapeCheck) items(top *collection, pos position) bool {
	if top.items <= MaxFileItems {
		return true
	}
	what := "entries in the mapping"
	if top.list {
		what = "items in the list"
	}
	c.p.add(pos, "more than %d %s that starts at line %d; an answers file answers at most %d questions, each with a few labels",
		MaxFileItems, what, top.start.line, MaxFileItems)
	return false
}

// quotePrefix quotes the start of a long value, for an error that must not
// echo all of it.
func quotePrefix(s string) string {
	const keep = 40
	cut := 0
	for i := 0; i < keep && cut < len(s); i++ {
		_, n := utf8.DecodeRuneInString(s[cut:])
		cut += n
	}
	return fmt.Sprintf("%q…", ask.Display(s[:cut]))
}
