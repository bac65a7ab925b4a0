package hook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
)

// Suspend lets a PreToolUse call that nobody answered in time wait for a
// late answer (Claude Code's defer): the Ask of Config returned an error
// wrapping ask.ErrDeferred (--on-timeout suspend, an answers file's
// "unanswered: suspend", a frontend that only registers the set), and the
// call is deferred when Claude Code can keep it (the Ledger), else denied
// with words that tell the model what to do. Claude Code traps it keeps
// away from (CONTRACTS-RESUME.md):
//   - Two calls deferred in one turn lose one: a call made while another
//     of the session waits is denied at once, before anyone is asked
//     (Ledger.Peek), or at the deadline (Ledger.Claim, a race).
//   - A subagent cannot defer: its question is still asked, and when
//     nobody answers in time the subagent is told to report back so that
//     the main agent asks it with AskUserQuestion, which can wait.
//   - Claude Code before 2.1.330 loses a deferred call that another call
//     follows in its message: that one is denied, saying to make it again
//     on its own.
//
// At resume Claude Code asks the hook about the same call again: it is
// decided as any call is (the answers file's rules first, then Ask, which
// finds the answer given meanwhile), and the ledger forgets it.
type Suspend struct {
	Ledger agenthost.Ledger
	// Deferred records that call waits for a late answer and returns the
	// reason to give Claude Code; an error denies the call instead, since
	// a call deferred unrecorded would wait for nobody.
	Deferred func(call agenthost.HookCall) (reason string, err error)
	// Settled, if set, records that call was denied with message rather
	// than kept waiting, so its question no longer waits.
	Settled func(call agenthost.HookCall, message string)
}

// deferrable wraps cfg's Ask for one PreToolUse call: it notes whether
// the asking ended deferred, and what was asked.
type deferrable struct {
	ask approval.Asker

	mu       sync.Mutex
	deferred error
	asked    []ask.Request
}

func (d *deferrable) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	answers, err := d.ask(ctx, req)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, req)
	if err != nil && errors.Is(err, ask.ErrDeferred) {
		d.deferred = err
	}
	return answers, err
}

// decideSuspendable decides a PreToolUse call that may wait: a call made
// while another waits is denied at once; a call whose asking ended
// deferred is deferred (or denied, as the ledger says); a call decided
// otherwise is forgotten by the ledger.
func decideSuspendable(ctx context.Context, input []byte, ev event, cfg Config) Reply {
	s := cfg.Suspend
	call, err := agenthost.ParseHookCall(input)
	if err != nil {
		return permission(ev, approval.Permission{Message: approval.Failed(ev.Tool, err).Message})
	}
	if v, waiting, err := s.Ledger.Peek(call); err == nil && v == agenthost.Busy {
		return Deny(agenthost.BusyMessage(call, *waiting))
	}
	d := &deferrable{ask: cfg.Ask}
	dec := approval.Decider{Ask: d.Ask, Approvals: cfg.Approvals, SelfTool: cfg.SelfTool, Dir: ev.Cwd}
	p := dec.Decide(ctx, ev.Tool, ev.ToolUseID, ev.ToolInput)
	d.mu.Lock()
	deferred, asked := d.deferred, d.asked
	d.mu.Unlock()
	if deferred == nil {
		_ = s.Ledger.Release(call) // decided: it waits no more, if it did
		return permission(ev, p)
	}
	return suspend(call, asked, s)
}

// suspend defers call, or denies it when it cannot wait.
func suspend(call agenthost.HookCall, asked []ask.Request, s *Suspend) Reply {
	v, waiting, err := s.Ledger.Claim(call)
	var msg string
	switch {
	case err != nil:
		msg = approval.Failed(call.ToolName, fmt.Errorf("it could not be kept waiting for the answer: %w", err)).Message
	case v == agenthost.Defer || v == agenthost.DeferAgain:
		reason, err := s.Deferred(call)
		if err == nil {
			return Defer(reason)
		}
		_ = s.Ledger.Release(call)
		msg = approval.Failed(call.ToolName, fmt.Errorf("it could not be kept waiting for the answer: %w", err)).Message
	case v == agenthost.Busy:
		msg = agenthost.BusyMessage(call, *waiting)
	case v == agenthost.SubagentCall:
		msg = agenthost.SubagentMessage(call.ToolName, askedText(asked))
	default: // Followed
		msg = agenthost.FollowedMessage(call.ToolName)
	}
	if s.Settled != nil {
		s.Settled(call, msg)
	}
	return Deny(msg)
}

// askedText is the question sets asked, as a person saw them.
func askedText(asked []ask.Request) string {
	var qs []string
	for _, req := range asked {
		for _, q := range req.Questions {
			qs = append(qs, ask.Display(q.Header)+": "+ask.Display(q.Question))
		}
	}
	return strings.Join(qs, "; ")
}
