package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/askuser/askuser/ask"
)

// AskTool is AskUserQuestion: it asks the questions through the run's
// frontend and returns the formatted answers. Invalid input is an error
// result listing every problem and its fix.
type AskTool struct{}

var (
	_ Tool       = AskTool{}
	_ Concurrent = AskTool{}
	_ Previewer  = AskTool{}
)

// Spec is Claude Code's AskUserQuestion, field for field.
func (AskTool) Spec() ToolSpec {
	return ToolSpec{Name: ask.ToolName, Description: ask.ToolDescription, InputSchema: ask.InputSchema}
}

// Concurrency lets several question sets be open at once when the frontend
// can hold them (JSON lines); a terminal asks them in order.
func (AskTool) Concurrency() Concurrency { return RunConcurrentAsking }

// Run asks the call's question set, under the call's id.
func (AskTool) Run(ctx context.Context, call *Call) (Result, error) {
	in, err := ask.Parse(call.Input)
	if err != nil {
		return Result{Content: invalidInput(call.Input, err), IsError: true}, nil
	}
	answers, err := call.Ask(ctx, ask.Request{ID: call.ID, Questions: in.Questions})
	if err != nil {
		return Result{}, err
	}
	return Result{Content: ask.FormatResult(answers), Answers: answers}, nil
}

// Preview is the question set a call will ask, when its input is valid.
func (AskTool) Preview(call Block) (ask.Request, bool) {
	in, err := ask.Parse(call.Input)
	return ask.Request{ID: call.ID, Questions: in.Questions}, err == nil
}

// invalidInput words a decoding failure for the model.
func invalidInput(raw json.RawMessage, err error) string {
	var ve *ask.ValidationError
	if errors.As(err, &ve) {
		var s string
		if json.Unmarshal(raw, &s) == nil && !json.Valid([]byte(s)) {
			return fmt.Sprintf("Invalid %s input: the arguments are not valid JSON (%q). Send a JSON object {\"questions\": [...]}.", ask.ToolName, truncate(s, 200))
		}
		return ve.ToolResult()
	}
	return fmt.Sprintf("Invalid %s input: %v", ask.ToolName, err)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
