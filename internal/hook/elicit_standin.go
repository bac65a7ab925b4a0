package hook

// STAND-IN for internal/elicit (branch h-mcpclient), to be deleted when it
// is merged: see parseForm in elicit_bridge.go. It maps the flat form
// schemas MCP allows (string enums, titled oneOf enums, arrays of either,
// booleans, free strings and numbers) so the hook works and is tested
// end to end until then; the real package is the one to extend.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/askuser/askuser/ask"
)

type standinField struct {
	name     string
	kind     string // "enum", "multi", "bool", "string", "number", "integer"
	labels   []string
	values   []any
	required bool
	q        ask.Question
	problem  string // why the last answer did not fit, for a retry
}

type standinForm struct {
	message string
	fields  []standinField
}

type standinProp struct {
	Type        string            `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Enum        []any             `json:"enum"`
	EnumNames   []string          `json:"enumNames"`
	OneOf       []standinConst    `json:"oneOf"`
	AnyOf       []standinConst    `json:"anyOf"`
	Items       *standinPropItems `json:"items"`
}

type standinPropItems struct {
	Enum  []any          `json:"enum"`
	OneOf []standinConst `json:"oneOf"`
	AnyOf []standinConst `json:"anyOf"`
}

type standinConst struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

func parseStandinForm(message string, schema json.RawMessage) (form, error) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("the requested schema is not a JSON object: %w", err)
	}
	names, props, err := orderedProps(s.Properties)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("the requested schema has no properties to ask about")
	}
	f := &standinForm{message: message}
	for _, name := range names {
		fd, err := standinFieldOf(name, props[name])
		if err != nil {
			return nil, err
		}
		for _, r := range s.Required {
			fd.required = fd.required || r == name
		}
		f.fields = append(f.fields, fd)
	}
	return f, nil
}

// orderedProps decodes the properties object keeping its key order, so
// the questions follow the form.
func orderedProps(raw json.RawMessage) ([]string, map[string]standinProp, error) {
	props := map[string]standinProp{}
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, nil, fmt.Errorf("the requested schema's properties are not an object of field schemas: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var names []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				names = append(names, t)
				var skip json.RawMessage
				if dec.Decode(&skip) != nil {
					return names, props, nil
				}
			}
		}
	}
	return names, props, nil
}

func standinFieldOf(name string, p standinProp) (standinField, error) {
	fd := standinField{name: name}
	header := p.Title
	if header == "" {
		header = name
	}
	text := p.Description
	if text == "" {
		text = header
	}
	consts := func(values []any, names []string, titled []standinConst) {
		for i, v := range values {
			label := fmt.Sprint(v)
			if i < len(names) && names[i] != "" {
				label = names[i]
			}
			fd.labels, fd.values = append(fd.labels, label), append(fd.values, v)
		}
		for _, c := range titled {
			label := c.Title
			if label == "" {
				label = fmt.Sprint(c.Const)
			}
			fd.labels, fd.values = append(fd.labels, label), append(fd.values, c.Const)
		}
	}
	switch {
	case p.Type == "array" && p.Items != nil:
		fd.kind = "multi"
		consts(p.Items.Enum, nil, append(p.Items.OneOf, p.Items.AnyOf...))
	case len(p.Enum) > 0 || len(p.OneOf) > 0 || len(p.AnyOf) > 0:
		fd.kind = "enum"
		consts(p.Enum, p.EnumNames, append(p.OneOf, p.AnyOf...))
	case p.Type == "boolean":
		fd.kind = "bool"
		fd.labels, fd.values = []string{"Yes", "No"}, []any{true, false}
	case p.Type == "string", p.Type == "number", p.Type == "integer":
		fd.kind = p.Type
	default:
		return fd, fmt.Errorf("field %q has type %q, which a form question cannot ask", name, p.Type)
	}
	if (fd.kind == "multi" || fd.kind == "enum") && len(fd.labels) == 0 {
		return fd, fmt.Errorf("field %q lists no values to choose from", name)
	}
	fd.q = ask.Question{Question: text, Header: header, MultiSelect: fd.kind == "multi"}
	for _, l := range fd.labels {
		fd.q.Options = append(fd.q.Options, ask.Option{Label: l})
	}
	return fd, nil
}

func (f *standinForm) Questions(id, agent string) ask.Request {
	req := ask.Request{ID: id, Kind: ask.KindElicitation, Agent: agent}
	for i, fd := range f.fields {
		q := fd.q
		if fd.problem != "" {
			q.Question = "Your last answer could not be used: " + fd.problem + ". Please answer again.\n" + q.Question
		}
		if i == 0 && f.message != "" {
			q.Question = f.message + "\n" + q.Question
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

// standinProblems are the fields whose answers did not fit.
type standinProblems struct {
	byField map[string]string
	msgs    []string
	final   bool
}

func (p *standinProblems) Final() bool    { return p.final }
func (p *standinProblems) String() string { return strings.Join(p.msgs, "; ") }

func (f *standinForm) Content(answers []ask.Answer) (map[string]any, problems) {
	content := map[string]any{}
	probs := &standinProblems{byField: map[string]string{}}
	for i, fd := range f.fields {
		var a ask.Answer
		if i < len(answers) {
			a = answers[i]
		}
		v, ok, err := fd.value(a)
		if err == nil && !ok && fd.required {
			err = fmt.Errorf("%s is required", fd.q.Header)
		}
		switch {
		case err != nil:
			probs.byField[fd.name] = err.Error()
			probs.msgs = append(probs.msgs, err.Error())
			probs.final = probs.final || a.Source != ask.SourcePerson
		case ok:
			content[fd.name] = v
		}
	}
	if len(probs.msgs) > 0 {
		return content, probs
	}
	return content, nil
}

func (f *standinForm) Retry(p problems) form {
	sp, _ := p.(*standinProblems)
	out := &standinForm{message: f.message}
	for _, fd := range f.fields {
		if sp != nil && sp.byField[fd.name] != "" {
			fd.problem = sp.byField[fd.name]
			out.fields = append(out.fields, fd)
		}
	}
	return out
}

func (fd standinField) value(a ask.Answer) (any, bool, error) {
	pick := func(label string) any {
		for i, l := range fd.labels {
			if ask.FoldKey(l) == ask.FoldKey(label) {
				return fd.values[i]
			}
		}
		return nil
	}
	if len(fd.labels) > 0 && a.Custom != "" {
		return nil, false, fmt.Errorf("%s takes one of %s, not free text", fd.q.Header, strings.Join(fd.labels, ", "))
	}
	switch fd.kind {
	case "multi":
		if len(a.Selected) == 0 {
			return nil, false, nil
		}
		vals := []any{}
		for _, l := range a.Selected {
			vals = append(vals, pick(l))
		}
		return vals, true, nil
	case "enum", "bool":
		if len(a.Selected) == 0 {
			return nil, false, nil
		}
		return pick(a.Selected[0]), true, nil
	case "string":
		return a.Custom, a.Custom != "", nil
	}
	if a.Custom == "" {
		return nil, false, nil
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(a.Custom), 64)
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
		return nil, false, fmt.Errorf("%s takes a number, got %q", fd.q.Header, a.Custom)
	}
	if fd.kind == "integer" {
		if n != math.Trunc(n) {
			return nil, false, fmt.Errorf("%s takes a whole number, got %q", fd.q.Header, a.Custom)
		}
		return int64(n), true, nil
	}
	return n, true, nil
}
