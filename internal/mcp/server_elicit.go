package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
)

// elicitFrontend asks a question set through the MCP client's own UI
// (--frontend elicit): one elicitation/create form for the whole set. A
// single select is a string enum of the exact labels, a multi-select an
// array of that enum, and "Other" a free string beside each. The reply is
// mapped back with ask.Selection, as a person's answer (the host showed
// the form to its user). A declined form and a cancelled one are errors
// that say which it was, never answers.
type elicitFrontend struct {
	session *sdk.ServerSession
}

var _ ask.Frontend = (*elicitFrontend)(nil)

// elicitAttempts bounds how often a form is shown again when its reply
// does not fit (a label and free text for a single select).
const elicitAttempts = 3

// elicits reports whether the client declared the elicitation capability.
func elicits(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// Ask shows the form and maps the reply back.
func (e *elicitFrontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	message := "Please answer these questions."
	if req.Kind == ask.KindApproval {
		message = "A tool wants to run; please decide."
	}
	for attempt := 1; ; attempt++ {
		res, err := e.session.Elicit(ctx, &sdk.ElicitParams{Mode: "form", Message: message, RequestedSchema: formSchema(req)})
		if err != nil {
			if cerr := ask.CtxErr(ctx); cerr != nil {
				return nil, cerr
			}
			return nil, fmt.Errorf("%w: the host's form failed: %v", ask.ErrNoAnswer, err)
		}
		switch res.Action {
		case "decline":
			return nil, fmt.Errorf("%w: the user declined to answer (the host's form was declined)", ask.ErrNoAnswer)
		case "accept":
		default:
			return nil, fmt.Errorf("%w: the host's form was dismissed without an answer (%s); in claude -p a form is cancelled unless an Elicitation hook answers it", ask.ErrNoAnswer, ask.Display(res.Action))
		}
		answers, err := formAnswers(req, res.Content)
		if err == nil {
			return answers, nil
		}
		if attempt == elicitAttempts {
			return nil, fmt.Errorf("%w: the host's form was answered %d times in a way that does not fit: %v", ask.ErrNoAnswer, attempt, err)
		}
		message = fmt.Sprintf("Your last answers could not be used: %v. Please answer again.", err)
	}
}

// field names of question i in the form.
func choiceField(i int) string { return fmt.Sprintf("q%d", i+1) }
func otherField(i int) string  { return fmt.Sprintf("q%d_other", i+1) }

// formSchema is the set as a flat form schema, as MCP allows it.
func formSchema(req ask.Request) map[string]any {
	props := map[string]any{}
	for i, q := range req.Questions {
		labels := make([]any, len(q.Options))
		desc := ask.Display(q.Question)
		for j, o := range q.Options {
			labels[j] = o.Label
			if o.Description != "" {
				desc += fmt.Sprintf("\n- %s: %s", ask.Display(o.Label), ask.Display(o.Description))
			}
		}
		choice := map[string]any{"title": ask.Display(q.Header), "description": desc}
		if q.MultiSelect {
			choice["type"] = "array"
			choice["items"] = map[string]any{"type": "string", "enum": labels}
		} else {
			choice["type"] = "string"
			choice["enum"] = labels
		}
		props[choiceField(i)] = choice
		props[otherField(i)] = map[string]any{"type": "string", "title": ask.Display(q.Header) + ": other",
			"description": "Or answer in your own words instead"}
	}
	return map[string]any{"type": "object", "properties": props}
}

// formAnswers maps a form's content back to one answer per question.
func formAnswers(req ask.Request, content map[string]any) ([]ask.Answer, error) {
	answers := make([]ask.Answer, len(req.Questions))
	var errs []error
	now := time.Now()
	for i, q := range req.Questions {
		var labels []string
		switch v := content[choiceField(i)].(type) {
		case string:
			if v != "" {
				labels = []string{v}
			}
		case []any:
			for _, l := range v {
				if s, ok := l.(string); ok {
					labels = append(labels, s)
				}
			}
		}
		other, _ := content[otherField(i)].(string)
		a, err := ask.Selection(q, labels, other, ask.SourcePerson)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a.AnsweredAt = now
		answers[i] = a
	}
	return answers, errors.Join(errs...)
}
