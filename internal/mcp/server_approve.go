package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
)

// approveInput is what Claude Code sends its permission-prompt tool.
type approveInput struct {
	Tool      string          `json:"tool_name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

// approveDecision is the permission-prompt tool's answer, sent as the JSON
// text of one text block.
type approveDecision struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Message      string          `json:"message,omitempty"`
}

// approve is Claude Code's permission prompt: allow with updatedInput, or
// deny with a message. The decision is internal/approval's Decider, as for a hook, with
// who answered noted in the AskUserQuestion answers' annotations (this
// answer has no other channel to the model). It never fails open: input it
// cannot read is denied.
func (s *Server) approve(ctx context.Context, call *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in approveInput
	if err := json.Unmarshal(call.Params.Arguments, &in); err != nil || in.Tool == "" {
		why := "tool_name is missing"
		if err != nil {
			why = err.Error()
		}
		return decisionResult(approveDecision{Behavior: "deny", Message: approval.Malformed("permission request", why,
			"a request names the tool in tool_name and its input in input").Message}), nil
	}
	if len(in.Input) == 0 || string(in.Input) == "null" {
		in.Input = json.RawMessage(`{}`)
	}
	id := in.ToolUseID
	if id == "" {
		id = callID(call)
	}
	d := approval.Decider{
		Ask:       func(ctx context.Context, req ask.Request) ([]ask.Answer, error) { return s.ask(ctx, call, req) },
		Approvals: s.cfg.Approvals,
		SelfTool:  "mcp__" + s.cfg.Name + "__" + ask.ToolName,
		Notes:     true,
		Dir:       s.cfg.Dir,
	}
	p := d.Decide(ctx, in.Tool, id, in.Input)
	if !p.Allow {
		if p.Message == "" {
			p.Message = approval.Failed(in.Tool, fmt.Errorf("no reason was given")).Message
		}
		return decisionResult(approveDecision{Behavior: "deny", Message: p.Message}), nil
	}
	if p.Context != "" {
		// Context carries no program name; the log line adds the one prefix.
		fmt.Fprintf(s.cfg.Log, "askuser mcp: %s\n", ask.Display(p.Context))
	}
	return decisionResult(approveDecision{Behavior: "allow", UpdatedInput: p.UpdatedInput}), nil
}

func decisionResult(d approveDecision) *sdk.CallToolResult {
	b, err := json.Marshal(d)
	if err != nil {
		b = []byte(`{"behavior":"deny","message":"The call was not run: askuser could not encode its decision; do not retry it, and continue without it."}`)
	}
	return textResult(string(b), false)
}
