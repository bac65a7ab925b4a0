package hook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/agenthost"
)

// suspendEvent is a PreToolUse event of call id in Claude Code session
// "sess-1"; agent, when set, makes it a subagent's.
func suspendEvent(tool, input, id, agent string) []byte {
	extra := ""
	if agent != "" {
		extra = fmt.Sprintf(`,"agent_id":%q,"agent_type":"general-purpose"`, agent)
	}
	return []byte(fmt.Sprintf(`{"session_id":"sess-1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":%q%s}`,
		tool, input, id, extra))
}

// suspendRig is a Suspend over a ledger of its own that records what it
// is told.
type suspendRig struct {
	s        *Suspend
	deferred []string
	settled  []string
	fail     error
}

func newSuspendRig(t *testing.T) *suspendRig {
	r := &suspendRig{}
	r.s = &Suspend{Ledger: agenthost.Ledger{Dir: t.TempDir()},
		Deferred: func(c agenthost.HookCall) (string, error) {
			r.deferred = append(r.deferred, c.ToolUseID)
			return "waiting for the person (askuser session x)", r.fail
		},
		Settled: func(c agenthost.HookCall, msg string) { r.settled = append(r.settled, c.ToolUseID+": "+msg) }}
	return r
}

// nobodyInTime is a frontend whose every set is to wait for later.
var nobodyInTime = func(context.Context, ask.Request) ([]ask.Answer, error) {
	return nil, fmt.Errorf("%w: nobody answered within 1s (--ask-timeout)", ask.ErrDeferred)
}

func decision(t *testing.T, r Reply) (string, string) {
	t.Helper()
	o := out(t, r)
	reason, _ := o["permissionDecisionReason"].(string)
	return fmt.Sprint(o["permissionDecision"]), reason
}

// A question nobody answered in time is deferred and recorded; another
// call of the session, made while it waits, is denied before anyone is
// asked; at resume the same call is asked again, answered, and forgotten
// by the ledger.
func TestSuspendDefersOneCallAtATime(t *testing.T) {
	r := newSuspendRig(t)
	cfg := Config{Ask: nobodyInTime, Suspend: r.s}
	if d, reason := decision(t, Run(t.Context(), suspendEvent("AskUserQuestion", askInput, "toolu_1", ""), cfg)); d != "defer" || !strings.Contains(reason, "session x") {
		t.Fatalf("%s %q, want defer", d, reason)
	}
	if len(r.deferred) != 1 || r.deferred[0] != "toolu_1" {
		t.Errorf("recorded %v", r.deferred)
	}
	busy := asktest.New(t) // nobody may be asked
	d, reason := decision(t, Run(t.Context(), suspendEvent("Bash", `{"command":"ls"}`, "toolu_2", ""), Config{Ask: busy.Ask, Suspend: r.s}))
	if d != "deny" || !strings.Contains(reason, "already waiting") || !strings.Contains(reason, "toolu_1") {
		t.Errorf("a second call while one waits: %s %q", d, reason)
	}
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite").Choose("Auth")
	if d, _ := decision(t, Run(t.Context(), suspendEvent("AskUserQuestion", askInput, "toolu_1", ""), Config{Ask: fe.Ask, Suspend: r.s})); d != "allow" {
		t.Errorf("at resume: %s, want allow", d)
	}
	if w, err := r.s.Ledger.Pending("sess-1"); err != nil || w != nil {
		t.Errorf("the ledger still holds %+v (%v)", w, err)
	}
}

// A subagent's question is asked; when nobody answers in time it is not
// deferred (Claude Code cannot) but denied, telling the subagent to hand
// it back so the main agent asks it: it is never silently lost.
func TestSuspendSubagentHandsTheQuestionBack(t *testing.T) {
	r := newSuspendRig(t)
	d, reason := decision(t, Run(t.Context(), suspendEvent("AskUserQuestion", askInput, "toolu_s", "agent-7"), Config{Ask: nobodyInTime, Suspend: r.s}))
	if d != "deny" || !strings.Contains(reason, "main agent") || !strings.Contains(reason, dbQuestion) {
		t.Errorf("%s %q; want a denial handing the question back", d, reason)
	}
	if len(r.deferred) != 0 || len(r.settled) != 1 {
		t.Errorf("deferred %v, settled %v", r.deferred, r.settled)
	}
}

// A deferral that cannot be recorded is a denial: a call deferred
// unrecorded would wait for nobody. The ledger forgets it.
func TestSuspendUnrecordedIsDenied(t *testing.T) {
	r := newSuspendRig(t)
	r.fail = errors.New("the store is unreachable")
	d, reason := decision(t, Run(t.Context(), suspendEvent("AskUserQuestion", askInput, "toolu_1", ""), Config{Ask: nobodyInTime, Suspend: r.s}))
	if d != "deny" || !strings.Contains(reason, "the store is unreachable") {
		t.Errorf("%s %q", d, reason)
	}
	if w, _ := r.s.Ledger.Pending("sess-1"); w != nil {
		t.Errorf("the ledger holds %+v", w)
	}
}

// A deferred question the person declined to answer (askuser cancel) is
// denied at resume with askuser's own words for it and their reason: the
// model is told they declined, not that the questions were skipped.
func TestSuspendDeclinedAtResume(t *testing.T) {
	r := newSuspendRig(t)
	declines := func(_ context.Context, req ask.Request) ([]ask.Answer, error) {
		out := make([]ask.Answer, len(req.Questions))
		for i, q := range req.Questions {
			out[i] = ask.Decline(q, "not now", time.Now())
		}
		return out, nil
	}
	d, reason := decision(t, Run(t.Context(), suspendEvent("AskUserQuestion", askInput, "toolu_1", ""), Config{Ask: declines, Suspend: r.s}))
	if d != "deny" || !strings.Contains(reason, "declined to answer") || !strings.Contains(reason, "not now") {
		t.Errorf("%s %q; want a denial saying the person declined, and why", d, reason)
	}
}
