package hook

import (
	"encoding/json"

	"github.com/askuser/askuser/ask"
)

// form is all the hook needs of internal/elicit: a form an MCP server asked
// to have filled in (elicitation/create), as a question set, and answers
// mapped back to the exact values its schema allows. Content matches
// answers to fields by position, so a question's text may be reworded for
// a retry.
type form interface {
	Questions(id, agent string) ask.Request
	Content(answers []ask.Answer) (map[string]any, error)
}

// parseForm reads an elicitation's message and requested schema.
//
// MERGE (lead): internal/elicit, written on branch h-mcpclient, provides
// this mapping: elicit.Parse(message, schema) (Form, error),
// form.Questions(id, agent) ask.Request and form.Content(answers)
// (map[string]any, problems). When it is merged, make this body
//
//	f, err := elicit.Parse(message, schema)
//	if err != nil {
//		return nil, err
//	}
//	return elicitForm{f}, nil
//
// with a three-line adapter elicitForm whose Content turns the problems
// into an error, and delete elicit_standin.go and its test.
func parseForm(message string, schema json.RawMessage) (form, error) {
	return parseStandinForm(message, schema)
}
