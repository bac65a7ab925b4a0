package client

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/elicit"
)

// The actions of an elicitation result.
const (
	actionAccept  = "accept"
	actionDecline = "decline"
	actionCancel  = "cancel"
)

// callState is a tool call in progress on a server, as its elicitations
// see it.
type callState struct {
	call   *agentloop.Call
	ctx    context.Context    // the tools/call context
	cancel context.CancelFunc // ends the tools/call

	mu    sync.Mutex
	n     int      // question sets asked so far
	notes []string // for the model, after the result
	stop  error    // a question's error that ends the run
}

// nextID is the id of the call's next question set: <call>.elicit.N.
func (c *callState) nextID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.call.ID + ".elicit." + strconv.Itoa(c.n)
}

func (c *callState) note(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, s)
}

func (c *callState) takeNotes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notes
	c.notes = nil
	return n
}

// stopWith ends the call: the run stops with err once the tool returns.
func (c *callState) stopWith(err error) {
	c.mu.Lock()
	if c.stop == nil {
		c.stop = err
	}
	c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

func (c *callState) stopErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stop
}

// elicit answers a server's elicitation/create: the form is asked through
// the run's frontend as a question set of the call in progress, and the
// answers mapped back to the form's exact values. A form askuser cannot
// ask, or answers that cannot fill it, are declined with the reason; a
// question nobody can answer now is cancelled.
func (r *remote) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p := req.Params
	if p == nil {
		p = &mcp.ElicitParams{}
	}
	cur := r.currentCall()
	if c, ok := agentloop.CallFromContext(ctx); ok && (cur == nil || cur.call != c) {
		cur = &callState{call: c, ctx: ctx}
	}
	if cur == nil {
		return r.decline(nil, p.Message, "no tool call of this server is in progress, and askuser asks a server's questions only during its tool calls"), nil
	}
	if p.Mode == "url" {
		return r.decline(cur, p.Message, "askuser fills in forms only, and the server asked to send the person to a web page"), nil
	}
	form, err := elicit.Parse(p.Message, r.raw.Raw(p.RequestedSchema))
	if err != nil {
		return r.decline(cur, p.Message, strings.TrimPrefix(err.Error(), elicit.ErrUnsupported.Error()+": ")), nil
	}
	form.Asker = fmt.Sprintf("MCP server %q", ask.Display(r.cfg.Name))
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(cur.ctx, cancel)()
	defer context.AfterFunc(r.life, cancel)()

	content := map[string]any{}
	var sources []ask.Source
	for attempt := 1; ; attempt++ {
		answers, err := cur.call.Ask(actx, form.Questions(cur.nextID(), ""))
		if err != nil {
			return r.unanswered(ctx, cur, p.Message, err), nil
		}
		for _, a := range answers {
			if !slices.Contains(sources, a.Source) {
				sources = append(sources, a.Source)
			}
		}
		got, probs := form.Content(answers)
		maps.Copy(content, got)
		if len(probs) == 0 {
			r.log.Note("elicitation %q accepted", cutText(p.Message, 80))
			cur.note(noteText(p.Message, "the form was filled in by "+describeSources(sources)))
			return &mcp.ElicitResult{Action: actionAccept, Content: content}, nil
		}
		if probs.Final() || attempt == elicit.MaxAsks {
			return r.decline(cur, p.Message, "the answers cannot fill in the form: "+probs.String()), nil
		}
		form = form.Retry(probs)
	}
}

// decline answers a form with decline, saying why in the result's _meta,
// the log and, when a call is in progress, a note for the model.
func (r *remote) decline(cur *callState, message, reason string) *mcp.ElicitResult {
	r.log.Note("elicitation %q declined: %s", cutText(message, 80), reason)
	if cur != nil {
		cur.note(noteText(message, "askuser declined it: "+reason))
	}
	return &mcp.ElicitResult{Action: actionDecline, Meta: mcp.Meta{"askuser/reason": reason}}
}

// unanswered answers cancel when asking failed. A question that would
// have to wait (deferred, timed out) cannot outlive the tool call, so the
// call goes on without it; any other failure (the person cancelled, no
// frontend could answer, the journal failed) stops the run as it would
// for AskUserQuestion, once the tool call has ended.
func (r *remote) unanswered(ctx context.Context, cur *callState, message string, err error) *mcp.ElicitResult {
	r.log.Note("elicitation %q cancelled: %v", cutText(message, 80), err)
	switch {
	case cur.ctx.Err() != nil || r.life.Err() != nil:
		// The call or the server is ending; Run reports why.
	case ctx.Err() != nil:
		cur.note(noteText(message, "the server withdrew its question"))
	case errors.Is(err, ask.ErrDeferred):
		cur.note(noteText(message, "it was cancelled: nobody could answer it now, and a server's question cannot wait past its tool call"))
	case errors.Is(err, ask.ErrTimeout):
		cur.note(noteText(message, "it was cancelled: nobody answered in time"))
	default:
		cur.stopWith(err)
	}
	return &mcp.ElicitResult{Action: actionCancel}
}

// noteText is a note for the model about one of the server's questions.
func noteText(message, outcome string) string {
	return fmt.Sprintf("[askuser: during this call the server asked %q; %s.]", cutText(ask.Display(message), 200), outcome)
}

// describeSources names who answered, so a model never takes a file's or
// a policy's answer for a person's.
func describeSources(sources []ask.Source) string {
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Describe()
	}
	return strings.Join(names, " and ")
}
