package inbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// A tool's input as a person reads it before approving it: the JSON's
// structure kept (an object's fields in the order written, duplicates
// included, so a second "path" cannot hide; an array's items), each
// string shown as its text, a file's content with its lines as lines, and
// every key and string made safe to show (ask.Display, ask.DisplayBlock)
// after decoding, since a JSON escape can spell an escape sequence. A
// budget of characters bounds what one page holds; what is past it is
// counted, never silently dropped.

// Kinds of jsonNode.
const (
	jsonObject  = "object"
	jsonArray   = "array"
	jsonString  = "string"
	jsonLiteral = "literal" // a number, true, false, null, {} or [], or JSON nested too deep
)

// Bounds of an input shown as JSON.
const (
	// maxJSONDepth bounds the nesting shown as structure: a deeper value
	// is shown as its JSON text, so a hostile input cannot nest the page
	// thousands of elements deep.
	maxJSONDepth = 8
	// blockChars: a string longer than this is shown on lines of its own
	// even without a line break in it.
	blockChars = 60
	// maxKeyChars bounds a key as shown.
	maxKeyChars = 200
)

// jsonNode is one JSON value as a person reads it.
type jsonNode struct {
	Kind string
	// Text is a string's text, made safe to show, or a literal's JSON.
	Text string
	// Block: a string shown on lines of its own (it has line breaks, or
	// is long), not after its key.
	Block bool
	// Fields are an object's, in the order written; Items an array's.
	Fields []jsonField
	Items  []jsonNode
	// Left counts what the budget left out: a string's characters, or an
	// object's fields or an array's items.
	Left int
}

type jsonField struct {
	Key   string
	Value jsonNode
}

// Empty reports an empty string, which is shown as "" so it can be seen.
func (n jsonNode) Empty() bool { return n.Kind == jsonString && n.Text == "" && n.Left == 0 }

// jsonReader reads one JSON value into jsonNodes, spending a budget of
// characters shown.
type jsonReader struct {
	dec  *json.Decoder
	left int
	cut  bool
}

// readableJSON reads raw, one JSON value, for a person, showing at most
// budget characters of keys, strings and literals; cut reports that some
// were left out. ok is false when raw is not one JSON value.
func readableJSON(raw []byte, budget int) (root jsonNode, cut, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	r := &jsonReader{dec: dec, left: budget}
	root, err := r.value(0)
	if err != nil {
		return jsonNode{}, false, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return jsonNode{}, false, false // more than one value
	}
	return root, r.cut, true
}

// take spends up to n characters of the budget and returns how many of
// them may be shown.
func (r *jsonReader) take(n int) int {
	shown := min(n, r.left)
	r.left -= shown
	if shown < n {
		r.cut = true
	}
	return shown
}

func (r *jsonReader) value(depth int) (jsonNode, error) {
	if depth >= maxJSONDepth {
		var raw json.RawMessage
		if err := r.dec.Decode(&raw); err != nil {
			return jsonNode{}, err
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return jsonNode{}, err
		}
		return r.text(jsonLiteral, c.String()), nil
	}
	tok, err := r.dec.Token()
	if err != nil {
		return jsonNode{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return r.object(depth)
		}
		if t == '[' {
			return r.array(depth)
		}
		return jsonNode{}, errors.New("unexpected " + t.String())
	case string:
		return r.text(jsonString, t), nil
	case json.Number:
		return r.text(jsonLiteral, t.String()), nil
	case bool:
		return r.text(jsonLiteral, strconv.FormatBool(t)), nil
	case nil:
		return r.text(jsonLiteral, "null"), nil
	}
	return jsonNode{}, errors.New("unexpected token")
}

// text is a string or literal within the budget: a string is made safe to
// show first, and shown as a block when it has lines or is long. One far
// longer than the budget is made safe only as far as it can be shown
// (sanitising a megabyte on every refresh of the page would cost more
// than all the rest of it), and what is left out is then counted in the
// characters as written.
func (r *jsonReader) text(kind, s string) jsonNode {
	clean := ask.Display
	if kind == jsonString {
		clean = ask.DisplayBlock
	}
	total := -1
	if limit := 4*r.left + 64; len(s) > limit { // a character is at most 4 bytes
		total = utf8.RuneCountInString(s)
		for limit > 0 && !utf8.RuneStart(s[limit]) {
			limit--
		}
		s = s[:limit]
	}
	s = clean(s)
	n := utf8.RuneCountInString(s)
	node := jsonNode{Kind: kind, Text: s, Block: kind == jsonString && (n > blockChars || strings.Contains(s, "\n"))}
	if total >= 0 {
		shown := min(n, r.left)
		r.left, r.cut = 0, true
		node.Text, node.Left = string([]rune(s)[:shown]), total-shown
		return node
	}
	if shown := r.take(max(n, 1)); shown < n {
		node.Text, node.Left = string([]rune(s)[:shown]), n-shown
	}
	return node
}

func (r *jsonReader) object(depth int) (jsonNode, error) {
	node := jsonNode{Kind: jsonObject}
	for r.dec.More() {
		tok, err := r.dec.Token()
		if err != nil {
			return jsonNode{}, err
		}
		key, _ := tok.(string)
		if spent, err := r.spent(&node); spent || err != nil {
			if err != nil {
				return jsonNode{}, err
			}
			continue
		}
		key = ask.Display(key)
		if k := []rune(key); len(k) > maxKeyChars {
			key = string(k[:maxKeyChars]) + "…"
		}
		r.take(utf8.RuneCountInString(key))
		v, err := r.value(depth + 1)
		if err != nil {
			return jsonNode{}, err
		}
		node.Fields = append(node.Fields, jsonField{Key: key, Value: v})
	}
	if _, err := r.dec.Token(); err != nil { // the closing }
		return jsonNode{}, err
	}
	if len(node.Fields) == 0 && node.Left == 0 {
		return jsonNode{Kind: jsonLiteral, Text: "{}"}, nil
	}
	return node, nil
}

func (r *jsonReader) array(depth int) (jsonNode, error) {
	node := jsonNode{Kind: jsonArray}
	for r.dec.More() {
		if spent, err := r.spent(&node); spent || err != nil {
			if err != nil {
				return jsonNode{}, err
			}
			continue
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return jsonNode{}, err
		}
		node.Items = append(node.Items, v)
	}
	if _, err := r.dec.Token(); err != nil { // the closing ]
		return jsonNode{}, err
	}
	if len(node.Items) == 0 && node.Left == 0 {
		return jsonNode{Kind: jsonLiteral, Text: "[]"}, nil
	}
	return node, nil
}

// spent reports whether the budget is spent; then it reads past the next
// value of n, an object or array, and counts it as left out.
func (r *jsonReader) spent(n *jsonNode) (bool, error) {
	if r.left > 0 {
		return false, nil
	}
	n.Left++
	r.cut = true
	var raw json.RawMessage
	return true, r.dec.Decode(&raw)
}

// digits writes n with its thousands grouped, for a person: 1,048,576.
func digits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
