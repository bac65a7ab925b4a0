package client

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

// oneCall is a model that makes one tool call, then ends its turn; it
// keeps the tool result it was sent.
type oneCall struct {
	name, input string

	mu     sync.Mutex
	result *agentloop.Block
}

func (*oneCall) Name() string  { return "test" }
func (*oneCall) Model() string { return "test" }

func (p *oneCall) Complete(_ context.Context, req agentloop.Request, _ func(string)) (agentloop.Response, error) {
	for _, b := range req.Messages[len(req.Messages)-1].Content {
		if b.Type == agentloop.BlockToolResult {
			p.mu.Lock()
			p.result = &b
			p.mu.Unlock()
			return agentloop.Response{StopReason: "end_turn",
				Message: agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "done"}}}}, nil
		}
	}
	return agentloop.Response{StopReason: "tool_use", Message: agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
		{Type: agentloop.BlockToolUse, ID: "toolu_1", Name: p.name, Input: json.RawMessage(p.input)}}}}, nil
}

// runLoop runs a real agent loop whose model calls the tool once, with fe
// as the run's frontend.
func runLoop(t *testing.T, c *Client, fe ask.Frontend, name, input string) (agentloop.Outcome, *agentloop.Block) {
	t.Helper()
	reg, err := agentloop.NewRegistry(c.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	p := &oneCall{name: name, input: input}
	loop := &agentloop.Loop{Provider: p, Tools: reg, Frontend: fe}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := loop.Run(ctx, agentloop.NewState(), &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "go"}}})
	p.mu.Lock()
	defer p.mu.Unlock()
	return out, p.result
}

func TestElicitationIsAskedInOrderAndAnsweredWithExactValues(t *testing.T) {
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Choose("Production").Other("9").Choose("Skip")
	fe.Expect("toolu_1.elicit.2").Other("3")
	out, res := runLoop(t, c, fe, "mcp__fx__elicit", `{}`)
	if out.Status != agentloop.StatusSuccess || res == nil {
		t.Fatalf("outcome %s (%v); want success", out.Status, out.Err)
	}
	if !strings.HasPrefix(res.Content, `action=accept content={"env":"prod","replicas":3} reason=`) {
		t.Errorf("the server got %q; want the exact values (prod, not Production), replicas asked again", res.Content)
	}
	if !strings.Contains(res.Content, `[askuser: during this call the server asked "Deploy settings?"; the form was filled in by a person.]`) {
		t.Errorf("result %q lacks the note saying who answered", res.Content)
	}
	asked := fe.Asked()
	if len(asked) != 2 {
		t.Fatalf("asked %d sets; want the form, then the field that needed another answer", len(asked))
	}
	var headers []string
	for _, q := range asked[0].Questions {
		headers = append(headers, q.Header)
	}
	if asked[0].Kind != ask.KindElicitation || strings.Join(headers, ",") != "Environment,Replicas,Notify team" {
		t.Errorf("first set: kind %q, headers %v; want elicitation, in the schema's order", asked[0].Kind, headers)
	}
	if q := asked[0].Questions[0]; !strings.HasPrefix(q.Question, `MCP server "fx" asks: Deploy settings?`) || q.Options[0].Label != "Staging (Recommended)" {
		t.Errorf("first question %+v", q)
	}
	if q := asked[1].Questions; len(q) != 1 || !strings.Contains(q[0].Question, "9 is more than the maximum, 5") {
		t.Errorf("second set %+v; want only Replicas, saying why", q)
	}
}

func TestEverythingFormRoundTripsThroughTheSDK(t *testing.T) {
	schema, err := os.ReadFile("../../elicit/testdata/everything.json")
	if err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]string{"schema": string(schema)})
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Other("Ada Lovelace").Choose("Yes").Choose("It was a dark and stormy night.").
		Other("ada@example.com").Other("https://ada.example/").Choose("Skip").Other("7").
		Choose("3.14").Choose("Ross").Choose("Piano", "Drums").
		Choose("Wonder Woman").Choose("Salmon").Choose("Reptiles")
	out, res := runLoop(t, c, fe, "mcp__fx__elicit", string(input))
	if out.Status != agentloop.StatusSuccess || res == nil {
		t.Fatalf("outcome %s (%v)", out.Status, out.Err)
	}
	want := `action=accept content={"check":true,"email":"ada@example.com","firstLine":"It was a dark and stormy night.","homepage":"https://ada.example/",` +
		`"integer":7,"legacyTitledEnum":"pet-5","name":"Ada Lovelace","number":3.14,"titledMultipleSelectEnum":["fish-2"],` +
		`"titledSingleSelectEnum":"hero-3","untitledMultipleSelectEnum":["Piano","Drums"],"untitledSingleSelectEnum":"Ross"}`
	if !strings.HasPrefix(res.Content, want) {
		t.Fatalf("the server got\n%s\nwant\n%s", res.Content, want)
	}
	if got := fe.Asked()[0].Questions; len(got) != 13 || got[12].Header != "Pet" {
		t.Errorf("asked %d questions, the last %+v; want 13 in the schema's order", len(got), got[len(got)-1])
	}
}

func TestElicitationDeclinedWhenAFileCannotFillTheForm(t *testing.T) {
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Choose("Staging").Skip().Skip().From(ask.SourceFile)
	out, res := runLoop(t, c, fe, "mcp__fx__elicit", `{}`)
	if out.Status != agentloop.StatusSuccess || res == nil {
		t.Fatalf("outcome %s (%v)", out.Status, out.Err)
	}
	if !strings.HasPrefix(res.Content, "action=decline content=null reason=the answers cannot fill in the form: Replicas: an answer is required") {
		t.Errorf("the server got %q; want a decline with the reason", res.Content)
	}
	if !strings.Contains(res.Content, "askuser declined it: the answers cannot fill in the form") {
		t.Errorf("result %q lacks the note for the model", res.Content)
	}
}

func TestElicitationThatMustWaitIsCancelledAndTheRunGoesOn(t *testing.T) {
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Fail(fmt.Errorf("%w: nobody is at the terminal", ask.ErrDeferred))
	out, res := runLoop(t, c, fe, "mcp__fx__elicit", `{}`)
	if out.Status != agentloop.StatusSuccess || res == nil {
		t.Fatalf("outcome %s (%v); want the run to go on", out.Status, out.Err)
	}
	if !strings.HasPrefix(res.Content, "action=cancel") || !strings.Contains(res.Content, "nobody could answer it now") {
		t.Errorf("result %q; want the server told cancel and the model told why", res.Content)
	}
}

func TestElicitationCancelledByThePersonStopsTheRun(t *testing.T) {
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Fail(fmt.Errorf("%w: ctrl+c", ask.ErrCancelled))
	out, res := runLoop(t, c, fe, "mcp__fx__elicit", `{}`)
	if out.Status != agentloop.StatusCancelled || res != nil {
		t.Fatalf("outcome %s (%v), result %+v; want the run cancelled before any result", out.Status, out.Err, res)
	}
	// The server is still usable: the cancel reached it and its call ended.
	if r := call(t, c, "mcp__fx__echo", `{"text":"after"}`); r.Content != "echo: after" {
		t.Errorf("after a cancelled elicitation: %+v", r)
	}
}

func TestConfirmationDeclinedByThePerson(t *testing.T) {
	c := startFixture(t, Options{})
	fe := asktest.New(t)
	fe.Expect("toolu_1.elicit.1").Choose("Decline")
	_, res := runLoop(t, c, fe, "mcp__fx__elicit", `{"schema":"{\"type\":\"object\",\"properties\":{}}"}`)
	if res == nil || !strings.HasPrefix(res.Content, "action=decline content=null reason=the answers cannot fill in the form: Confirm: declined by a person") {
		t.Fatalf("result %+v", res)
	}
}

func TestElicitationWithoutACallIsDeclined(t *testing.T) {
	c := startFixture(t, Options{})
	if r := call(t, c, "mcp__fx__elicit_later", `{}`); r.Content != "asked later" {
		t.Fatalf("result %+v", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(c.servers[0].log.Tail(), "late elicitation: decline") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("stderr tail %q; want the late elicitation declined", c.servers[0].log.Tail())
}
