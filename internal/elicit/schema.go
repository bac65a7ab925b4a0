package elicit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// ErrUnsupported is wrapped by every error Parse returns: the form cannot
// be asked, and the error's text says why, for the decline.
var ErrUnsupported = errors.New("unsupported form")

// Bounds on what a form may hold. A server writes the form, so it is
// untrusted: these keep a hostile one from flooding a person's screen or
// the journal.
const (
	MaxSchemaBytes = 256 << 10
	MaxFields      = 64
	MaxChoices     = 100
	maxTextChars   = 500 // a title, a description, a label
	maxMessage     = 4000
)

// Kind is what a field holds.
type Kind int

// The kinds of field.
const (
	KindText    Kind = iota + 1 // a free string
	KindNumber                  // a JSON number
	KindInteger                 // a whole number
	KindBoolean                 // true or false: Yes / No
	KindChoice                  // one string of an enum
	KindMulti                   // an array of strings of an enum
)

// Choice is one value of an enum, with the label a person sees.
type Choice struct {
	Value string
	Title string
}

// Field is one property of the form.
type Field struct {
	// Name is the property's name: the key of its value in the content.
	Name        string
	Title       string
	Description string
	Kind        Kind
	Required    bool
	Choices     []Choice
	// Default is the schema's default, decoded (string, float64, bool or
	// []string), or nil when the schema gives none or one of the wrong type.
	Default any
	// Limits from the schema; nil when not given.
	Minimum, Maximum     *float64
	MinLength, MaxLength *int
	MinItems, MaxItems   *int
	// Format is the string format ("email", "uri", "date", "date-time");
	// only those are checked.
	Format string
	// Header is the question's chip: derived from the title or name, at
	// most ask.MaxHeaderChars characters, unique in the form.
	Header string

	// problem, set by Retry, says why the field is asked again.
	problem string
}

// Form is a parsed elicitation request.
type Form struct {
	// Asker names who asks, for the first question ("MCP server \"fs\"");
	// empty leaves it out.
	Asker string
	// Message is the server's message to the person.
	Message string
	Fields  []Field
}

// property is the part of a property schema the mapping reads.
type property struct {
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []constTitle      `json:"oneOf"`
	AnyOf       []constTitle      `json:"anyOf"`
	Items       *property         `json:"items"`
	Properties  json.RawMessage   `json:"properties"`
	Default     json.RawMessage   `json:"default"`
	Minimum     *float64          `json:"minimum"`
	Maximum     *float64          `json:"maximum"`
	MinLength   *int              `json:"minLength"`
	MaxLength   *int              `json:"maxLength"`
	MinItems    *int              `json:"minItems"`
	MaxItems    *int              `json:"maxItems"`
	Format      string            `json:"format"`
}

type constTitle struct {
	Const json.RawMessage `json:"const"`
	Title string          `json:"title"`
}

// Parse reads an elicitation request: the server's message and its
// requested schema. Fields keep the order of the schema's "properties".
func Parse(message string, schema json.RawMessage) (Form, error) {
	f := Form{Message: cut(strings.TrimSpace(ask.DisplayBlock(message)), maxMessage)}
	schema = bytes.TrimSpace(schema)
	if len(schema) > MaxSchemaBytes {
		return Form{}, unsupported("the form's schema is %d bytes; askuser asks forms of at most %d", len(schema), MaxSchemaBytes)
	}
	if len(schema) == 0 || string(schema) == "null" {
		return f, nil // no schema: a confirmation
	}
	var top struct {
		Type       json.RawMessage `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return Form{}, unsupported("the form's schema is not a JSON object: %v", err)
	}
	if t := typeName(top.Type); t != "" && t != "object" {
		return Form{}, unsupported("the form's schema has type %q; a form is an object", t)
	}
	names, props, err := orderedProperties(top.Properties)
	if err != nil {
		return Form{}, err
	}
	if len(names) > MaxFields {
		return Form{}, unsupported("the form has %d fields; askuser asks at most %d at once", len(names), MaxFields)
	}
	required := map[string]bool{}
	for _, r := range top.Required {
		if _, ok := props[r]; !ok {
			return Form{}, unsupported("the form requires %q, which it does not define", ask.Display(r))
		}
		required[r] = true
	}
	for _, name := range names {
		fd, err := parseField(name, props[name], required[name])
		if err != nil {
			return Form{}, err
		}
		f.Fields = append(f.Fields, fd)
	}
	assignHeaders(f.Fields)
	return f, nil
}

// orderedProperties decodes "properties" keeping the order of its keys,
// which encoding/json's maps lose.
func orderedProperties(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	props := map[string]json.RawMessage{}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, props, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, unsupported("the form's \"properties\" is not an object")
	}
	var names []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, unsupported("the form's \"properties\" is not valid JSON: %v", err)
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, unsupported("property %q is not valid JSON: %v", ask.Display(name), err)
		}
		if _, dup := props[name]; dup {
			return nil, nil, unsupported("property %q is defined twice", ask.Display(name))
		}
		props[name] = v
		names = append(names, name)
	}
	return names, props, nil
}

// parseField reads one property schema.
func parseField(name string, raw json.RawMessage, required bool) (Field, error) {
	shown := ask.Display(name)
	var p property
	if err := json.Unmarshal(raw, &p); err != nil {
		return Field{}, unsupported("property %q is not a schema askuser can read: %v", shown, err)
	}
	f := Field{
		Name: name, Required: required,
		Title:       cut(strings.TrimSpace(ask.Display(p.Title)), maxTextChars),
		Description: cut(strings.TrimSpace(ask.DisplayBlock(p.Description)), maxTextChars),
		Minimum:     p.Minimum, Maximum: p.Maximum,
		MinLength: p.MinLength, MaxLength: p.MaxLength,
		MinItems: p.MinItems, MaxItems: p.MaxItems,
		Format: p.Format,
	}
	choices, isEnum, err := enumChoices(shown, p)
	if err != nil {
		return Field{}, err
	}
	switch t := typeName(p.Type); {
	case len(p.Properties) > 0 || t == "object":
		return Field{}, unsupported("property %q is a nested object; askuser asks flat forms only", shown)
	case t == "array":
		if p.Items == nil {
			return Field{}, unsupported("property %q is an array without items; askuser asks arrays of an enum only", shown)
		}
		items, ok, err := enumChoices(shown, *p.Items)
		if err != nil {
			return Field{}, err
		}
		if it := typeName(p.Items.Type); !ok || (it != "" && it != "string") {
			return Field{}, unsupported("property %q is an array of something other than a string enum; askuser asks arrays of an enum only", shown)
		}
		f.Kind, f.Choices = KindMulti, items
	case isEnum && (t == "" || t == "string"):
		f.Kind, f.Choices = KindChoice, choices
	case isEnum:
		return Field{}, unsupported("property %q is an enum of type %q; askuser asks string enums only", shown, t)
	case t == "string":
		f.Kind = KindText
	case t == "number":
		f.Kind = KindNumber
	case t == "integer":
		f.Kind = KindInteger
	case t == "boolean":
		f.Kind = KindBoolean
	case t == "":
		return Field{}, unsupported("property %q has no type", shown)
	default:
		return Field{}, unsupported("property %q has type %q; askuser asks strings, numbers, integers, booleans and enums", shown, t)
	}
	if len(f.Choices) > MaxChoices {
		return Field{}, unsupported("property %q has %d choices; askuser shows at most %d", shown, len(f.Choices), MaxChoices)
	}
	f.Default = decodeDefault(f, p.Default)
	return f, nil
}

// enumChoices reads a property's enum in any of its spellings. ok is false
// when the property is no enum.
func enumChoices(shown string, p property) (choices []Choice, ok bool, err error) {
	switch {
	case len(p.Enum) > 0:
		for i, raw := range p.Enum {
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return nil, false, unsupported("property %q has an enum value that is not a string (%s); askuser asks string enums only", shown, cut(string(raw), 40))
			}
			title := v
			if i < len(p.EnumNames) && strings.TrimSpace(p.EnumNames[i]) != "" {
				title = p.EnumNames[i]
			}
			choices = append(choices, Choice{Value: v, Title: title})
		}
		return choices, true, nil
	case len(p.OneOf) > 0 || len(p.AnyOf) > 0:
		for _, c := range append(p.OneOf, p.AnyOf...) {
			var v string
			if json.Unmarshal(c.Const, &v) != nil {
				return nil, false, unsupported("property %q lists a choice whose const is not a string; askuser asks string enums only", shown)
			}
			title := c.Title
			if strings.TrimSpace(title) == "" {
				title = v
			}
			choices = append(choices, Choice{Value: v, Title: title})
		}
		return choices, true, nil
	}
	return nil, false, nil
}

// decodeDefault returns the field's default as a Go value of its kind, or
// nil when there is none or it does not fit the field (a default the form
// could not hold is no recommendation).
func decodeDefault(f Field, raw json.RawMessage) any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	switch f.Kind {
	case KindText, KindChoice:
		var s string
		if json.Unmarshal(raw, &s) != nil || (f.Kind == KindChoice && f.choiceIndex(s) < 0) {
			return nil
		}
		return s
	case KindNumber, KindInteger:
		var n float64
		if json.Unmarshal(raw, &n) != nil || (f.Kind == KindInteger && n != float64(int64(n))) {
			return nil
		}
		return n
	case KindBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil
		}
		return b
	case KindMulti:
		var vs []string
		if json.Unmarshal(raw, &vs) != nil {
			return nil
		}
		for _, v := range vs {
			if f.choiceIndex(v) < 0 {
				return nil
			}
		}
		return vs
	}
	return nil
}

// choiceIndex returns the index of the choice whose value is exactly v.
func (f Field) choiceIndex(v string) int {
	for i, c := range f.Choices {
		if c.Value == v {
			return i
		}
	}
	return -1
}

// typeName reads a schema "type": a string, or a list whose one non-null
// entry is taken (["string","null"] is an optional string).
func typeName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		var got []string
		for _, t := range list {
			if t != "null" {
				got = append(got, t)
			}
		}
		if len(got) == 1 {
			return got[0]
		}
		return strings.Join(got, "|")
	}
	return ""
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// cut shortens s to n characters, marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
