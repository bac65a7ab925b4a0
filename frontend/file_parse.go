package frontend

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/textdist"
)

// The answers file is read through goccy/go-yaml's AST rather than decoded
// into structs, so that every key and value keeps its line and column: a
// problem found when a question is asked, long after loading, can still
// point at the line to fix.

// position is a place in the file, line and column from 1.
type position struct{ line, col int }

// label is one label written in the file.
type label struct {
	text string
	pos  position
}

// entry is one answer written under answers:.
type entry struct {
	key    string
	keyPos position
	valPos position
	labels []label
	other  string
	skip   bool
}

// shapeHint shows what an answers file looks like, for the errors that
// find something else.
const shapeHint = `an answers file looks like:
  unanswered: error   # optional: error | auto | suspend
  answers:
    Database: PostgreSQL
    Providers: [Google, GitHub]
    Package Mgr: {other: bun}`

// answerForms lists the forms an answer may take, for type errors.
const answerForms = `a label, a list of labels [A, B], {other: "free text"}, {select: [A], other: "..."} or {skip: true}`

type fileParser struct {
	path  string
	probs []FileProblem
}

func (p *fileParser) add(pos position, format string, args ...any) {
	p.probs = append(p.probs, FileProblem{Path: p.path, Line: pos.line, Column: pos.col, Message: fmt.Sprintf(format, args...)})
}

func parseFile(path string, data []byte, size int64) (*File, error) {
	p := &fileParser{path: path}
	f := &File{path: path}
	if body := p.document(data, size); body != nil {
		p.top(f, body)
	}
	if len(p.probs) > 0 {
		// Keys are checked before values; report in file order.
		slices.SortStableFunc(p.probs, func(a, b FileProblem) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
		return nil, &FileError{Problems: p.probs}
	}
	return f, nil
}

// document parses the YAML and returns the one document's body, or nil
// after reporting why there is none.
func (p *fileParser) document(data []byte, size int64) ast.Node {
	data, ok := p.text(data, size)
	if !ok {
		return nil
	}
	// Lex once, check the limits on goccy's own tokens, and parse those
	// tokens: the parser never sees a file that would make it slow.
	tokens := lexer.Tokenize(string(data))
	if !p.shape(tokens) {
		return nil
	}
	// goccy would stop at the first duplicate key, exactly compared; pairs
	// reports them all instead, case-insensitively for questions, with both
	// lines.
	tree, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil && ye.GetToken().Position != nil {
			p.add(tokenPos(ye.GetToken().Position.Line, ye.GetToken().Position.Column), "invalid YAML: %s", ye.GetMessage())
		} else {
			p.add(position{1, 1}, "invalid YAML: %v", err)
		}
		return nil
	}
	var bodies []ast.Node
	for _, d := range tree.Docs {
		if d != nil && d.Body != nil {
			bodies = append(bodies, d.Body)
		}
	}
	switch len(bodies) {
	case 0:
		p.add(position{1, 1}, "the file is empty; %s", shapeHint)
		return nil
	case 1:
		return bodies[0]
	}
	p.add(nodePos(bodies[1]), "the file holds %d YAML documents; put everything in one (remove the --- line)", len(bodies))
	return nil
}

var (
	topKeys     = []string{"unanswered", "answers", "approvals"}
	topSynonyms = map[string]string{"questions": "answers", "policy": "unanswered", "missing": "unanswered", "onmissing": "unanswered", "default": "unanswered"}
	formKeys    = []string{"select", "other", "skip"}
	formSynonym = map[string]string{"selected": "select", "selection": "select", "selectedoptions": "select",
		"label": "select", "labels": "select", "option": "select", "options": "select", "choice": "select",
		"custom": "other", "custominput": "other", "text": "other", "freetext": "other", "skipped": "skip"}
)

func (p *fileParser) top(f *File, body ast.Node) {
	m, ok := body.(*ast.MappingNode)
	if !ok {
		p.add(nodePos(body), "the file must be a mapping with an answers: key, got %s; %s", describeNode(body), shapeHint)
		return
	}
	// A misspelt answers: key is reported once, as the misspelling.
	hasAnswers, hasApprovals := false, false
	for _, kv := range p.pairs(m, exactKey) {
		switch kv.key {
		case "answers":
			hasAnswers = true
			f.entries = p.answers(kv)
		case "unanswered":
			f.policy = p.policy(kv)
		case "approvals":
			hasApprovals = true
			p.approvalsSection(f, kv)
		default:
			hint := suggest(kv.key, topKeys, topSynonyms)
			hasAnswers = hasAnswers || hint == `did you mean "answers"?`
			if hint == "" {
				hint = "if it is a question, put it under answers:"
			}
			p.add(kv.keyPos, "unknown top-level key %q; %s (keys: unanswered, answers, approvals)", ask.Display(kv.key), hint)
		}
	}
	if !hasAnswers && !hasApprovals {
		p.add(nodePos(m), "no answers: key; %s", shapeHint)
	}
}

func (p *fileParser) policy(kv pair) ask.Policy {
	s, ok := text(kv.value)
	if !ok {
		p.add(nodePos(kv.value), "unanswered: must be error, auto or suspend, got %s", describeNode(kv.value))
		return ""
	}
	pol, err := ask.ParsePolicy("unanswered", strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		p.add(nodePos(kv.value), "%v (error: fail and show what to add; auto: take the recommended option; suspend: leave the question for askuser resume)", err)
	}
	return pol
}

func (p *fileParser) answers(kv pair) []entry {
	switch v := kv.value.(type) {
	case *ast.NullNode:
		return nil // no answers yet: unanswered: decides every question
	case *ast.MappingNode:
		var es []entry
		for _, a := range p.pairs(v, ask.FoldKey) {
			if e, ok := p.entry(a); ok {
				es = append(es, e)
			}
		}
		return es
	}
	p.add(nodePos(kv.value), "answers: must map each question (its header or full text) to its answer, got %s; %s", describeNode(kv.value), shapeHint)
	return nil
}

// entry reads one answer; ok is false when it was reported as broken.
func (p *fileParser) entry(kv pair) (e entry, ok bool) {
	e = entry{key: kv.key, keyPos: kv.keyPos, valPos: nodePos(kv.value)}
	n := len(p.probs)
	switch v := kv.value.(type) {
	case *ast.NullNode:
		p.add(kv.keyPos, "%q has no answer; give %s", ask.Display(kv.key), answerForms)
	case *ast.SequenceNode:
		e.labels = p.labels(v)
		if len(v.Values) == 0 {
			p.add(e.valPos, "the list for %q is empty; to skip the question on purpose write {skip: true}", ask.Display(kv.key))
		}
	case *ast.MappingNode:
		p.form(&e, v)
	default:
		if l, ok := p.label(kv.value); ok {
			e.labels = []label{l}
		}
	}
	return e, len(p.probs) == n
}

// form reads an answer written as a mapping of select, other and skip.
func (p *fileParser) form(e *entry, m *ast.MappingNode) {
	n := len(p.probs)
	for _, kv := range p.pairs(m, exactKey) {
		switch kv.key {
		case "select":
			if seq, ok := kv.value.(*ast.SequenceNode); ok {
				e.labels = p.labels(seq)
			} else if l, ok := p.label(kv.value); ok {
				e.labels = []label{l}
			}
		case "other":
			s, ok := text(kv.value)
			switch {
			case !ok:
				p.add(nodePos(kv.value), "other: must be the free text, got %s", describeNode(kv.value))
			case strings.TrimSpace(s) == "":
				p.add(nodePos(kv.value), "other: is empty; write the free text, or remove other:")
			}
			e.other = s
		case "skip":
			if b, ok := kv.value.(*ast.BoolNode); !ok || !b.Value {
				p.add(nodePos(kv.value), "skip: takes only true (skip the question on purpose), got %s; otherwise remove skip:", ask.Display(kv.value.String()))
			}
			e.skip = true
		default:
			hint := suggest(kv.key, formKeys, formSynonym)
			if hint == "" {
				hint = "remove it"
			}
			p.add(kv.keyPos, "unknown key %q in the answer to %q; %s (keys: select, other, skip)", ask.Display(kv.key), ask.Display(e.key), hint)
		}
	}
	switch {
	case len(p.probs) > n:
	case e.skip && (len(e.labels) > 0 || e.other != ""):
		p.add(e.valPos, "skip: true cannot be combined with select or other; keep one")
	case !e.skip && len(e.labels) == 0 && e.other == "":
		p.add(e.valPos, "the answer to %q gives nothing; give select:, other: or skip: true", ask.Display(e.key))
	}
}

func (p *fileParser) labels(seq *ast.SequenceNode) []label {
	var out []label
	for _, v := range seq.Values {
		if l, ok := p.label(v); ok {
			out = append(out, l)
		}
	}
	return out
}

// label reads a label. Only strings are labels: a number or a boolean is
// more likely an option number or a slip than a label, and quoting it
// ("3") makes the intent plain.
func (p *fileParser) label(n ast.Node) (label, bool) {
	pos, what := nodePos(n), describeNode(n)
	s, ok := text(n)
	switch {
	case ok && strings.TrimSpace(s) == "":
		p.add(pos, "empty label; write the label of an option")
	case ok:
		return label{text: s, pos: pos}, true
	case what == "a number" || what == "a boolean":
		p.add(pos, "%s is %s, not a label; answers are labels, not option numbers (if %q is a label, quote it)",
			ask.Display(n.String()), what, ask.Display(n.String()))
	case n.Type() == ast.SequenceType:
		p.add(pos, "a nested list is not an answer; write one flat list of labels, e.g. [A, B]")
	default:
		p.add(pos, "expected a label, got %s; give %s", what, answerForms)
	}
	return label{}, false
}

// pair is one key and value of a mapping.
type pair struct {
	key    string
	keyPos position
	value  ast.Node
}

func exactKey(s string) string { return s }

// pairs returns a mapping's entries whose keys are text, reporting other
// keys and keys that repeat an earlier one (under fold).
func (p *fileParser) pairs(m *ast.MappingNode, fold func(string) string) []pair {
	var out []pair
	seen := map[string]pair{}
	for _, mv := range m.Values {
		pos := nodePos(mv.Key)
		k, ok := mv.Key.(*ast.StringNode)
		switch {
		case !ok:
			p.add(pos, "key %s is %s; a key is a header or question text (quote it if it is: %q)",
				ask.Display(mv.Key.String()), describeNode(mv.Key), ask.Display(strings.TrimPrefix(mv.Key.String(), "? ")))
			continue
		case strings.TrimSpace(k.Value) == "":
			p.add(pos, "empty key; write a question's header or full text")
			continue
		}
		kv := pair{key: k.Value, keyPos: pos, value: mv.Value}
		if prev, dup := seen[fold(k.Value)]; dup {
			p.add(pos, "duplicate key %q: %q on line %d says the same; keep one", ask.Display(k.Value), ask.Display(prev.key), prev.keyPos.line)
			continue
		}
		seen[fold(k.Value)] = kv
		out = append(out, kv)
	}
	return out
}

// text returns a string scalar's value; block scalars (|, >) count, so long
// free text can span lines.
func text(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		return v.Value.Value, true
	}
	return "", false
}

func describeNode(n ast.Node) string {
	switch n.Type() {
	case ast.IntegerType, ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.BoolType:
		return "a boolean"
	case ast.NullType:
		return "nothing"
	case ast.StringType, ast.LiteralType:
		return "a string"
	case ast.SequenceType:
		return "a list"
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.MappingKeyType:
		return "a complex key (?)"
	case ast.AnchorType, ast.AliasType:
		return "an anchor or alias (not supported here)"
	case ast.TagType:
		return "a tagged value (not supported here)"
	}
	return "a " + strings.ToLower(n.Type().String())
}

// nodePos is where a node starts. A block mapping's own token is the first
// colon, so it is placed at its first key instead.
func nodePos(n ast.Node) position {
	if m, ok := n.(*ast.MappingNode); ok && !m.IsFlowStyle && len(m.Values) > 0 {
		return nodePos(m.Values[0].Key)
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tokenPos(tk.Position.Line, tk.Position.Column)
	}
	return position{1, 1}
}

func tokenPos(line, col int) position { return position{max(line, 1), max(col, 1)} }

// suggest names the known key a mistyped one was likely meant to be, or "".
func suggest(key string, known []string, synonyms map[string]string) string {
	k := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(key))
	if s, ok := synonyms[k]; ok {
		return fmt.Sprintf("did you mean %q?", s)
	}
	for _, s := range known {
		if textdist.Distance(k, s) <= 2 {
			return fmt.Sprintf("did you mean %q?", s)
		}
	}
	return ""
}
