package hostrun

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
)

// requestOf rebuilds the question set of a host's waiting call that
// askuser did not record (it was killed, or the person's own hook deferred
// it): an AskUserQuestion call's questions, or another tool's approval.
func requestOf(c agenthost.Call) (ask.Request, error) {
	if c.Name == ask.ToolName || strings.HasSuffix(c.Name, "_"+ask.ToolName) {
		in, err := ask.Decode(c.Input)
		if err != nil {
			return ask.Request{}, fmt.Errorf("read the waiting call %s: %w", c.ID, err)
		}
		return ask.Request{ID: c.ID, Questions: in.Questions}, nil
	}
	return approval.Request{ID: c.ID, Tool: c.Name, Input: c.Input}.Question(false), nil
}
