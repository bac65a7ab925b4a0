package approval

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/askuser/askuser/ask"
)

// Asker puts a question set to whoever answers it (the frontend the flags
// chose, bounded as they say) and returns one answer per question, or an
// error saying why nobody answered.
type Asker func(ctx context.Context, req ask.Request) ([]ask.Answer, error)

// Permission is a decision about one tool call, in Claude Code's terms: the
// permission-prompt tool's {"behavior": …} and a hook's permissionDecision
// are both translated from it.
type Permission struct {
	Allow bool
	// UpdatedInput is the input to run the tool with, when Allow.
	UpdatedInput json.RawMessage
	// Message is what the model is told, when not Allow.
	Message string
	// Context, when set, tells the model who answered when it was not a
	// person (a hook's additionalContext). It carries no program's name:
	// whoever shows it to a person adds its own.
	Context string
}

// Decider answers Claude Code's permission questions: the built-in
// AskUserQuestion is answered (its questions asked, the answers put into
// updatedInput), askuser's own MCP AskUserQuestion is allowed at once
// (asking is its approval), and every other tool is approved or denied
// through internal/approval: the rules first, else a person asked.
type Decider struct {
	Ask Asker
	// Approvals are the rules written in the answers file; nil is none.
	Approvals *Policy
	// SelfTool is askuser's own AskUserQuestion as the host names it:
	// mcp__<server name>__AskUserQuestion.
	SelfTool string
	// Notes puts who answered into updatedInput's annotations when it was
	// not a person (the permission-prompt tool has no other channel).
	Notes bool
	// Dir is the session's working folder, which path rules and relative
	// paths are read against: the hook event's cwd, the MCP server's own.
	Dir string
}

// Decide decides one call. It never allows by default: every failure is a
// denial that says what went wrong.
func (d Decider) Decide(ctx context.Context, tool, id string, input json.RawMessage) Permission {
	switch {
	case tool == ask.ToolName:
		return d.answer(ctx, id, input)
	case d.SelfTool != "" && tool == d.SelfTool:
		return Permission{Allow: true, UpdatedInput: input}
	}
	return d.approve(ctx, tool, id, input)
}

// InvalidInput words AskUserQuestion input that cannot be asked, for the
// model: its problems, each saying what to fix, or why it cannot be read.
func InvalidInput(err error) string {
	var ve *ask.ValidationError
	if errors.As(err, &ve) {
		return ve.ToolResult()
	}
	return "Invalid AskUserQuestion input; nothing was asked: " + err.Error()
}

// answer asks the built-in AskUserQuestion's questions.
func (d Decider) answer(ctx context.Context, id string, input json.RawMessage) Permission {
	qonly, err := QuestionsOnly(input)
	if err != nil {
		return Permission{Message: InvalidInput(err)}
	}
	in, err := ask.Parse(qonly)
	if err != nil {
		return Permission{Message: InvalidInput(err)}
	}
	req := ask.Request{ID: id, Questions: in.Questions}
	answers, err := d.Ask(ctx, req)
	if err != nil {
		return Permission{Message: Unanswered(req, err)}
	}
	if declined(answers) {
		// askuser cancel: the model reads that the person declined, and
		// why, as askuser's own result says it.
		return Permission{Message: ask.FormatResult(answers)}
	}
	upd, n, err := WithAnswers(input, in.Questions, answers, d.Notes)
	switch {
	case err != nil:
		return Permission{Message: Unanswered(req, err)}
	case n == 0:
		return Permission{Message: Unanswered(req, errors.New("every question was skipped; no option was chosen and no text given"))}
	}
	p := Permission{Allow: true, UpdatedInput: upd}
	if !AllPerson(answers) {
		p.Context = "Not every answer to AskUserQuestion came from a person; its record:\n\n" + ask.FormatResult(answers)
	}
	return p
}

// approve decides whether another tool may run: a rule, else a person.
// The recommended-option policy never approves (FromAnswers).
func (d Decider) approve(ctx context.Context, tool, id string, input json.RawMessage) Permission {
	req := Request{ID: id, Tool: tool, Input: input, Dir: d.Dir}
	policy := d.Approvals
	if policy == nil {
		policy = &Policy{}
	}
	dec, decided := policy.Decide(req, nil)
	if !decided {
		answers, err := d.Ask(ctx, req.Question(false))
		if err != nil {
			dec = Failed(tool, err)
		} else {
			dec = policy.Answered(req, answers)
		}
	}
	if dec.Allow {
		return Permission{Allow: true, UpdatedInput: input, Context: dec.AllowNote(tool)}
	}
	return Permission{Message: dec.Message}
}

// declined reports whether a person declined to answer every question
// (askuser cancel), so the call is denied saying so.
func declined(answers []ask.Answer) bool {
	for _, a := range answers {
		if a.Declined == nil {
			return false
		}
	}
	return len(answers) > 0
}
