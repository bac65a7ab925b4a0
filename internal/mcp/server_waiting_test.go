package mcp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
)

// A question left to wait for a late answer is not an answer: the model
// reads "NOT ANSWERED YET", what was asked, that the session continues
// with the answer, and to end its turn; the result is no error, so the
// host does not retry it. The call's id and the host's thread reach the
// asker from Codex's _meta.
func TestAskLeftWaitingIsNoAnswer(t *testing.T) {
	var gotID, gotThread string
	cs := connect(t, ServeConfig{Ask: func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		gotID, gotThread = req.ID, ThreadID(ctx)
		return nil, &agenthost.Suspension{Session: "3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f", Continues: true, Why: "nobody answered within 10m (--ask-timeout)"}
	}}, nil)
	res := callTool(t, cs, "AskUserQuestion", dbInput, sdk.Meta{"threadId": "019a-thread", "callId": "call_ask"})
	got := text(t, res)
	if res.IsError {
		t.Error("the result is an error; the host would retry the call")
	}
	for _, want := range []string{"NOT ANSWERED YET", "nobody answered within 10m", "Which database should we use?",
		"continued with their answer as a new message", "End your turn now", "askuser session 3f2a9c1e"} {
		if !strings.Contains(got, want) {
			t.Errorf("the result lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "PostgreSQL") || strings.Contains(got, "SQLite") {
		t.Errorf("the result names an option, which a model could take for the answer:\n%s", got)
	}
	if gotID != "call_ask" || gotThread != "019a-thread" {
		t.Errorf("the asker got set %q of thread %q; want Codex's call id and thread", gotID, gotThread)
	}
}
