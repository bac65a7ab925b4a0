package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
)

// Call is one tool call being run, with what the loop offers the tool that
// runs it: asking through the run's frontend, and recording steps durably,
// so that a call continued after a stop or a kill picks up where it was and
// never repeats what it recorded.
type Call struct {
	// ID is the tool_use id, unique within its assistant message.
	ID string
	// Name is the tool's name as the model called it.
	Name string
	// Input is the raw JSON the model sent (a JSON string holding the text
	// verbatim when it was not valid JSON).
	Input json.RawMessage

	loop *Loop
	st   *State
}

type callKey struct{}

// CallFromContext returns the call whose Run ctx is, or one derived from
// it: code a tool calls into without passing the Call along (an MCP
// server's elicitation handler) finds the call it serves.
func CallFromContext(ctx context.Context) (*Call, bool) {
	c, ok := ctx.Value(callKey{}).(*Call)
	return c, ok
}

// Ask puts req to the run's frontend and returns one answer per question.
// The set is journaled before it is asked, bounded by the loop's
// AskTimeout (with its OnTimeout policy), reported to the observer, and its
// answers are journaled before they are returned. A set answered before, by
// an earlier process, is not asked again: its recorded answers come back.
// One asked by an earlier process and still open is asked now with its
// answers marked as given late. req.ID must be unique in the conversation;
// the call's own ID is the natural choice for a call's one question set.
func (c *Call) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if req.Agent == "" {
		req.Agent = c.loop.Agent
	}
	// A sub-agent's sets are named under its Task call: two children
	// whose models both say call_0 must not answer each other's questions.
	req.ID = c.loop.idPrefix + req.ID
	return c.loop.ask(ctx, c.st, c.ID, req)
}

// agent names the sub-agent the call belongs to; "" for the main agent.
func (c *Call) agent() string { return c.loop.Agent }

// Step returns the value an earlier run of this call recorded under key.
func (c *Call) Step(key string) (json.RawMessage, bool) {
	c.loop.mu.Lock()
	defer c.loop.mu.Unlock()
	v, ok := c.st.Steps[c.ID][key]
	return v, ok
}

// Record durably records v (as JSON) under key for this call; Step returns
// it from then on, in this run and in any run that continues the session.
func (c *Call) Record(key string, v any) error {
	return c.loop.recordStep(c.st, c.ID, key, v)
}

// SessionValue returns what a call of this session recorded with
// SetSessionValue under key. Unlike a Step it outlives the call.
func (c *Call) SessionValue(key string) (json.RawMessage, bool) {
	return c.st.Session.Get(key)
}

// SetSessionValue durably records v under key for the rest of the session
// (for example a grant: "allow this tool from now on").
func (c *Call) SetSessionValue(key string, v any) error {
	return c.loop.recordStep(c.st, "", key, v)
}

// recordStep journals and applies one step; callID "" is session scope.
func (l *Loop) recordStep(st *State, callID, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode step %s: %w", key, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Journal != nil {
		if err := l.Journal.Step(callID, key, raw); err != nil {
			return fmt.Errorf("record step %s: %w", key, err)
		}
	}
	st.SetStep(callID, key, raw)
	return nil
}

// ask is Call.Ask: the one place a question set of a run is put to the
// frontend. Only the questions still unanswered are put (a frontend may
// have answered some before, and deferred the rest: ask.PartialError);
// the answers are merged back in the set's order, each with its own
// source.
func (l *Loop) ask(ctx context.Context, st *State, callID string, req ask.Request) ([]ask.Answer, error) {
	l.mu.Lock()
	if answers, ok := st.Replies[req.ID]; ok {
		l.mu.Unlock()
		return answers, nil
	}
	askedAt, before := st.AskedAt[req.ID]
	// Late: first asked by an earlier process, so this answer comes
	// through resume; a set asked earlier by this process is not late.
	late := before && !l.askedHere[req.ID]
	if !before {
		askedAt = l.now()
		if l.Journal != nil {
			if err := l.Journal.Asked(req, callID, askedAt); err != nil {
				l.mu.Unlock()
				return nil, fmt.Errorf("record question: %w", err)
			}
		}
		st.NoteAsked(req, callID, askedAt)
		if l.askedHere == nil {
			l.askedHere = map[string]bool{}
		}
		l.askedHere[req.ID] = true
	}
	rest, idx := st.Remaining(req)
	l.mu.Unlock()
	if len(rest.Questions) == 0 {
		return l.replied(st, req, nil, nil) // answered in parts, all of it
	}

	if !l.frontendConcurrent() {
		// One set at a time at a terminal: calls that run concurrently
		// queue here, and one given up while queued is not asked.
		l.askMu.Lock()
		defer l.askMu.Unlock()
		if err := ask.CtxErr(ctx); err != nil {
			return nil, err
		}
	}
	l.emit(Event{Type: EventQuestion, Request: &rest, Late: late})
	ctx = ask.WithAskedAt(ctx, askedAt)
	answers, err := ask.AskWithin(ctx, l.Frontend, rest, l.AskTimeout, l.OnTimeout, l.TimeoutFallback)
	if err != nil {
		if pe, ok := ask.AsPartial(err); ok && len(pe.Answers) == len(rest.Questions) {
			if jerr := l.keepPartial(st, req.ID, pe, idx, late, askedAt); jerr != nil {
				return nil, jerr
			}
		}
		if errors.Is(err, ask.ErrDeferred) || errors.Is(err, ask.ErrTimeout) {
			l.emit(Event{Type: EventDeferred, Request: &rest, Note: err.Error()})
		}
		return nil, err
	}
	if late {
		markLate(answers, askedAt)
	}
	return l.replied(st, req, answers, idx)
}

// replied merges answers (to questions idx of req) with those given
// before, journals the whole set's answers, and reports them.
func (l *Loop) replied(st *State, req ask.Request, answers []ask.Answer, idx []int) ([]ask.Answer, error) {
	l.mu.Lock()
	answers = st.Merged(req, answers, idx)
	if l.Journal != nil {
		if err := l.Journal.Replied(req.ID, answers); err != nil {
			l.mu.Unlock()
			return nil, fmt.Errorf("record answers: %w", err)
		}
	}
	st.NoteReplied(req.ID, answers)
	l.mu.Unlock()
	l.emit(Event{Type: EventAnswers, Request: &req, Answers: answers})
	return answers, nil
}

// PartialJournal is implemented by journals that can keep the answers to
// some questions of a set (the session does). Without it, a set answered
// in part is asked whole again, so that the state and the journal agree.
type PartialJournal interface {
	// Partial records answers to some questions of the open set
	// requestID: answers[j] answers question indexes[j].
	Partial(requestID string, answers []ask.Answer, indexes []int) error
}

// keepPartial journals and notes the answers a frontend gave to some
// questions of rest (whose question j is question idx[j] of the set)
// before deferring the others.
func (l *Loop) keepPartial(st *State, requestID string, pe *ask.PartialError, idx []int, late bool, askedAt time.Time) error {
	var answers []ask.Answer
	var indexes []int
	for j, given := range pe.Given {
		if given && j < len(idx) {
			answers = append(answers, pe.Answers[j])
			indexes = append(indexes, idx[j])
		}
	}
	if late {
		markLate(answers, askedAt)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Journal != nil {
		pj, ok := l.Journal.(PartialJournal)
		if !ok {
			return nil
		}
		if err := pj.Partial(requestID, answers, indexes); err != nil {
			return fmt.Errorf("record answers: %w", err)
		}
	}
	st.NotePartial(requestID, answers, indexes)
	return nil
}

// markLate marks answers as given after the run that asked stopped.
func markLate(answers []ask.Answer, askedAt time.Time) {
	for i := range answers {
		answers[i].Late = &ask.Late{AskedAt: askedAt}
	}
}

func (l *Loop) frontendConcurrent() bool {
	c, ok := l.Frontend.(ask.Concurrent)
	return ok && c.Concurrent()
}
