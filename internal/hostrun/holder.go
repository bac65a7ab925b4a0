package hostrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// Asker asks a question set for a host session: the frontends the flags
// chose, the answer mailbox of the session (an answer given elsewhere is
// taken), bounded by --ask-timeout. An error wrapping ask.ErrDeferred
// means the set is to wait for a late answer (--on-timeout suspend, an
// answers file's "unanswered: suspend", a frontend that only registers
// it); ctx says when the set was first asked (ask.AskedAt).
type Asker func(ctx context.Context, req ask.Request) ([]ask.Answer, error)

// Holder is the askuser session of a host run while a process holds it
// (askuser run --agent, askuser resume): the one writer of its journal.
// The agent's askuser hook and askuser mcp hand it their calls (Handlers);
// it records each call and its set before anyone is asked, asks one set
// at a time, and records the answer, or that the call waits.
type Holder struct {
	Store *session.Store
	Sess  *session.Session
	Ask   Asker
	// Log, if set, is told what a person should know (stderr).
	Log io.Writer
	// Continues says a call told to wait will be continued by askuser
	// (it knows the host's session): the words the model reads say so.
	Continues bool

	// ask serialises the askings of the run: one set at a time.
	ask sync.Mutex
	// mu guards the journal and what follows.
	mu sync.Mutex
	// waiting is the call told to wait in this run, or nil.
	waiting *waitingCall
	// flights are the calls asked in this run, by id: a second hook for
	// the same call (the person's own askuser hook beside askuser's)
	// gets the first's answer, or waits for it, instead of asking again.
	flights map[string]*flight
}

type waitingCall struct {
	id, headers string
}

type flight struct {
	done    chan struct{}
	answers []ask.Answer
	err     error
}

// Waiting returns the call told to wait in this run, or "".
func (h *Holder) Waiting() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.waiting == nil {
		return ""
	}
	return h.waiting.id
}

// askCall asks call's set req, recording it first: the answers recorded
// for call before (a resume gave them) are returned at once, a call being
// asked now is answered once for every hook that asks it, and a set asked
// while another call waits is not asked (a Suspension, Busy).
func (h *Holder) askCall(ctx context.Context, call agentloop.Block, req ask.Request) ([]ask.Answer, error) {
	f, first := h.flight(call.ID)
	if first {
		if answers, ok := h.recorded(call.ID); ok {
			f.answers, f.err = answers, h.settle(call.ID, ask.FormatResult(answers), false)
			close(f.done)
			return f.answers, f.err
		}
	}
	if !first {
		select {
		case <-f.done:
			return f.answers, f.err
		case <-ctx.Done():
			return nil, ask.CtxErr(ctx)
		}
	}
	f.answers, f.err = h.askFirst(ctx, call, req)
	close(f.done)
	return f.answers, f.err
}

func (h *Holder) flight(id string) (*flight, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if f, ok := h.flights[id]; ok {
		return f, false
	}
	if h.flights == nil {
		h.flights = map[string]*flight{}
	}
	f := &flight{done: make(chan struct{})}
	h.flights[id] = f
	return f, true
}

func (h *Holder) askFirst(ctx context.Context, call agentloop.Block, req ask.Request) ([]ask.Answer, error) {
	select {
	case <-ctx.Done():
		return nil, ask.CtxErr(ctx)
	default:
	}
	h.ask.Lock()
	defer h.ask.Unlock()
	if w := h.waitingOther(call.ID); w != nil {
		return nil, &agenthost.Suspension{Session: string(h.Sess.Meta.ID), Continues: h.Continues, Busy: true, Waiting: w.headers}
	}
	at, err := h.record(call, req)
	if err != nil {
		return nil, fmt.Errorf("record the question in session %s: %w", h.Sess.Meta.ID, err)
	}
	crashAt(stepRecorded)
	answers, err := h.Ask(ask.WithAskedAt(ctx, at), req)
	switch {
	case err == nil:
		if rerr := h.answered(req, call.ID, answers); rerr != nil {
			return nil, fmt.Errorf("record the answer in session %s: %w", h.Sess.Meta.ID, rerr)
		}
		return answers, nil
	case errors.Is(err, ask.ErrDeferred):
		return nil, err // the caller decides whether it waits (Claude Code's ledger)
	}
	_ = h.settle(call.ID, "not answered: "+err.Error(), true)
	return nil, err
}

// waitingOther is the call told to wait in this run, when it is not id.
func (h *Holder) waitingOther(id string) *waitingCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.waiting != nil && h.waiting.id != id {
		return h.waiting
	}
	return nil
}

// recorded returns the answers recorded for call id while it waits.
func (h *Holder) recorded(id string) ([]ask.Answer, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.Sess.AnswersFor(id)
}

// record writes call and its set to the journal, unless call is already
// the one that waits there (asked again at resume), and returns when the
// set was first asked. Another call that waits there is settled first:
// the agent went on past it (a continued call that ran, a continuation
// prompt it took), and only then asks again.
func (h *Holder) record(call agentloop.Block, req ask.Request) (time.Time, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, r, _ := h.Sess.HostPending()
	if c != nil && c.ID == call.ID && r != nil {
		return h.Sess.State.AskedAt[r.ID], nil
	}
	if c != nil {
		if err := h.Sess.HostSettled(c.ID, "the agent went on past this call", false); err != nil {
			return time.Time{}, err
		}
	}
	at := time.Now()
	return at, h.Sess.HostCall(call, req, at)
}

// answered records the answers to call's set, and the call settled.
func (h *Holder) answered(req ask.Request, callID string, answers []ask.Answer) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.Sess.HostAnswered(req.ID, callID, answers, ask.FormatResult(answers))
}

// settle records call id settled with result, if it still waits.
func (h *Holder) settle(id, result string, isError bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c, _, _ := h.Sess.HostPending(); c == nil || c.ID != id {
		return nil
	}
	return h.Sess.HostSettled(id, result, isError)
}

// suspended records that call waits for a late answer: the agent was told
// so and is stopping.
func (h *Holder) suspended(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	headers := id
	if _, r, _ := h.Sess.HostPending(); r != nil {
		headers = headersOfRequest(*r)
	}
	h.waiting = &waitingCall{id: id, headers: headers}
	err := h.Sess.SetHost(session.HostRecord{State: session.HostSuspending, Call: id})
	crashAt(stepSuspended)
	return err
}

// HookCall is what the hook handler of one Claude Code call asks with:
// Ask asks its sets (recorded), Deferred and Settled record how the hook
// ended it (hook.Suspend).
type HookCall struct {
	Ask      func(ctx context.Context, req ask.Request) ([]ask.Answer, error)
	Deferred func(call agenthost.HookCall) (reason string, err error)
	Settled  func(call agenthost.HookCall, message string)
}

// ForHook returns what the hook handler of call asks and records with.
func (h *Holder) ForHook(call agenthost.HookCall) HookCall {
	block := agentloop.Block{ID: call.ToolUseID, Name: call.ToolName, Input: call.ToolInput}
	return HookCall{
		Ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
			return h.askCall(ctx, block, req)
		},
		Deferred: func(c agenthost.HookCall) (string, error) {
			if err := h.suspended(c.ToolUseID); err != nil {
				return "", fmt.Errorf("record the waiting call in session %s: %w", h.Sess.Meta.ID, err)
			}
			return "waiting for the person's answer (askuser session " + string(h.Sess.Meta.ID) + ")", nil
		},
		Settled: func(c agenthost.HookCall, msg string) { _ = h.settle(c.ToolUseID, msg, true) },
	}
}

// AskMCP asks an AskUserQuestion call of askuser mcp (a host without
// defer): a set nobody answered in time waits, and the model is told so
// (agenthost.Suspension, WaitingResult).
func (h *Holder) AskMCP(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	input, _ := json.Marshal(ask.Input{Questions: req.Questions})
	answers, err := h.askCall(ctx, agentloop.Block{ID: req.ID, Name: ask.ToolName, Input: input}, req)
	var busy *agenthost.Suspension
	if err == nil || errors.As(err, &busy) || !errors.Is(err, ask.ErrDeferred) {
		return answers, err
	}
	if rerr := h.suspended(req.ID); rerr != nil {
		return nil, fmt.Errorf("record the waiting question in session %s: %w", h.Sess.Meta.ID, rerr)
	}
	if h.Log != nil {
		fmt.Fprintf(h.Log, "askuser: nobody answered in time: the question waits in session %s, and the agent was told to stop\n", h.Sess.Meta.ID)
	}
	return nil, &agenthost.Suspension{Session: string(h.Sess.Meta.ID), Continues: h.Continues, Why: whyWaits(err)}
}

// headersOfRequest names a set by its headers, for a person or a model.
func headersOfRequest(r ask.Request) string {
	var hs []string
	for _, q := range r.Questions {
		hs = append(hs, ask.Display(q.Header))
	}
	return strings.Join(hs, ", ")
}

// whyWaits words why a set waits, from its deferral.
func whyWaits(err error) string {
	s := strings.TrimPrefix(err.Error(), ask.ErrDeferred.Error()+": ")
	if s == ask.ErrDeferred.Error() {
		return "nobody answered in time"
	}
	return s
}
