// Package hook answers Claude Code's hook events (askuser hook): a
// PreToolUse (or PermissionRequest) event about AskUserQuestion is answered
// by asking its questions and allowing the call with the answers in
// updatedInput; about another tool, by the approval rules or a person; an
// Elicitation event by asking the server's form and accepting with the
// exact values its schema allows. The permission decisions are shared with
// askuser mcp's approve tool (approval.Decider), so both say the same thing.
//
// Invariants:
//   - It never fails open. Claude Code runs the tool when a hook exits with
//     a code other than 0 or 2, so every failure — an event that cannot be
//     read, a frontend that breaks or panics, nobody answering in time —
//     still gives a decision that does not let the call through (deny, or
//     for a form decline or cancel) with exit 0, or exit 2 with a message
//     when not even the event's kind is known.
//   - It never outlives its deadline: when the context ends, Run answers
//     within a short grace whether or not the frontend has returned.
//   - A machine's answer is never passed off as a person's: additionalContext
//     (for a PermissionRequest, which has none, updatedInput's annotations)
//     says who answered when it was not a person, and a form is accepted
//     only with answers a person gave or wrote in advance (an answers
//     file); the recommended-option policy's guesses are not sent to a
//     server as the user's input.
package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
)

// Event names askuser answers.
const (
	EventPreToolUse        = "PreToolUse"
	EventPermissionRequest = "PermissionRequest"
	EventElicitation       = "Elicitation"
)

// Config is what the hook decides with.
type Config struct {
	Ask approval.Asker
	// Approvals are the rules from the answers file; nil is none.
	Approvals *approval.Policy
	// SelfTool is askuser's own MCP AskUserQuestion as the host names it.
	SelfTool string
	// Grace is how long Run waits for the frontend after ctx ends before
	// answering without it; 0 means a second.
	Grace time.Duration
	// Suspend, if set, lets a PreToolUse call nobody answered in time wait
	// for a late answer (suspend.go).
	Suspend *Suspend
}

// Reply is what the hook prints and how it exits: Exit is 0 (Stdout holds
// the decision) or 2 (Claude Code's blocking code; Stderr says why).
type Reply struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// event is the part of every hook input askuser reads.
type event struct {
	Name      string          `json:"hook_event_name"`
	Tool      string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	ToolUseID string          `json:"tool_use_id"`
	Cwd       string          `json:"cwd"`
	Server    string          `json:"mcp_server_name"`
	Message   string          `json:"message"`
	Mode      string          `json:"mode"`
	Schema    json.RawMessage `json:"requested_schema"`
}

// Run answers one hook event. It always returns a Reply that does not let
// a call through unless someone (or a rule) allowed it.
func Run(ctx context.Context, input []byte, cfg Config) Reply {
	var ev event
	if err := json.Unmarshal(input, &ev); err != nil {
		return blocking("askuser hook: the hook input on standard input is not a JSON object (%v); nothing was asked, so the call is blocked", err)
	}
	switch ev.Name {
	case EventPreToolUse, EventPermissionRequest, EventElicitation:
	case "":
		return blocking("askuser hook: the hook input has no hook_event_name; nothing was asked, so the call is blocked")
	default:
		return blocking("askuser hook answers PreToolUse, PermissionRequest and Elicitation events, not %s; remove it from that event's hooks in settings.json", ask.Excerpt(ev.Name))
	}
	grace := cfg.Grace
	if grace <= 0 {
		grace = time.Second
	}
	done := make(chan Reply, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- failed(ev, fmt.Errorf("askuser failed while asking: %v", r))
			}
		}()
		done <- handle(ctx, input, ev, cfg)
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
	}
	// The frontend should return at once now that ctx is done; if it does
	// not, answer without it rather than outlive the hook's timeout.
	select {
	case r := <-done:
		return r
	case <-time.After(grace):
		return failed(ev, ask.CtxErr(ctx))
	}
}

func handle(ctx context.Context, input []byte, ev event, cfg Config) Reply {
	if ev.Name == EventElicitation {
		return elicitation(ctx, ev, cfg)
	}
	if ev.Tool == "" {
		m := approval.Malformed(ev.Name+" event", "tool_name is missing or empty", "an event names the tool in tool_name and its input in tool_input")
		return permission(ev, approval.Permission{Message: m.Message})
	}
	if cfg.Suspend != nil && ev.Name == EventPreToolUse {
		return decideSuspendable(ctx, input, ev, cfg)
	}
	// A PermissionRequest decision has no additionalContext: who answered,
	// when not a person, goes in updatedInput's annotations instead.
	d := approval.Decider{Ask: cfg.Ask, Approvals: cfg.Approvals, SelfTool: cfg.SelfTool, Dir: ev.Cwd, Notes: ev.Name == EventPermissionRequest}
	return permission(ev, d.Decide(ctx, ev.Tool, ev.ToolUseID, ev.ToolInput))
}

// permission prints a decision in the event's own shape.
func permission(ev event, p approval.Permission) Reply {
	var out map[string]any
	if ev.Name == EventPermissionRequest {
		decision := map[string]any{"behavior": "deny", "message": p.Message}
		if p.Allow {
			decision = map[string]any{"behavior": "allow", "updatedInput": p.UpdatedInput}
		}
		out = map[string]any{"hookEventName": ev.Name, "decision": decision}
	} else {
		out = map[string]any{"hookEventName": ev.Name, "permissionDecision": "deny", "permissionDecisionReason": p.Message}
		if p.Allow {
			out = map[string]any{"hookEventName": ev.Name, "permissionDecision": "allow", "updatedInput": p.UpdatedInput}
			if p.Context != "" {
				out["additionalContext"] = p.Context
			}
		}
	}
	return decisionReply(map[string]any{"hookSpecificOutput": out}, "")
}

// failed is the decision when deciding failed: a denial, or for a form a
// decline, saying what went wrong.
func failed(ev event, err error) Reply {
	if ev.Name == EventElicitation {
		return formAction("decline", nil, "askuser hook: declined the form: "+err.Error())
	}
	return permission(ev, approval.Permission{Message: approval.Failed(ev.Tool, err).Message})
}

func decisionReply(v any, stderr string) Reply {
	b, err := approval.Marshal(v)
	if err != nil {
		// Only a value that cannot be JSON fails; block rather than print
		// something Claude Code would read as no decision.
		return blocking("askuser hook: could not write its decision: %v", err)
	}
	return Reply{Stdout: append(b, '\n'), Stderr: stderr}
}

func blocking(format string, args ...any) Reply {
	return Reply{Stderr: ask.Display(fmt.Sprintf(format, args...)), Exit: 2}
}
