package frontend

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

// The shapes of the lines of the JSON-lines protocol (docs/protocol.md):
// this file checks an input line's shape without looking at the open
// question sets; stdio_answers.go matches it to one.

// lineErr is what was wrong with one input line.
type lineErr struct {
	id      string // the question set concerned, when known
	msg     string
	example bool // the message ends with an example of a good line
}

func (e *lineErr) line() []byte { return wire.Encode(wire.NewError(e.id, e.msg)) }

type lineKind int

const (
	kindAnswer lineKind = iota + 1
	kindUser
)

// inLine is an answer line whose shape has been checked.
type inLine struct {
	input   string // names the stream, for messages
	n       int    // the line's number in it
	id      string // "" when the line names no question set
	source  ask.Source
	mapForm bool
	entries []inEntry
}

// inEntry is the answer to one question, as the line gives it.
type inEntry struct {
	index    int    // by-label form: the position in "answers"; -1 in the map form
	header   string // by-label form: the names of the question ("" when absent)
	question string
	labels   []string
	custom   string
	skipped  bool
	key      string // map form: the name of the question
	value    string // map form: labels or free text
}

// where names the line for a message: "stdin line 3".
func (l *inLine) where() string { return fmt.Sprintf("%s line %d", l.input, l.n) }

// path says where the entry is in its line, for a message: answers[1] or
// answers["Database"]. Built only for messages: it is not free.
func (e *inEntry) path() string {
	if e.index >= 0 {
		return fmt.Sprintf("answers[%d]", e.index)
	}
	return "answers[" + ask.Excerpt(e.key) + "]"
}

// refs returns the names the entry gives its question; unused ones are "".
// An array, not a slice: it is called on every line and need not allocate.
func (e *inEntry) refs() [3]string { return [3]string{e.question, e.header, e.key} }

var (
	lineFields  = []string{"type", "id", "source", "answers"}
	entryFields = []string{"header", "question", "selectedOptions", "customInput", "skipped"}
)

// parseLine checks the shape of one non-blank input line; n is its line
// number and input names the stream, for messages. The line is decoded
// once, into generic values, and checked field by field from those, so
// that every wrong type or unknown field can be named. (A hand-written
// reader of the commonest line saved nothing anyone could notice: a round
// trip over OS pipes took 29 µs with it and 28.5 µs without, about 35,000
// answers a second either way.)
func parseLine(line []byte, n int, input string) (lineKind, inLine, *lineErr) {
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return 0, inLine{}, &lineErr{msg: notJSON(line, n, input, err), example: true}
	}
	if where, key, dup := ask.DuplicateKey(line); dup {
		if where == "" {
			return 0, inLine{}, &lineErr{msg: fmt.Sprintf("%s line %d gives %s twice; give each field once", input, n, ask.Excerpt(key))}
		}
		return 0, inLine{}, &lineErr{msg: fmt.Sprintf("%s line %d gives %s twice in %s; give each key once", input, n, ask.Excerpt(key), where)}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return 0, inLine{}, &lineErr{msg: fmt.Sprintf("%s line %d is %s, not a JSON object; send one JSON object per line", input, n, describe(v)), example: true}
	}
	if t, ok := obj["type"]; ok {
		switch t {
		case "user":
			return kindUser, inLine{}, nil
		case "answer":
		default:
			return 0, inLine{}, &lineErr{msg: fmt.Sprintf(`%s line %d: "type" must be "answer" or "user", got %s`, input, n, describe(t))}
		}
	}
	l := inLine{input: input, n: n, source: ask.SourceProgram}
	fail := func(example bool, format string, args ...any) (lineKind, inLine, *lineErr) {
		return 0, inLine{}, &lineErr{id: echoID(l.id), msg: l.where() + ": " + fmt.Sprintf(format, args...), example: example}
	}
	if v, ok := obj["id"]; ok {
		if l.id, _ = v.(string); l.id == "" {
			return fail(false, `"id" must be the id of an open question set (a non-empty string), got %s`, describe(v))
		}
	}
	if k, found := unknownKey(obj, lineFields); found {
		return fail(true, "%s is not a field of an answer line; remove it (fields: %s)", ask.Excerpt(k), strings.Join(lineFields, ", "))
	}
	if v, ok := obj["source"]; ok {
		switch v {
		case string(ask.SourcePerson), string(ask.SourceProgram):
			l.source = ask.Source(v.(string))
		default:
			return fail(false, `"source" must be "person" (a person chose these answers) or "program" (the default), got %s`, describe(v))
		}
	}
	answers, ok := obj["answers"]
	if !ok {
		return fail(true, `the line has no "answers"`)
	}
	if msg := parseEntries(answers, &l); msg != "" {
		return fail(false, "%s", msg)
	}
	return kindAnswer, l, nil
}

// parseEntries reads "answers" in either form into l.entries.
func parseEntries(answers any, l *inLine) string {
	switch a := answers.(type) {
	case []any:
		l.entries = make([]inEntry, len(a))
		for i, item := range a {
			if msg := parseEntry(&l.entries[i], i, item); msg != "" {
				return msg
			}
		}
	case map[string]any:
		l.mapForm = true
		l.entries = make([]inEntry, 0, len(a))
		keys := slices.AppendSeq(make([]string, 0, len(a)), maps.Keys(a))
		slices.Sort(keys) // so that of several bad keys, the first is reported
		for _, k := range keys {
			e := inEntry{index: -1, key: k}
			var ok bool
			if e.value, ok = a[k].(string); !ok {
				return fmt.Sprintf(`%s must be a string (a label, labels separated by commas, free text, or "" to skip), got %s`, e.path(), describe(a[k]))
			}
			l.entries = append(l.entries, e)
		}
	default:
		return fmt.Sprintf(`"answers" must be an object {"<header>":"<label>"} or an array [{"header":"<header>","selectedOptions":["<label>"]}], got %s`, describe(answers))
	}
	return ""
}

// parseEntry reads element i of the by-label form into e.
func parseEntry(e *inEntry, i int, item any) string {
	e.index = i
	obj, ok := item.(map[string]any)
	if !ok {
		return fmt.Sprintf(`%s must be an object such as {"header":"Database","selectedOptions":["PostgreSQL"]}, got %s`, e.path(), describe(item))
	}
	if k, found := unknownKey(obj, entryFields); found {
		return fmt.Sprintf("%s: %s is not a field of an answer; remove it (fields: %s)", e.path(), ask.Excerpt(k), strings.Join(entryFields, ", "))
	}
	for _, f := range [...]struct {
		name string
		to   *string
	}{{"header", &e.header}, {"question", &e.question}, {"customInput", &e.custom}} {
		if v := obj[f.name]; v != nil {
			if *f.to, ok = v.(string); !ok {
				return fmt.Sprintf("%s.%s must be a string, got %s", e.path(), f.name, describe(v))
			}
		}
	}
	if strings.TrimSpace(e.header) == "" && strings.TrimSpace(e.question) == "" {
		return fmt.Sprintf(`%s names no question; add "header" (or "question" with the full question text)`, e.path())
	}
	if v := obj["selectedOptions"]; v != nil {
		labels, ok := v.([]any)
		e.labels = make([]string, len(labels))
		for j := 0; ok && j < len(labels); j++ {
			e.labels[j], ok = labels[j].(string)
		}
		if !ok {
			return fmt.Sprintf("%s.selectedOptions must be an array of label strings, got %s", e.path(), describe(v))
		}
	}
	if v := obj["skipped"]; v != nil {
		if e.skipped, ok = v.(bool); !ok {
			return fmt.Sprintf("%s.skipped must be true or false, got %s", e.path(), describe(v))
		}
	}
	return ""
}

// maxEchoedID is the longest id of an input line that its error line
// repeats. Question set ids are tool-use ids or uuids, a few dozen bytes;
// an error line need not repeat a megabyte of something else.
const maxEchoedID = 256

// echoID is the id an error line about a line with id gives: the id, or ""
// when it is too long to be one.
func echoID(id string) string {
	if len(id) > maxEchoedID {
		return ""
	}
	return id
}

// notJSON explains why a line could not be decoded, and where.
func notJSON(line []byte, n int, input string, err error) string {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		off := int(min(max(se.Offset, 0), int64(len(line))))
		return fmt.Sprintf("%s line %d is not valid JSON: %v at byte %d (after %q); send one JSON object per line",
			input, n, se, off, line[max(0, off-24):off])
	}
	return fmt.Sprintf("%s line %d cannot be read: %v; send one JSON object per line", input, n, err)
}

// unknownKey returns the first key of obj, in sorted order, not in known.
func unknownKey(obj map[string]any, known []string) (key string, found bool) {
	for k := range obj {
		if !slices.Contains(known, k) && (!found || k < key) {
			key, found = k, true
		}
	}
	return key, found
}

// describe names a decoded JSON value for a message: a short string is
// quoted, anything else named by its type.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		if len(v) <= 40 {
			return fmt.Sprintf("%q", ask.Display(v))
		}
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
