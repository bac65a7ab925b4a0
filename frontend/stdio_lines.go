package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/askuser/askuser/ask"
)

// The shapes of the lines of the JSON-lines protocol (docs/protocol.md):
// this file checks an input line's shape without looking at the open
// question sets; stdio_answers.go matches it to one.

// questionLine is written to Out when a question set opens.
type questionLine struct {
	Type      string         `json:"type"`
	ID        string         `json:"id"`
	Questions []ask.Question `json:"questions"`
	SessionID string         `json:"session_id,omitempty"`
}

// errorLine is written to Out for an input line that was discarded.
type errorLine struct {
	Type  string `json:"type"`
	ID    string `json:"id,omitempty"`
	Error string `json:"error"`
}

// lineErr is what was wrong with one input line.
type lineErr struct {
	id      string // the question set concerned, when known
	msg     string
	example bool // the message ends with an example of a good line
}

func (e *lineErr) line() []byte {
	b, _ := encodeLine(errorLine{Type: "error", ID: e.id, Error: e.msg}) // only strings: cannot fail
	return b
}

// encodeLine marshals v as one line ending in "\n". <, > and & are left
// as they are so a line reads as written; control characters and line
// breaks inside strings are escaped, so the line stays one line.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type lineKind int

const (
	kindAnswer lineKind = iota + 1
	kindUser
)

// inLine is an answer line whose shape has been checked.
type inLine struct {
	where   string // "stdin line 3", for messages
	id      string // "" when the line names no question set
	source  ask.Source
	mapForm bool
	entries []inEntry
}

// inEntry is the answer to one question, as the line gives it.
type inEntry struct {
	path     string // where it is in the line: answers[1] or answers["Database"]
	header   string // by-label form: the names of the question ("" when absent)
	question string
	labels   []string
	custom   string
	skipped  bool
	key      string // map form: the name of the question
	value    string // map form: labels or free text
}

// refs returns the names the entry gives its question.
func (e *inEntry) refs() []string {
	var refs []string
	for _, r := range []string{e.question, e.header, e.key} {
		if r != "" {
			refs = append(refs, r)
		}
	}
	return refs
}

var (
	lineFields  = []string{"type", "id", "source", "answers"}
	entryFields = []string{"header", "question", "selectedOptions", "customInput", "skipped"}
)

// parseLine checks the shape of one non-blank input line; n is its line
// number and input names the stream, for messages.
func parseLine(line []byte, n int, input string) (lineKind, inLine, *lineErr) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		return 0, inLine{}, &lineErr{msg: notObject(line, n, input, err), example: true}
	}
	if v, ok := obj["type"]; ok {
		var t string
		switch _ = json.Unmarshal(v, &t); t {
		case "user":
			return kindUser, inLine{}, nil
		case "answer":
		default:
			return 0, inLine{}, &lineErr{msg: fmt.Sprintf(`%s line %d: "type" must be "answer" or "user", got %s`, input, n, describe(v))}
		}
	}
	l := inLine{where: fmt.Sprintf("%s line %d", input, n), source: ask.SourceProgram}
	fail := func(example bool, format string, args ...any) (lineKind, inLine, *lineErr) {
		return 0, inLine{}, &lineErr{id: l.id, msg: l.where + ": " + fmt.Sprintf(format, args...), example: example}
	}
	if v, ok := obj["id"]; ok {
		if err := json.Unmarshal(v, &l.id); err != nil || l.id == "" {
			return fail(false, `"id" must be the id of an open question set (a non-empty string), got %s`, describe(v))
		}
	}
	if k := unknownKey(obj, lineFields); k != "" {
		return fail(true, "%q is not a field of an answer line; remove it (fields: %s)", k, strings.Join(lineFields, ", "))
	}
	if v, ok := obj["source"]; ok {
		var src string
		_ = json.Unmarshal(v, &src)
		switch ask.Source(src) {
		case ask.SourcePerson, ask.SourceProgram:
			l.source = ask.Source(src)
		default:
			return fail(false, `"source" must be "person" (a person chose these answers) or "program" (the default), got %s`, describe(v))
		}
	}
	raw, ok := obj["answers"]
	if !ok {
		return fail(true, `the line has no "answers"`)
	}
	if msg := parseEntries(bytes.TrimSpace(raw), &l); msg != "" {
		return fail(false, "%s", msg)
	}
	return kindAnswer, l, nil
}

// parseEntries reads "answers" in either form into l.entries.
func parseEntries(raw json.RawMessage, l *inLine) string {
	switch {
	case len(raw) > 0 && raw[0] == '[':
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items) // valid JSON: checked with the line
		for i, item := range items {
			e, msg := parseEntry(fmt.Sprintf("answers[%d]", i), item)
			if msg != "" {
				return msg
			}
			l.entries = append(l.entries, e)
		}
	case len(raw) > 0 && raw[0] == '{':
		l.mapForm = true
		var m map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		for _, k := range sortedKeys(m) {
			e := inEntry{path: fmt.Sprintf("answers[%q]", k), key: k}
			if err := json.Unmarshal(m[k], &e.value); err != nil || isNull(m[k]) {
				return fmt.Sprintf(`%s must be a string (a label, labels separated by commas, free text, or "" to skip), got %s`, e.path, describe(m[k]))
			}
			l.entries = append(l.entries, e)
		}
	default:
		return fmt.Sprintf(`"answers" must be an object {"<header>":"<label>"} or an array [{"header":"<header>","selectedOptions":["<label>"]}], got %s`, describe(raw))
	}
	return ""
}

// parseEntry reads one element of the by-label form.
func parseEntry(path string, raw json.RawMessage) (inEntry, string) {
	e := inEntry{path: path}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return e, fmt.Sprintf(`%s must be an object such as {"header":"Database","selectedOptions":["PostgreSQL"]}, got %s`, path, describe(raw))
	}
	if k := unknownKey(obj, entryFields); k != "" {
		return e, fmt.Sprintf("%s: %q is not a field of an answer; remove it (fields: %s)", path, k, strings.Join(entryFields, ", "))
	}
	for _, f := range []struct {
		name string
		to   *string
	}{{"header", &e.header}, {"question", &e.question}, {"customInput", &e.custom}} {
		if v, ok := obj[f.name]; ok && !isNull(v) {
			if err := json.Unmarshal(v, f.to); err != nil {
				return e, fmt.Sprintf("%s.%s must be a string, got %s", path, f.name, describe(v))
			}
		}
	}
	if strings.TrimSpace(e.header) == "" && strings.TrimSpace(e.question) == "" {
		return e, fmt.Sprintf(`%s names no question; add "header" (or "question" with the full question text)`, path)
	}
	if v, ok := obj["selectedOptions"]; ok && !isNull(v) {
		if err := json.Unmarshal(v, &e.labels); err != nil {
			return e, fmt.Sprintf("%s.selectedOptions must be an array of label strings, got %s", path, describe(v))
		}
	}
	if v, ok := obj["skipped"]; ok && !isNull(v) {
		if err := json.Unmarshal(v, &e.skipped); err != nil {
			return e, fmt.Sprintf("%s.skipped must be true or false, got %s", path, describe(v))
		}
	}
	return e, ""
}

// notObject explains why a line is not a JSON object, and where.
func notObject(line []byte, n int, input string, err error) string {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		off := int(min(max(se.Offset, 0), int64(len(line))))
		return fmt.Sprintf("%s line %d is not valid JSON: %v at byte %d (after %q); send one JSON object per line",
			input, n, se, off, line[max(0, off-24):off])
	}
	if err != nil && !json.Valid(line) {
		return fmt.Sprintf("%s line %d is not valid JSON: %v; send one JSON object per line", input, n, err)
	}
	return fmt.Sprintf("%s line %d is %s, not a JSON object; send one JSON object per line", input, n, describe(line))
}

// unknownKey returns the first key of obj, in sorted order, not in known.
func unknownKey(obj map[string]json.RawMessage, known []string) string {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(known, k) {
			return k
		}
	}
	return ""
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// describe names what a JSON value is, for a message: a short string is
// quoted, anything else named by its type.
func describe(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil && len(s) <= 40 {
			return fmt.Sprintf("%q", ask.Display(s))
		}
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
