package agentloop_test

// The tool seam: a tool is one type registered with the loop, and the loop
// runs it without naming it. The test-only tools here ask through the run's
// frontend, record steps and defer, as MCP tools with approvals and
// sub-agents will.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

// echoTool is a second tool, written in one type and registered: it
// answers with its input's text.
type echoTool struct{ runs atomic.Int32 }

func (*echoTool) Spec() agentloop.ToolSpec {
	return agentloop.ToolSpec{Name: "Echo", Description: "Repeat the text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func (e *echoTool) Run(ctx context.Context, call *agentloop.Call) (agentloop.Result, error) {
	e.runs.Add(1)
	if c, ok := agentloop.CallFromContext(ctx); !ok || c != call {
		return agentloop.ErrorResult("the call is not in its context"), nil
	}
	var in struct{ Text string }
	if err := json.Unmarshal(call.Input, &in); err != nil || in.Text == "" {
		return agentloop.ErrorResult("Echo needs {\"text\": \"...\"}"), nil
	}
	return agentloop.Result{Content: "echo: " + in.Text}, nil
}

func registry(t *testing.T, tools ...agentloop.Tool) *agentloop.Registry {
	t.Helper()
	r, err := agentloop.NewRegistry(append([]agentloop.Tool{agentloop.AskTool{}}, tools...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func use(id, name, input string) agentloop.Block {
	return agentloop.Block{Type: agentloop.BlockToolUse, ID: id, Name: name, Input: json.RawMessage(input)}
}

// results returns the tool_result blocks of the request's last message.
func results(req agentloop.Request) []agentloop.Block {
	m := req.Messages[len(req.Messages)-1]
	var out []agentloop.Block
	for _, b := range m.Content {
		if b.Type == agentloop.BlockToolResult {
			out = append(out, b)
		}
	}
	return out
}

func TestSecondToolRunsWithoutTouchingTheLoop(t *testing.T) {
	echo := &echoTool{}
	prov := &turnProvider{t: t, replies: []agentloop.Message{
		assistant("Echoing.", use("toolu_e", "Echo", `{"text":"hi"}`), use("toolu_bad", "Echo", `{}`)),
		assistant("Done."),
	}}
	out := run(t, &agentloop.Loop{Provider: prov, Tools: registry(t, echo), Frontend: asktest.New(t)}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess || out.Result != "Done." {
		t.Fatalf("status %s (%v), result %q; want success, Done.", out.Status, out.Err, out.Result)
	}
	var names []string
	for _, s := range prov.calls[0].Tools {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{ask.ToolName, "Echo"}) {
		t.Errorf("tools offered %v, want AskUserQuestion and Echo", names)
	}
	got := results(prov.calls[1])
	if len(got) != 2 || got[0].Content != "echo: hi" || got[0].IsError || !got[1].IsError || !strings.Contains(got[1].Content, "Echo needs") {
		t.Errorf("results %+v; want echo: hi, then an error result", got)
	}
	if echo.runs.Load() != 2 {
		t.Errorf("Echo ran %d times, want 2", echo.runs.Load())
	}
}

func TestRegistryRefusesADuplicateName(t *testing.T) {
	if _, err := agentloop.NewRegistry(&echoTool{}, &echoTool{}); err == nil || !strings.Contains(err.Error(), `"Echo" is registered twice`) {
		t.Errorf("err %v, want a duplicate-name error", err)
	}
}

// gateTool asks an approval-like question under its own request id,
// records the decision as a step, and then "runs" once: the shape of an
// approved side effect.
type gateTool struct{ effects atomic.Int32 }

func (*gateTool) Spec() agentloop.ToolSpec {
	return agentloop.ToolSpec{Name: "Write", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

var gateQuestion = []ask.Question{{Question: "Allow Write?", Header: "Approve", Options: []ask.Option{{Label: "Allow"}, {Label: "Deny"}}}}

func (g *gateTool) Run(ctx context.Context, call *agentloop.Call) (agentloop.Result, error) {
	if _, done := call.Step("decision"); !done {
		answers, err := call.Ask(ctx, ask.Request{ID: call.ID + "/approval", Questions: gateQuestion})
		if err != nil {
			return agentloop.Result{}, err
		}
		if err := call.Record("decision", answers[0].Selected); err != nil {
			return agentloop.Result{}, err
		}
	}
	if _, started := call.Step("started"); started {
		return agentloop.ErrorResult("interrupted; its effects are unknown"), nil
	}
	if err := call.Record("started", true); err != nil {
		return agentloop.Result{}, err
	}
	g.effects.Add(1)
	return agentloop.Result{Content: "written"}, nil
}

// deferFrontend defers every question set, as a run with nobody to ask does.
type deferFrontend struct{}

func (deferFrontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	return nil, fmt.Errorf("%w: nobody here", ask.ErrDeferred)
}

// A tool's question suspends the run like AskUserQuestion's; resuming over
// the journaled state asks it (late) and runs the tool once.
func TestToolQuestionSuspendsAndResumes(t *testing.T) {
	gate := &gateTool{}
	prov := &turnProvider{t: t, replies: []agentloop.Message{assistant("", use("toolu_w", "Write", `{}`)), assistant("Done.")}}
	log := &eventLog{}
	j := &logJournal{log: log}
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Tools: registry(t, gate), Frontend: deferFrontend{}, Journal: j, Observe: log.observe}, st, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || len(out.Pending) != 1 || out.Pending[0].ID != "toolu_w/approval" {
		t.Fatalf("status %s, pending %+v; want waiting on toolu_w/approval", out.Status, out.Pending)
	}
	fe := asktest.New(t)
	fe.Expect("toolu_w/approval").Choose("Allow")
	out = run(t, &agentloop.Loop{Provider: prov, Tools: registry(t, gate), Frontend: fe, Journal: j, Observe: log.observe}, st, nil)
	if out.Status != agentloop.StatusSuccess || gate.effects.Load() != 1 {
		t.Fatalf("status %s (%v), effects %d; want success and one effect", out.Status, out.Err, gate.effects.Load())
	}
	events := log.all()
	for _, want := range []string{"event:question toolu_w/approval late=true", "journal:replied toolu_w/approval", "journal:step toolu_w decision", "journal:step toolu_w started"} {
		if !slices.Contains(events, want) {
			t.Errorf("events %v lack %q", events, want)
		}
	}
}

// A call killed after it started its effect is not run again: the tool
// sees its own step and reports the interruption.
func TestRecordedStepIsNotRepeated(t *testing.T) {
	gate := &gateTool{}
	st := agentloop.NewState()
	st.Append(*userPrompt("go"))
	st.Append(assistant("", use("toolu_w", "Write", `{}`)))
	st.SetStep("toolu_w", "decision", json.RawMessage(`["Allow"]`))
	st.SetStep("toolu_w", "started", json.RawMessage(`true`))
	prov := &turnProvider{t: t, replies: []agentloop.Message{assistant("Noted.")}}
	out := run(t, &agentloop.Loop{Provider: prov, Tools: registry(t, gate), Frontend: asktest.New(t)}, st, nil)
	if out.Status != agentloop.StatusSuccess || gate.effects.Load() != 0 {
		t.Fatalf("status %s (%v), effects %d; want success and no effect", out.Status, out.Err, gate.effects.Load())
	}
	if got := results(prov.calls[0]); len(got) != 1 || !strings.Contains(got[0].Content, "interrupted") {
		t.Errorf("results %+v, want the interruption", got)
	}
}

type panicTool struct{}

func (panicTool) Spec() agentloop.ToolSpec { return agentloop.ToolSpec{Name: "Boom"} }
func (panicTool) Run(context.Context, *agentloop.Call) (agentloop.Result, error) {
	panic("tool bug")
}

func TestToolPanicEndsTheRunWithAnError(t *testing.T) {
	prov := &turnProvider{t: t, replies: []agentloop.Message{assistant("", use("toolu_b", "Boom", `{}`))}}
	out := run(t, &agentloop.Loop{Provider: prov, Tools: registry(t, panicTool{}), Frontend: asktest.New(t)}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusError || out.Err == nil || !strings.Contains(out.Err.Error(), "tool Boom failed unexpectedly: tool bug") {
		t.Fatalf("status %s, err %v; want an error naming the tool", out.Status, out.Err)
	}
}

// Two tool uses with one id in one message are two calls: each is asked
// and answered under its own id, and neither answer is called late.
func TestDuplicateToolUseIDsAreTwoCalls(t *testing.T) {
	prov := &turnProvider{t: t, replies: []agentloop.Message{
		assistant("", askUse("toolu_x", dbInput), askUse("toolu_x", dbInput)),
		assistant("Done."),
	}}
	fe := asktest.New(t)
	fe.Expect("toolu_x").Choose("SQLite")
	fe.Expect("toolu_x_2").Choose("PostgreSQL")
	log := &eventLog{}
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe, Observe: log.observe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	got := results(prov.calls[1])
	if len(got) != 2 || got[0].ToolUseID != "toolu_x" || got[1].ToolUseID != "toolu_x_2" {
		t.Fatalf("results %+v; want one per call, with distinct ids", got)
	}
	sent := prov.calls[1].Messages[1].ToolUses()
	if sent[0].ID != "toolu_x" || sent[1].ID != "toolu_x_2" {
		t.Errorf("tool uses sent back %+v; want the ids the results answer", sent)
	}
	for _, r := range got {
		if strings.Contains(r.Content, "Answered later") {
			t.Errorf("result %q is labelled late, but it was answered live", r.Content)
		}
	}
}

// A server that reuses call_0 on two turns: the second question is live,
// not late, and a run that then stops waits on it, not on the first.
func TestReusedIDOnALaterTurn(t *testing.T) {
	prov := &turnProvider{t: t, replies: []agentloop.Message{
		assistant("", askUse("call_0", dbInput)),
		assistant("", askUse("call_0", authInput)),
		assistant("Done."),
	}}
	fe := &firstThenDefer{answer: []string{"SQLite"}}
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || len(out.Pending) != 1 || out.Pending[0].Questions[0].Header != "Auth Method" {
		t.Fatalf("status %s, pending %+v; want waiting on the second question (Auth Method)", out.Status, out.Pending)
	}
	if got := results(prov.calls[1]); len(got) != 1 || strings.Contains(got[0].Content, "Answered later") {
		t.Errorf("first result %+v; want a live answer", got)
	}
}

// firstThenDefer answers the first set with answer, and defers the rest.
type firstThenDefer struct {
	answer []string
	n      atomic.Int32
}

func (f *firstThenDefer) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if f.n.Add(1) > 1 {
		return nil, fmt.Errorf("%w: later", ask.ErrDeferred)
	}
	a, err := ask.Selection(req.Questions[0], f.answer, "", ask.SourcePerson)
	return []ask.Answer{a}, errors.Join(err)
}
