package hook

import (
	"encoding/json"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/elicit"
)

// form is all the hook needs of internal/elicit: a form an MCP server asked
// to have filled in (elicitation/create) as a question set, the answers
// mapped back to the exact values its schema allows, and the form that
// asks again what did not fit.
type form interface {
	Questions(id, agent string) ask.Request
	// Content returns the fields answered well, and nil or the problems.
	Content(answers []ask.Answer) (map[string]any, problems)
	// Retry is the form asking again the fields with problems that are not
	// final, each saying what was wrong.
	Retry(p problems) form
}

// problems are the answers a form cannot take (internal/elicit.Problems).
type problems interface {
	// Final reports that asking again cannot help (a file or a policy
	// gave the answer, or the person declined).
	Final() bool
	String() string
}

// parseForm reads an elicitation's message and requested schema, through
// internal/elicit (the mapping askuser run's MCP client uses too).
func parseForm(message string, schema json.RawMessage) (form, error) {
	f, err := elicit.Parse(message, schema)
	if err != nil {
		return nil, err
	}
	return elicitForm{f}, nil
}

// elicitForm adapts elicit.Form to form.
type elicitForm struct{ f elicit.Form }

func (e elicitForm) Questions(id, agent string) ask.Request { return e.f.Questions(id, agent) }

func (e elicitForm) Content(a []ask.Answer) (map[string]any, problems) {
	c, p := e.f.Content(a)
	if len(p) == 0 {
		return c, nil
	}
	return c, p
}

func (e elicitForm) Retry(p problems) form { return elicitForm{e.f.Retry(p.(elicit.Problems))} }
