package ask

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A tool's input as a person reads it before approving it, on the web
// card and at the terminal alike: the JSON's structure kept (an object's
// fields in the order written, duplicates included, so a second "path"
// cannot hide; an array's items), each string shown as its text, a file's
// content with its lines as lines, and every key and string made safe to
// show (Display, DisplayBlock) after decoding, since a JSON escape can
// spell an escape sequence. A budget of characters bounds what one page
// holds; what is past it is counted, never silently dropped. ReadJSON
// reads the tree; the web card draws it with its templates, a terminal
// with Outline.

// Kinds of JSONNode.
const (
	JSONObject  = "object"
	JSONArray   = "array"
	JSONString  = "string"
	JSONLiteral = "literal" // a number, true, false, null, {} or [], or JSON nested too deep
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

// JSONNode is one JSON value as a person reads it.
type JSONNode struct {
	Kind string
	// Text is a string's text, made safe to show, or a literal's JSON.
	Text string
	// Block: a string shown on lines of its own (it has line breaks, or
	// is long), not after its key.
	Block bool
	// Fields are an object's, in the order written; Items an array's.
	Fields []JSONField
	Items  []JSONNode
	// Left counts what the budget left out: a string's characters, or an
	// object's fields or an array's items.
	Left int
}

// JSONField is one field of an object, as written.
type JSONField struct {
	Key   string
	Value JSONNode
}

// Empty reports an empty string, which is shown as "" so it can be seen.
func (n JSONNode) Empty() bool { return n.Kind == JSONString && n.Text == "" && n.Left == 0 }

// jsonReader reads one JSON value into JSONNodes, spending a budget of
// characters shown.
type jsonReader struct {
	dec  *json.Decoder
	left int
	cut  bool
}

// ReadJSON reads raw, one JSON value, for a person, showing at most
// budget characters of keys, strings and literals; cut reports that some
// were left out. ok is false when raw is not one JSON value.
func ReadJSON(raw []byte, budget int) (root JSONNode, cut, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	r := &jsonReader{dec: dec, left: budget}
	root, err := r.value(0)
	if err != nil {
		return JSONNode{}, false, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return JSONNode{}, false, false // more than one value
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

func (r *jsonReader) value(depth int) (JSONNode, error) {
	if depth >= maxJSONDepth {
		var raw json.RawMessage
		if err := r.dec.Decode(&raw); err != nil {
			return JSONNode{}, err
		}
		var c bytes.Buffer
		if err := json.Compact(&c, raw); err != nil {
			return JSONNode{}, err
		}
		return r.text(JSONLiteral, c.String()), nil
	}
	tok, err := r.dec.Token()
	if err != nil {
		return JSONNode{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return r.object(depth)
		}
		if t == '[' {
			return r.array(depth)
		}
		return JSONNode{}, errors.New("unexpected " + t.String())
	case string:
		return r.text(JSONString, t), nil
	case json.Number:
		return r.text(JSONLiteral, t.String()), nil
	case bool:
		return r.text(JSONLiteral, strconv.FormatBool(t)), nil
	case nil:
		return r.text(JSONLiteral, "null"), nil
	}
	return JSONNode{}, errors.New("unexpected token")
}

// text is a string or literal within the budget: a string is made safe to
// show first, and shown as a block when it has lines or is long. One far
// longer than the budget is made safe only as far as it can be shown
// (sanitising a megabyte on every refresh of the page would cost more
// than all the rest of it), and what is left out is then counted in the
// characters as written.
func (r *jsonReader) text(kind, s string) JSONNode {
	clean := Display
	if kind == JSONString {
		clean = DisplayBlock
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
	node := JSONNode{Kind: kind, Text: s, Block: kind == JSONString && (n > blockChars || strings.Contains(s, "\n"))}
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

func (r *jsonReader) object(depth int) (JSONNode, error) {
	node := JSONNode{Kind: JSONObject}
	for r.dec.More() {
		tok, err := r.dec.Token()
		if err != nil {
			return JSONNode{}, err
		}
		key, _ := tok.(string)
		if spent, err := r.spent(&node); spent || err != nil {
			if err != nil {
				return JSONNode{}, err
			}
			continue
		}
		key = Display(key)
		if k := []rune(key); len(k) > maxKeyChars {
			key = string(k[:maxKeyChars]) + "…"
		}
		r.take(utf8.RuneCountInString(key))
		v, err := r.value(depth + 1)
		if err != nil {
			return JSONNode{}, err
		}
		node.Fields = append(node.Fields, JSONField{Key: key, Value: v})
	}
	if _, err := r.dec.Token(); err != nil { // the closing }
		return JSONNode{}, err
	}
	if len(node.Fields) == 0 && node.Left == 0 {
		return JSONNode{Kind: JSONLiteral, Text: "{}"}, nil
	}
	return node, nil
}

func (r *jsonReader) array(depth int) (JSONNode, error) {
	node := JSONNode{Kind: JSONArray}
	for r.dec.More() {
		if spent, err := r.spent(&node); spent || err != nil {
			if err != nil {
				return JSONNode{}, err
			}
			continue
		}
		v, err := r.value(depth + 1)
		if err != nil {
			return JSONNode{}, err
		}
		node.Items = append(node.Items, v)
	}
	if _, err := r.dec.Token(); err != nil { // the closing ]
		return JSONNode{}, err
	}
	if len(node.Items) == 0 && node.Left == 0 {
		return JSONNode{Kind: JSONLiteral, Text: "[]"}, nil
	}
	return node, nil
}

// spent reports whether the budget is spent; then it reads past the next
// value of n, an object or array, and counts it as left out.
func (r *jsonReader) spent(n *JSONNode) (bool, error) {
	if r.left > 0 {
		return false, nil
	}
	n.Left++
	r.cut = true
	var raw json.RawMessage
	return true, r.dec.Decode(&raw)
}

// GroupDigits writes n with its thousands grouped, for a person: 1,048,576.
func GroupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
