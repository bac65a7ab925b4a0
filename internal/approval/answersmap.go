package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// QuestionsOnly returns Claude Code's AskUserQuestion input reduced to its
// "questions" key, for ask.Parse: Claude Code's own input may carry keys
// askuser's schema does not have (answers, annotations, metadata), which
// the host validated already and which updatedInput keeps unchanged.
func QuestionsOnly(input json.RawMessage) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(input, &obj); err != nil {
		return nil, fmt.Errorf("the AskUserQuestion input is not a JSON object: %w", err)
	}
	q, ok := obj["questions"]
	if !ok {
		return json.RawMessage(`{}`), nil // ask.Parse says what is missing
	}
	return json.Marshal(map[string]json.RawMessage{"questions": q})
}

// WithAnswers returns input, unchanged, plus Claude Code's "answers" map:
// the exact question text to the exact option label (" (Recommended)"
// included) for a single select, the labels joined with ", " for a
// multi-select (a label holding ", " JSON-quoted, which Claude Code reads
// back as one label), and free text as given. Exact labels matter: on
// 2.1.330 anything else reaches the model as "The user answered …", not
// "Your questions have been answered …". A skipped question has no entry;
// n is the number of entries, and a caller must not send an empty map
// (Claude Code would tell its model "The user did not answer the
// questions."). With notes, an answer no person gave also gets
// "annotations": {question: {"notes": who answered}}, the one channel the
// permission-prompt tool has to tell the model.
func WithAnswers(input json.RawMessage, qs []ask.Question, answers []ask.Answer, notes bool) (out json.RawMessage, n int, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(input, &obj); err != nil {
		return nil, 0, fmt.Errorf("the AskUserQuestion input is not a JSON object: %w", err)
	}
	values := map[string]string{}
	annotations := map[string]map[string]string{}
	for i, a := range answers {
		if i >= len(qs) {
			break
		}
		v, ok := AnswerValue(qs[i], a)
		if !ok {
			continue
		}
		values[qs[i].Question] = v
		if notes && a.Source != ask.SourcePerson {
			annotations[qs[i].Question] = map[string]string{"notes": "Answered by " + WhoAnswered(a)}
		}
	}
	if obj["answers"], err = Marshal(values); err != nil {
		return nil, 0, err
	}
	if len(annotations) > 0 {
		if obj["annotations"], err = Marshal(annotations); err != nil {
			return nil, 0, err
		}
	}
	out, err = Marshal(obj)
	return out, len(values), err
}

// AnswerValue renders one answer as Claude Code's answers map holds it;
// ok is false for a skipped question.
func AnswerValue(q ask.Question, a ask.Answer) (string, bool) {
	var parts []string
	for _, sel := range a.Selected {
		label := sel
		if i := q.LabelIndex(sel); i >= 0 {
			label = q.Options[i].Label // exact, as the model wrote it
		}
		if q.MultiSelect && strings.Contains(label, ", ") {
			label = quote(label)
		}
		parts = append(parts, label)
	}
	if a.Custom != "" {
		parts = append(parts, a.Custom)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, ", "), true
}

// WhoAnswered names the source of an answer that was not a person's, and
// why a machine answered, for a model.
func WhoAnswered(a ask.Answer) string {
	s := a.Source.Describe()
	if a.Via != "" {
		s += " (" + ask.Display(a.Via) + ")"
	}
	if a.Reason != "" {
		s += "; " + ask.Display(a.Reason)
	}
	return s
}

// AllPerson reports whether a person gave every answer.
func AllPerson(answers []ask.Answer) bool {
	for _, a := range answers {
		if a.Source != ask.SourcePerson {
			return false
		}
	}
	return true
}

// Unanswered is what a model is told when a question set got no answer:
// that it was not answered, why, and which questions, so the model can
// neither mistake it for an answer nor guess one.
func Unanswered(req ask.Request, why error) string {
	var b strings.Builder
	text := strings.TrimPrefix(why.Error(), ask.ErrNoAnswer.Error()+": ")
	fmt.Fprintf(&b, "These questions were not answered: %s.\n\n", ask.Display(strings.TrimSuffix(text, ".")))
	for i, q := range req.Questions {
		fmt.Fprintf(&b, "%d. %s (%s)\n", i+1, ask.Display(q.Header), ask.Display(q.Question))
	}
	b.WriteString("\nNo answer was given, so do not assume one: continue with what does not depend on it, or ask again later.")
	return b.String()
}

func quote(s string) string {
	b, _ := Marshal(s) // a string always encodes
	return string(b)
}

// Marshal is json.Marshal without HTML escaping, so "<" and "&" in a
// label reach Claude Code as written and match the option exactly.
func Marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
