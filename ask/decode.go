package ask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// hostFields are the fields MCP hosts add to every tool's input schema and
// pass on to the server beside the tool's own, each with the host that adds
// it. They are the host's, not the model's question, so the decoder ignores
// them beside "questions", whatever their value; anywhere else, or spelt
// any other way, a key off the schema is still the model's mistake and is
// refused with what to fix. This is the one list: add a field here only
// when a host was seen to send it (CONTRACTS.md).
var hostFields = map[string]string{
	// Gemini CLI 0.61: an optional boolean, "wait for the previous tools
	// in this turn", added to every tool, MCP tools included.
	"wait_for_previous": "Gemini CLI adds it to every tool",
}

// Parse decodes and validates AskUserQuestion input. On failure the error is
// a *ValidationError listing every problem found, each with its path and fix.
func Parse(data []byte) (Input, error) {
	in, _, err := ParseCall(data)
	return in, err
}

// ParseCall is Parse for a host's tool call: it also names each field a
// host adds to every tool that it found and ignored, with the host
// ("wait_for_previous (Gemini CLI adds it to every tool)"), sorted, for a
// verbose log. ignored is nil when there were none, and is filled in even
// when the input is refused.
func ParseCall(data []byte) (in Input, ignored []string, err error) {
	in, d := decodeInput(data)
	vprobs, vdropped := in.problems(d)
	probs := append(d.probs, vprobs...)
	if len(probs) > 0 {
		sortProblems(probs)
		return in, d.ignored, invalid(probs, d.dropped+vdropped)
	}
	return in, d.ignored, nil
}

// Decode decodes AskUserQuestion input without validating limits. It is
// tolerant of what models really send: "questions" given as a JSON-encoded
// string, an option given as a plain string (its label), and a missing or
// null "multiSelect" (false); and of the fields hosts add to every tool
// (hostFields). Anything else off the schema is an error.
func Decode(data []byte) (Input, error) {
	in, d := decodeInput(data)
	if len(d.probs) > 0 {
		return in, invalid(d.probs, d.dropped)
	}
	return in, nil
}

// decoder collects problems; past maxFoundProblems it only counts them,
// and notes the questions they were in.
type decoder struct {
	probs   []Problem
	dropped int
	// droppedIn holds the index of every question with a problem that was
	// counted but not kept.
	droppedIn map[int]bool
	// decoded, in the validation pass after decoding, is the decoding
	// pass: a problem at or under a path it reported is the same mistake
	// seen again, and is neither kept nor counted.
	decoded *decoder
	// ignored notes the hosts' fields found beside "questions".
	ignored []string
}

func (d *decoder) add(path, format string, args ...any) {
	if d.decoded.covers(path) {
		return
	}
	if len(d.probs) >= maxFoundProblems {
		d.dropped++
		if i, ok := questionIndex(path); ok {
			if d.droppedIn == nil {
				d.droppedIn = map[int]bool{}
			}
			d.droppedIn[i] = true
		}
		return
	}
	d.probs = append(d.probs, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// questionIndex returns i of a path that starts "questions[i]".
func questionIndex(path string) (int, bool) {
	rest, ok := strings.CutPrefix(path, "questions[")
	end := strings.IndexByte(rest, ']')
	if !ok || end < 0 {
		return 0, false
	}
	i, err := strconv.Atoi(rest[:end])
	return i, err == nil
}

func decodeInput(data []byte) (Input, *decoder) {
	d := &decoder{}
	var in Input
	if json.Valid(data) {
		if where, key, dup := DuplicateKey(data); dup {
			if where == "" {
				where = "input"
			}
			d.add(where, "gives %s twice; give each key once (JSON would keep only the last)", Excerpt(key))
			return in, d
		}
	}
	obj, ok := d.object("input", data, `an object {"questions": [...]}`)
	if !ok {
		return in, d
	}
	for _, k := range sortedKeys(obj) {
		if host, ok := hostFields[k]; ok {
			d.ignored = append(d.ignored, k+" ("+host+")")
		} else if k != "questions" {
			d.unknown("input", k, []string{"questions"})
		}
	}
	raw, present := obj["questions"]
	if !present {
		d.add("questions", `is required: give 1 to 4 questions, e.g. {"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"..."},{"label":"SQLite","description":"..."}],"multiSelect":false}]}`)
		return in, d
	}
	in.Questions = d.questions(raw)
	return in, d
}

func (d *decoder) questions(raw json.RawMessage) []Question {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		// Some models send the array JSON-encoded inside a string.
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			raw = bytes.TrimSpace([]byte(s))
		}
		if !json.Valid(raw) {
			// Say what the string holds: describe would name the type
			// of its first character ("an array" for a broken "[{").
			d.add("questions", "must be an array of question objects, got a string that is not a JSON array: %s", jsonError(raw))
			return nil
		}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || (len(raw) > 0 && raw[0] != '[') {
		d.add("questions", "must be an array of question objects, got %s", describe(raw))
		return nil
	}
	qs := make([]Question, 0, len(items))
	for i, item := range items {
		qs = append(qs, d.question(fmt.Sprintf("questions[%d]", i), item))
	}
	return qs
}

var questionFields = []string{"question", "header", "options", "multiSelect"}

func (d *decoder) question(path string, raw json.RawMessage) Question {
	var q Question
	obj, ok := d.object(path, raw, `an object with "question", "header", "options" and "multiSelect"`)
	if !ok {
		return q
	}
	for _, k := range sortedKeys(obj) {
		if !contains(questionFields, k) {
			d.unknown(path, k, questionFields)
		}
	}
	q.Question = d.str(path+".question", obj)
	q.Header = d.str(path+".header", obj)
	if v, ok := obj["multiSelect"]; ok && !isNull(v) {
		if err := json.Unmarshal(v, &q.MultiSelect); err != nil {
			d.add(path+".multiSelect", "must be true or false, got %s", describe(v))
		}
	}
	v, ok := obj["options"]
	if !ok || isNull(v) {
		return q // reported by validation
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		d.add(path+".options", "must be an array of options, got %s", describe(v))
		return q
	}
	for i, item := range items {
		q.Options = append(q.Options, d.option(fmt.Sprintf("%s.options[%d]", path, i), item))
	}
	return q
}

var optionFields = []string{"label", "description"}

func (d *decoder) option(path string, raw json.RawMessage) Option {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return Option{Label: strings.TrimSpace(s)}
	}
	obj, ok := d.object(path, raw, `an object {"label": "...", "description": "..."} or a string label`)
	if !ok {
		return Option{}
	}
	for _, k := range sortedKeys(obj) {
		if !contains(optionFields, k) {
			d.unknown(path, k, optionFields)
		}
	}
	return Option{Label: d.str(path+".label", obj), Description: d.str(path+".description", obj)}
}

// object decodes raw as a JSON object, reporting what it got otherwise.
func (d *decoder) object(path string, raw json.RawMessage, want string) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		if path == "input" && len(raw) > 0 && !json.Valid(raw) {
			d.add(path, "is not valid JSON: %s", jsonError(raw))
			return nil, false
		}
		d.add(path, "must be %s, got %s", want, describe(raw))
		return nil, false
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		d.add(path, "is not valid JSON: %s", jsonError(raw))
		return nil, false
	}
	return obj, true
}

// str reads a string field; a missing or null field is "".
func (d *decoder) str(path string, obj map[string]json.RawMessage) string {
	field := path[strings.LastIndex(path, ".")+1:]
	v, ok := obj[field]
	if !ok || isNull(v) {
		return "" // a missing required field is reported by validation
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		d.add(path, "must be a string, got %s", describe(v))
		return ""
	}
	return strings.TrimSpace(s)
}

func (d *decoder) unknown(path, key string, known []string) {
	hint := "remove it"
	for _, k := range known {
		if strings.EqualFold(strings.NewReplacer("_", "", "-", "", " ", "").Replace(key), k) {
			hint = fmt.Sprintf("did you mean %q?", k)
		}
	}
	if path == "input" {
		d.add(keyPath(key), "is not a field of AskUserQuestion input; %s (fields: %s)", hint, strings.Join(known, ", "))
		return
	}
	d.add(path+"."+keyPath(key), "is not a field here; %s (fields: %s)", hint, strings.Join(known, ", "))
}

// keyPath is an unknown key as a path step. A key that is not a plain name
// is quoted: a key such as "options[0]" must not pass for the path of a real
// option (notUnder would then hide that option's problems), and a key with
// escape sequences must not reach a terminal raw. A long key is cut, as
// Excerpt cuts any value a message quotes.
func keyPath(key string) string {
	if len(key) > ExcerptChars {
		return Excerpt(key)
	}
	for _, c := range []byte(key) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return strconv.Quote(key)
		}
	}
	if key == "" {
		return `""`
	}
	return key
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// describe names the JSON type of raw for an error message.
func describe(raw json.RawMessage) string {
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
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func jsonError(raw []byte) string {
	var v any
	err := json.Unmarshal(raw, &v)
	if se, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(raw[:min(int(se.Offset), len(raw))], []byte("\n"))
		return fmt.Sprintf("%v (line %d, byte %d)", se, line, se.Offset)
	}
	if err != nil {
		return err.Error()
	}
	return "unexpected content"
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// covers reports whether a problem at path repeats one d found: it is at
// or under the path of one, or d found the input unreadable. A question
// with problems d only counted is covered whole, since their paths are
// not kept.
func (d *decoder) covers(path string) bool {
	if d == nil {
		return false
	}
	if i, ok := questionIndex(path); ok && d.droppedIn[i] {
		return true
	}
	for _, p := range d.probs {
		if p.Path == "input" || path == p.Path || strings.HasPrefix(path, p.Path+".") || strings.HasPrefix(path, p.Path+"[") {
			return true
		}
	}
	return false
}
