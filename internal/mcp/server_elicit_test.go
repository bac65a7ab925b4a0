package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
)

// hostAsker asks through the host's form, as --frontend elicit does.
func hostAsker(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error) {
	if host == nil {
		return nil, errors.New("no host form")
	}
	return host.Ask(ctx, req)
}

const twoQuestions = `{"questions":[` +
	`{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false},` +
	`{"question":"Which features?","header":"Features","options":[{"label":"Auth","description":"a"},{"label":"Search","description":"b"}],"multiSelect":true}]}`

// scriptedHost is a client whose user answers forms from a script, and
// which records the forms it was shown.
type scriptedHost struct {
	mu      sync.Mutex
	replies []*sdk.ElicitResult
	shown   []*sdk.ElicitParams
}

func (h *scriptedHost) handle(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.shown = append(h.shown, r.Params)
	if len(h.replies) == 0 {
		return nil, errors.New("scriptedHost: no reply left")
	}
	res := h.replies[0]
	h.replies = h.replies[1:]
	return res, nil
}

func TestElicitAccept(t *testing.T) {
	host := &scriptedHost{replies: []*sdk.ElicitResult{
		// A label and free text for a single select do not fit: asked again.
		{Action: "accept", Content: map[string]any{"q1": "SQLite", "q1_other": "MySQL"}},
		{Action: "accept", Content: map[string]any{"q1": "PostgreSQL (Recommended)", "q2": []any{"Search", "Auth"}, "q2_other": "and audit logs"}},
	}}
	cs := connect(t, ServeConfig{Ask: hostAsker}, &sdk.ClientOptions{ElicitationHandler: host.handle})
	res := callTool(t, cs, ask.ToolName, twoQuestions, nil)
	want := "User answered the following questions:\n\n1. Database (Which database should we use?)\n   Selected: PostgreSQL\n\n" +
		"2. Features (Which features?)\n   Selected: Auth, Search\n   Other: and audit logs\n\nProceeding with user selections."
	if got := text(t, res); got != want || res.IsError {
		t.Errorf("result\n%s\nwant\n%s", got, want)
	}
	if len(host.shown) != 2 || !strings.Contains(host.shown[1].Message, "could not be used") {
		t.Fatalf("forms shown: %d; the second must say why it is asked again", len(host.shown))
	}
	schema, _ := json.Marshal(host.shown[0].RequestedSchema)
	for _, want := range []string{`"enum":["PostgreSQL (Recommended)","SQLite"]`, `"type":"array"`, `"q2_other"`, `"title":"Database"`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("form schema %s lacks %s", schema, want)
		}
	}
}

func TestElicitDeclineAndCancelAreNotAnswers(t *testing.T) {
	for action, want := range map[string]string{
		"decline": "the user declined to answer",
		"cancel":  "dismissed without an answer",
	} {
		t.Run(action, func(t *testing.T) {
			host := &scriptedHost{replies: []*sdk.ElicitResult{{Action: action}}}
			cs := connect(t, ServeConfig{Ask: hostAsker}, &sdk.ClientOptions{ElicitationHandler: host.handle})
			res := callTool(t, cs, ask.ToolName, twoQuestions, nil)
			got := text(t, res)
			if !res.IsError || !strings.Contains(got, want) || !strings.Contains(got, "Which features?") || strings.Contains(got, "Selected") {
				t.Errorf("isError %v, text %q: want a no-answer saying %q and naming the questions", res.IsError, got, want)
			}
		})
	}
}

func TestNoHostFormWithoutTheCapability(t *testing.T) {
	cs := connect(t, ServeConfig{Ask: hostAsker}, nil) // no ElicitationHandler: no capability
	if got := text(t, callTool(t, cs, ask.ToolName, twoQuestions, nil)); !strings.Contains(got, "no host form") {
		t.Errorf("text %q: the host form must be nil when the client cannot elicit", got)
	}
}

// The approval of a tool can be answered through the host's form too; a
// declined form denies.
func TestElicitApproval(t *testing.T) {
	host := &scriptedHost{replies: []*sdk.ElicitResult{{Action: "accept", Content: map[string]any{"q1": "Allow"}}, {Action: "decline"}}}
	cs := connect(t, ServeConfig{Ask: hostAsker}, &sdk.ClientOptions{ElicitationHandler: host.handle})
	args := approveArgs("Bash", `{"command":"touch x"}`)
	if d := decision(t, callTool(t, cs, "approve", args, nil)); d.Behavior != "allow" {
		t.Errorf("an accepted Allow gave %+v", d)
	}
	if d := decision(t, callTool(t, cs, "approve", args, nil)); d.Behavior != "deny" || !strings.Contains(d.Message, "declined") {
		t.Errorf("a declined form gave %+v", d)
	}
	if !strings.Contains(host.shown[0].Message, "tool wants to run") {
		t.Errorf("approval form message %q", host.shown[0].Message)
	}
}
