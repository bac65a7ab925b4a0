package agentloop_test

// The approval gate: every call of a gated tool is decided (rule, grant,
// person) and journaled before it runs, runs at most once, and a policy's
// answer never approves it.

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
)

// writeTool counts its effects.
type writeTool struct{ runs atomic.Int32 }

func (*writeTool) Spec() agentloop.ToolSpec {
	return agentloop.ToolSpec{Name: "mcp__fs__write_file", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (w *writeTool) Run(ctx context.Context, call *agentloop.Call) (agentloop.Result, error) {
	w.runs.Add(1)
	return agentloop.Result{Content: "wrote it"}, nil
}

func gatedRegistry(t *testing.T, w *writeTool, p *approval.Policy) *agentloop.Registry {
	return registry(t, agentloop.Gate(w, p))
}

func rules(t *testing.T, list string) []approval.Rule {
	r, err := approval.ParseRules(list, "--allowedTools")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const writeInput = `{"path":"/tmp/x","content":"hello"}`

func writeTurns(t *testing.T) *turnProvider {
	return &turnProvider{t: t, replies: []agentloop.Message{
		assistant("", use("toolu_w", "mcp__fs__write_file", writeInput)),
		assistant("Done."),
	}}
}

// gateRun runs one write call through the gate and returns the result the
// model got.
func gateRun(t *testing.T, w *writeTool, p *approval.Policy, fe ask.Frontend) (agentloop.Outcome, agentloop.Block) {
	t.Helper()
	prov := writeTurns(t)
	out := run(t, &agentloop.Loop{Provider: prov, Tools: gatedRegistry(t, w, p), Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	return out, results(prov.calls[1])[0]
}

func TestGateAllowedByRuleRunsWithoutAsking(t *testing.T) {
	w := &writeTool{}
	_, r := gateRun(t, w, &approval.Policy{Allow: rules(t, "mcp__fs")}, asktest.New(t))
	if w.runs.Load() != 1 || r.IsError || r.Content != "wrote it" {
		t.Errorf("runs %d, result %+v", w.runs.Load(), r)
	}
}

func TestGatePersonDecides(t *testing.T) {
	approvalQ := approval.QuestionID("toolu_w")
	for _, c := range []struct {
		name   string
		script func(*asktest.Stub)
		runs   int32
		want   string
	}{
		{"allow", func(s *asktest.Stub) { s.Choose(approval.LabelAllow) }, 1, "wrote it"},
		{"deny", func(s *asktest.Stub) { s.Choose(approval.LabelDeny) }, 0,
			"mcp__fs__write_file was not run: the user denied it; do not retry it, and continue without it or ask the user what to do instead."},
		{"other is instructions", func(s *asktest.Stub) { s.Other("write to ./out instead") }, 0,
			"mcp__fs__write_file was not run, and the user said instead: write to ./out instead"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &writeTool{}
			fe := asktest.New(t)
			c.script(fe.Expect(approvalQ))
			_, r := gateRun(t, w, &approval.Policy{}, fe)
			if w.runs.Load() != c.runs || r.IsError == (c.runs == 1) || (c.runs == 0 && r.Content != c.want) || !strings.Contains(r.Content, c.want) {
				t.Errorf("runs %d, result %+v; want %d runs and %q", w.runs.Load(), r, c.runs, c.want)
			}
			q := fe.Asked()[0]
			if q.Kind != ask.KindApproval || !strings.Contains(q.Questions[0].Question, "Allow mcp__fs__write_file to run?") {
				t.Errorf("asked %+v", q)
			}
		})
	}
}

// Trap: under --frontend auto (or unanswered: auto, --on-timeout auto) the
// policy would pick the first option, Allow. It never approves.
func TestGateAutoFrontendDenies(t *testing.T) {
	w := &writeTool{}
	_, r := gateRun(t, w, &approval.Policy{}, frontend.Auto{})
	if w.runs.Load() != 0 || !r.IsError || !strings.Contains(r.Content, "no person approved it") {
		t.Errorf("runs %d, result %+v; want a denial", w.runs.Load(), r)
	}
}

func TestGateDenyRuleWins(t *testing.T) {
	w := &writeTool{}
	_, r := gateRun(t, w, &approval.Policy{Allow: rules(t, "mcp__fs"), Deny: rules(t, "mcp__fs__write_file"), Mode: approval.ModeBypass}, asktest.New(t))
	want := "mcp__fs__write_file was not run: rule mcp__fs__write_file (--allowedTools) denies it; do not retry it, and continue without it or ask the user to change the rule."
	if w.runs.Load() != 0 || r.Content != want {
		t.Errorf("runs %d, result %+v", w.runs.Load(), r)
	}
}

// "Allow for the rest of this session" is remembered in the session: a
// later call of the tool, even in a run resumed from the journal, is not
// asked again.
func TestGateSessionGrant(t *testing.T) {
	w := &writeTool{}
	j := &logJournal{log: &eventLog{}}
	prov := &turnProvider{t: t, replies: []agentloop.Message{
		assistant("", use("toolu_1", "mcp__fs__write_file", writeInput)),
		assistant("", use("toolu_2", "mcp__fs__write_file", writeInput)),
		assistant("Done."),
	}}
	fe := asktest.New(t)
	fe.Expect(approval.QuestionID("toolu_1")).Choose(approval.LabelAllowSession)
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Tools: gatedRegistry(t, w, &approval.Policy{}), Frontend: fe, Journal: j}, st, userPrompt("go"))
	if out.Status != agentloop.StatusSuccess || w.runs.Load() != 2 || len(fe.Asked()) != 1 {
		t.Fatalf("status %s, runs %d, asked %d; want two runs and one question", out.Status, w.runs.Load(), len(fe.Asked()))
	}
	if _, ok := st.Session.Get("approval.grant:mcp__fs__write_file"); !ok {
		t.Errorf("session values lack the grant; want it kept")
	}
}

// An approval nobody can give now suspends the run; resume asks it late,
// and the tool runs once.
func TestGateSuspendsAndResumes(t *testing.T) {
	w := &writeTool{}
	prov := writeTurns(t)
	st := agentloop.NewState()
	reg := gatedRegistry(t, w, &approval.Policy{})
	out := run(t, &agentloop.Loop{Provider: prov, Tools: reg, Frontend: deferFrontend{}}, st, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || len(out.Pending) != 1 || out.Pending[0].Kind != ask.KindApproval || w.runs.Load() != 0 {
		t.Fatalf("status %s, pending %+v, runs %d; want waiting on the approval", out.Status, out.Pending, w.runs.Load())
	}
	fe := asktest.New(t)
	fe.Expect(approval.QuestionID("toolu_w")).Choose(approval.LabelAllow)
	out = run(t, &agentloop.Loop{Provider: prov, Tools: reg, Frontend: fe}, st, nil)
	if out.Status != agentloop.StatusSuccess || w.runs.Load() != 1 {
		t.Fatalf("status %s (%v), runs %d; want success and one run", out.Status, out.Err, w.runs.Load())
	}
}

// The journal's word decides after a kill: a decision recorded but not
// acted on is used without asking; a start recorded without a result is
// never repeated.
func TestGateAfterAKill(t *testing.T) {
	allow, _ := json.Marshal(approval.Decision{Allow: true, Scope: approval.ScopeOnce, By: approval.ByPerson})
	for _, c := range []struct {
		name    string
		started bool
		runs    int32
		want    string
	}{
		{"decided, not started", false, 1, "wrote it"},
		{"started, not finished", true, 0, "its effects are unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &writeTool{}
			st := agentloop.NewState()
			st.Append(*userPrompt("go"))
			st.Append(assistant("", use("toolu_w", "mcp__fs__write_file", writeInput)))
			st.SetStep("toolu_w", "approval", allow)
			if c.started {
				st.SetStep("toolu_w", "started", json.RawMessage(`true`))
			}
			prov := &turnProvider{t: t, replies: []agentloop.Message{assistant("Noted.")}}
			out := run(t, &agentloop.Loop{Provider: prov, Tools: gatedRegistry(t, w, &approval.Policy{}), Frontend: asktest.New(t)}, st, nil)
			if out.Status != agentloop.StatusSuccess || w.runs.Load() != c.runs {
				t.Fatalf("status %s (%v), runs %d; want %d", out.Status, out.Err, w.runs.Load(), c.runs)
			}
			if r := results(prov.calls[0]); !strings.Contains(r[0].Content, c.want) {
				t.Errorf("result %+v, want %q", r, c.want)
			}
		})
	}
}

// --on-timeout auto answers with the policy when nobody answers in time:
// for an approval that is a denial, saying why.
func TestGateTimeoutAutoDenies(t *testing.T) {
	w := &writeTool{}
	prov := writeTurns(t)
	l := &agentloop.Loop{Provider: prov, Tools: gatedRegistry(t, w, &approval.Policy{}), Frontend: &blockFrontend{},
		AskTimeout: askTimeout, OnTimeout: ask.PolicyAuto, TimeoutFallback: frontend.Auto{Reason: ask.TimeoutReason(askTimeout)}}
	out := run(t, l, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess || w.runs.Load() != 0 {
		t.Fatalf("status %s, runs %d", out.Status, w.runs.Load())
	}
	if r := results(prov.calls[1])[0]; !r.IsError || !strings.Contains(r.Content, "no person answered within") || !strings.Contains(r.Content, "never allows a tool") {
		t.Errorf("result %+v", r)
	}
}
