package agentloop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
)

// Gate wraps a tool so that every call is approved before it runs, and
// runs at most once. The decision comes from the policy's rules, the
// session's grants or the person (asked through the run's frontend as an
// approval question set); it is journaled before the tool starts, and the
// start is journaled before the tool runs, so:
//   - a run that stops while an approval waits (no one can answer now)
//     suspends, and resume asks again (or uses the recorded decision);
//   - a call killed after it started is never run again: the model is told
//     it was interrupted and its effects are unknown.
//
// A denied call is an error result carrying the person's words, or why it
// was denied and by whom.
func Gate(t Tool, policy *approval.Policy) Tool {
	dir, _ := os.Getwd() // path rules read relative paths against the run's folder
	return &gated{inner: t, policy: policy, dir: dir}
}

type gated struct {
	inner  Tool
	policy *approval.Policy
	dir    string
}

// Journal keys of a gated call.
const (
	stepDecision = "approval"
	stepStarted  = "started"
	grantPrefix  = "approval.grant:"
)

func (g *gated) Spec() ToolSpec { return g.inner.Spec() }

// Run decides, then runs the inner tool once.
func (g *gated) Run(ctx context.Context, call *Call) (Result, error) {
	req := approval.Request{ID: call.ID, Tool: call.Name, Input: call.Input, Agent: call.agent(), Dir: g.dir}
	d, err := g.decide(ctx, call, req)
	if err != nil {
		return Result{}, err
	}
	if !d.Allow {
		return Result{Content: d.Message, IsError: true}, nil
	}
	if _, started := call.Step(stepStarted); started {
		return ErrorResult("The call to %s was started, but askuser stopped before it finished (the run was interrupted); its effects are unknown. Check what it did before calling it again.",
			ask.Display(call.Name)), nil
	}
	if err := call.Record(stepStarted, true); err != nil {
		return Result{}, err
	}
	return g.inner.Run(ctx, call)
}

// decide returns the recorded decision, or makes one and records it.
func (g *gated) decide(ctx context.Context, call *Call, req approval.Request) (approval.Decision, error) {
	var d approval.Decision
	if raw, ok := call.Step(stepDecision); ok {
		if err := json.Unmarshal(raw, &d); err != nil {
			return d, fmt.Errorf("read the recorded approval of %s: %w", call.ID, err)
		}
		return d, nil
	}
	grants := approval.Grants{}
	if raw, ok := call.SessionValue(grantPrefix + req.Tool); ok {
		var gd approval.Decision
		if json.Unmarshal(raw, &gd) == nil && gd.Allow {
			grants[req.Tool] = gd
		}
	}
	d, decided := g.policy.Decide(req, grants)
	if !decided {
		answers, err := call.Ask(ctx, req.Question(true))
		if err != nil {
			return d, err
		}
		d = g.policy.Answered(req, answers)
	}
	if d.Allow && d.Scope == approval.ScopeSession {
		if err := call.SetSessionValue(grantPrefix+req.Tool, d); err != nil {
			return d, err
		}
	}
	return d, call.Record(stepDecision, d)
}
