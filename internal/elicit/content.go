package elicit

import (
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// Problem is an answer the form cannot take.
type Problem struct {
	// Field is the property's name; "" for the form as a whole.
	Field  string
	Header string
	// Message says what is wrong, for a person and for the decline reason.
	Message string
	// Final is set when asking again cannot help: the person declined, or
	// the answer came from a file or the policy, which would give it again.
	Final bool
}

// Problems are the problems of one set of answers.
type Problems []Problem

// Final reports whether any problem is final: the form is then declined,
// with String as the reason.
func (ps Problems) Final() bool {
	for _, p := range ps {
		if p.Final {
			return true
		}
	}
	return false
}

// String lists the problems on one line.
func (ps Problems) String() string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		if p.Header != "" {
			parts[i] = p.Header + ": " + p.Message
		} else {
			parts[i] = p.Message
		}
	}
	return strings.Join(parts, "; ")
}

// Content maps the answers to the questions of Questions (one per field,
// in order) back to the form's content: exact schema values keyed by
// property name, optional fields left empty absent. With problems, the
// content holds the fields that were answered well; the caller asks the
// rest again with Retry (merging the contents), or declines when a
// problem is Final.
func (f Form) Content(answers []ask.Answer) (map[string]any, Problems) {
	if len(f.Fields) == 0 {
		return f.confirmation(answers)
	}
	if len(answers) != len(f.Fields) {
		return nil, Problems{{Message: fmt.Sprintf("%d answers were given to a form of %d questions", len(answers), len(f.Fields)), Final: true}}
	}
	content := map[string]any{}
	var probs Problems
	for i, fd := range f.Fields {
		v, ok, msg := fd.value(answers[i])
		if msg != "" {
			final := answers[i].Source == ask.SourceFile || answers[i].Source == ask.SourcePolicy
			probs = append(probs, Problem{Field: fd.Name, Header: fd.Header, Message: msg, Final: final})
			continue
		}
		if ok {
			content[fd.Name] = v
		}
	}
	return content, probs
}

// confirmation reads the answer to a form without fields.
func (f Form) confirmation(answers []ask.Answer) (map[string]any, Problems) {
	if len(answers) != 1 {
		return nil, Problems{{Message: fmt.Sprintf("%d answers were given to a confirmation", len(answers)), Final: true}}
	}
	a := answers[0]
	switch {
	case a.Source == ask.SourcePolicy:
		return nil, Problems{{Header: ConfirmHeader, Message: "no person confirmed, and the recommended-option policy does not accept requests", Final: true}}
	case len(a.Selected) == 1 && ask.FoldKey(a.Selected[0]) == ask.FoldKey(LabelAccept):
		return map[string]any{}, nil
	case len(a.Selected) == 1 && ask.FoldKey(a.Selected[0]) == ask.FoldKey(LabelDecline):
		return nil, Problems{{Header: ConfirmHeader, Message: "declined by " + a.Source.Describe(), Final: true}}
	}
	msg := "choose Accept or Decline"
	if a.Custom != "" {
		msg = fmt.Sprintf("%q is not an answer to a confirmation; choose Accept or Decline", a.Custom)
	}
	final := a.Source == ask.SourceFile
	return nil, Problems{{Header: ConfirmHeader, Message: msg, Final: final}}
}

// Retry returns the form that asks again the fields with problems that
// are not final, each question saying what was wrong.
func (f Form) Retry(probs Problems) Form {
	why := map[string]string{}
	for _, p := range probs {
		if !p.Final && p.Field != "" {
			why[p.Field] = p.Message
		}
	}
	out := Form{Asker: f.Asker, Message: f.Message}
	for _, fd := range f.Fields {
		if msg, ok := why[fd.Name]; ok {
			fd.problem = msg
			out.Fields = append(out.Fields, fd)
		}
	}
	return out
}

// value maps one answer to the field's value. ok is false when the field
// is left empty; msg says what is wrong with the answer.
func (fd Field) value(a ask.Answer) (v any, ok bool, msg string) {
	if a.Source == ask.SourcePolicy {
		// The policy never invents a value: the schema's own default, or
		// nothing.
		switch {
		case fd.Default != nil:
			return fd.typed(fd.Default), true, ""
		case fd.Required:
			return nil, false, "no person answered, and the field is required and has no default"
		}
		return nil, false, ""
	}
	opts := fd.options()
	q := ask.Question{MultiSelect: fd.Kind == KindMulti}
	for _, o := range opts {
		q.Options = append(q.Options, ask.Option{Label: o.label})
	}
	var picked []option
	for _, l := range a.Selected {
		i := q.LabelIndex(l)
		if i < 0 {
			return nil, false, fmt.Sprintf("%q is not one of its options (%s)", ask.Display(l), q.LabelList())
		}
		picked = append(picked, opts[i])
	}
	for _, o := range picked {
		if o.kind == optSkip {
			if len(picked) > 1 || a.Custom != "" {
				return nil, false, "Skip was chosen with an answer; choose one or the other"
			}
			return nil, false, ""
		}
	}
	if fd.Kind == KindMulti {
		return fd.multi(picked, a.Custom)
	}
	switch {
	case len(picked) == 1 && a.Custom == "":
		return fd.fromOption(picked[0]), true, ""
	case len(picked) == 0 && a.Custom != "":
		return fd.parse(a.Custom)
	case len(picked) == 0:
		if fd.Required {
			return nil, false, "an answer is required"
		}
		return nil, false, ""
	}
	return nil, false, "give one answer"
}

// fromOption is the value an option of a single-answer field stands for.
func (fd Field) fromOption(o option) any {
	switch o.kind {
	case optChoice:
		return fd.Choices[o.choice].Value
	case optYes:
		return true
	case optNo:
		return false
	case optDefault:
		return fd.typed(fd.Default)
	}
	return nil
}

// typed returns a decoded default in the type the content carries: a
// whole number for an integer field.
func (fd Field) typed(v any) any {
	if n, ok := v.(float64); ok && fd.Kind == KindInteger {
		return int64(n)
	}
	return v
}

// multi maps a multi-select answer: the chosen values in the schema's
// order, plus any typed as free text (comma-separated labels or values).
func (fd Field) multi(picked []option, custom string) (any, bool, string) {
	chosen := make([]bool, len(fd.Choices))
	for _, o := range picked {
		chosen[o.choice] = true
	}
	if custom != "" {
		for _, part := range strings.Split(custom, ",") {
			i := fd.matchChoice(strings.TrimSpace(part))
			if i < 0 {
				return nil, false, fmt.Sprintf("%q is not one of its choices (%s)", strings.TrimSpace(part), fd.choiceList())
			}
			chosen[i] = true
		}
	}
	values := []string{}
	for i, c := range chosen {
		if c {
			values = append(values, fd.Choices[i].Value)
		}
	}
	n := len(values)
	switch {
	case n == 0 && !fd.Required:
		return nil, false, ""
	case n == 0:
		return nil, false, "choose at least one"
	case fd.MinItems != nil && n < *fd.MinItems:
		return nil, false, fmt.Sprintf("%d chosen; choose at least %d", n, *fd.MinItems)
	case fd.MaxItems != nil && n > *fd.MaxItems:
		return nil, false, fmt.Sprintf("%d chosen; choose at most %d", n, *fd.MaxItems)
	}
	return values, true, ""
}

// matchChoice finds the choice a person typed: its exact value first,
// then its title or value as a person would write it.
func (fd Field) matchChoice(s string) int {
	if i := fd.choiceIndex(s); i >= 0 {
		return i
	}
	for i, c := range fd.Choices {
		if ask.FoldKey(s) == ask.FoldKey(c.Title) || ask.FoldKey(s) == ask.FoldKey(c.Value) {
			return i
		}
	}
	return -1
}

func (fd Field) choiceList() string {
	titles := make([]string, len(fd.Choices))
	for i, c := range fd.Choices {
		titles[i] = ask.Display(c.Title)
	}
	return strings.Join(titles, ", ")
}

// parse reads free text as the field's value and checks the schema's
// limits.
func (fd Field) parse(text string) (any, bool, string) {
	switch fd.Kind {
	case KindChoice:
		if i := fd.matchChoice(text); i >= 0 {
			return fd.Choices[i].Value, true, ""
		}
		return nil, false, fmt.Sprintf("%q is not one of its choices (%s)", text, fd.choiceList())
	case KindBoolean:
		switch strings.ToLower(text) {
		case "yes", "y", "true":
			return true, true, ""
		case "no", "n", "false":
			return false, true, ""
		}
		return nil, false, fmt.Sprintf("%q is not yes or no", text)
	case KindNumber, KindInteger:
		return fd.number(text)
	}
	return fd.text(text)
}

func (fd Field) number(text string) (any, bool, string) {
	n, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil, false, fmt.Sprintf("%q is not a number", text)
	}
	if fd.Kind == KindInteger && (n != math.Trunc(n) || math.Abs(n) > 1<<53) {
		return nil, false, fmt.Sprintf("%q is not a whole number", text)
	}
	show := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	if fd.Minimum != nil && n < *fd.Minimum {
		return nil, false, fmt.Sprintf("%s is less than the minimum, %s", show(n), show(*fd.Minimum))
	}
	if fd.Maximum != nil && n > *fd.Maximum {
		return nil, false, fmt.Sprintf("%s is more than the maximum, %s", show(n), show(*fd.Maximum))
	}
	if fd.Kind == KindInteger {
		return int64(n), true, ""
	}
	return n, true, ""
}

func (fd Field) text(text string) (any, bool, string) {
	n := utf8.RuneCountInString(text)
	if fd.MinLength != nil && n < *fd.MinLength {
		return nil, false, fmt.Sprintf("the answer is %d characters; give at least %d", n, *fd.MinLength)
	}
	if fd.MaxLength != nil && n > *fd.MaxLength {
		return nil, false, fmt.Sprintf("the answer is %d characters; give at most %d", n, *fd.MaxLength)
	}
	if msg := checkFormat(fd.Format, text); msg != "" {
		return nil, false, msg
	}
	return text, true, ""
}

// checkFormat checks the simple string formats; others pass.
func checkFormat(format, s string) string {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s || a.Name != "" {
			return fmt.Sprintf("%q is not an email address", s)
		}
	case "uri":
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return fmt.Sprintf("%q is not a full web address (such as https://example.com)", s)
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return fmt.Sprintf("%q is not a date written YYYY-MM-DD", s)
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return fmt.Sprintf("%q is not a date and time such as 2025-06-30T14:00:00Z", s)
		}
	}
	return ""
}
