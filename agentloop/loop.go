package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// DefaultMaxTurns bounds a run when no limit is given, so a model that
// keeps calling tools (say, with input it never gets right) stops.
const DefaultMaxTurns = 50

// Journal records a run as it happens. The loop calls it before acting on
// each step, so a journal that writes durably can always be replayed, with
// State's methods of the same names, into the State the loop had.
type Journal interface {
	// Message records a message joining the conversation.
	Message(m Message) error
	// Asked records a question set, asked by the tool call toolUseID,
	// starting to wait for an answer.
	Asked(req ask.Request, toolUseID string, at time.Time) error
	// Replied records the answers to a question set, before the tool that
	// asked acts on them.
	Replied(requestID string, answers []ask.Answer) error
	// Step records a step of the tool call toolUseID under key ("" for a
	// value that outlives the call: see Call.SetSessionValue).
	Step(toolUseID, key string, value json.RawMessage) error
	// Answered records a tool result becoming ready, with the answers it
	// was made from (nil when nobody was asked).
	Answered(toolUseID string, result Block, answers []ask.Answer) error
}

// Status is how a run ended.
type Status string

// The statuses.
const (
	StatusSuccess   Status = "success"   // the model finished its turn
	StatusWaiting   Status = "waiting"   // a question is pending, to be answered later
	StatusMaxTurns  Status = "max_turns" // MaxTurns model calls were made
	StatusTimeout   Status = "timeout"   // nobody answered in time and the policy was error
	StatusCancelled Status = "cancelled" // the person or a signal cancelled
	StatusError     Status = "error"     // a provider, I/O or frontend failure
)

// Outcome is the end of a run.
type Outcome struct {
	Status Status
	// Result is the text of the last assistant message.
	Result string
	// Turns is the number of model calls this run made.
	Turns int
	Usage Usage
	// APIDuration is the time spent in model calls.
	APIDuration time.Duration
	// Pending lists the question sets still waiting (waiting, timeout,
	// cancelled and error outcomes may leave some).
	Pending []ask.Request
	// Reason says why the run stopped to wait or timed out.
	Reason string
	// Err is the failure for error and cancelled outcomes.
	Err error
}

// ErrPendingQuestions is returned when a new prompt is given to a
// conversation that still waits for answers.
var ErrPendingQuestions = errors.New("the session is waiting for answers to its questions")

// Loop runs a conversation with a provider, answering its tool calls.
type Loop struct {
	Provider Provider
	// Tools are the tools offered to the model (nil: DefaultTools).
	Tools *Registry
	// Agent names the sub-agent this loop runs, "" for the main agent;
	// its question sets carry it, so a person sees who asks.
	Agent    string
	Frontend ask.Frontend
	System   string
	// MaxTokens bounds each model reply (0: the provider's default).
	MaxTokens int64
	// MaxTurns bounds the model calls of one Run (0: DefaultMaxTurns,
	// negative: no bound).
	MaxTurns int
	// AskTimeout bounds each question set (0: no bound). OnTimeout says
	// what happens when it passes: error stops the run (the question stays
	// pending), suspend stops it as waiting, auto answers with
	// TimeoutFallback (which must mark its answers as the policy's).
	AskTimeout      time.Duration
	OnTimeout       ask.Policy
	TimeoutFallback ask.Frontend
	// Journal, if set, records every step.
	Journal Journal
	// Observe, if set, receives events as they happen, one at a time
	// (question sets asked concurrently report from several goroutines).
	Observe func(Event)
	// Now is the clock (time.Now if nil).
	Now func() time.Time

	mu     sync.Mutex // guards State, Journal and askedHere while calls run concurrently
	emitMu sync.Mutex // serialises calls to Observe
	// askMu lets one question set at a time reach a frontend that is not
	// Concurrent; a sub-agent's loop shares its parent's.
	askMu    *sync.Mutex
	initOnce sync.Once
	// idPrefix names a sub-agent's question sets: its Task calls' ids,
	// each followed by "/".
	idPrefix  string
	askedHere map[string]bool
	// subUsage sums the usage of the sub-agents this run started.
	subUsage Usage
}

// Run continues the conversation in st: it adds prompt (if any), answers
// any tool calls still pending, and calls the model until it ends its
// turn, a question must wait, or a limit is reached.
func (l *Loop) Run(ctx context.Context, st *State, prompt *Message) Outcome {
	start := len(st.Messages)
	out := l.run(ctx, st, prompt)
	l.mu.Lock()
	out.Usage.Add(l.subUsage) // the sub-agents' model calls are this run's too
	l.subUsage = Usage{}
	l.mu.Unlock()
	if len(st.Messages) > start || out.Result == "" {
		out.Result = st.FinalText()
	}
	if out.Status != StatusSuccess {
		out.Pending = l.pendingQuestions(st)
	}
	return out
}

// init sets what a loop shares with its sub-agents' loops.
func (l *Loop) init() {
	l.initOnce.Do(func() {
		if l.askMu == nil {
			l.askMu = &sync.Mutex{}
		}
	})
}

func (l *Loop) run(ctx context.Context, st *State, prompt *Message) (out Outcome) {
	l.init()
	fail := func(status Status, err error) Outcome {
		out.Status, out.Err = status, err
		return out
	}
	if prompt != nil {
		if len(st.Pending()) > 0 {
			return fail(StatusError, ErrPendingQuestions)
		}
		if err := l.record(st, *prompt); err != nil {
			return fail(StatusError, err)
		}
	}
	maxTurns := l.MaxTurns
	if maxTurns == 0 {
		maxTurns = DefaultMaxTurns
	}
	for {
		if pending := st.Pending(); len(pending) > 0 {
			if stop := l.resolve(ctx, st, pending, &out); stop {
				return out
			}
		}
		if msg, ok := st.resultsMessage(); ok {
			if err := l.record(st, msg); err != nil {
				return fail(StatusError, err)
			}
			l.emit(Event{Type: EventUser, Message: &msg})
		}
		if last := st.last(); last == nil || last.Role == RoleAssistant {
			out.Status = StatusSuccess
			return out
		}
		if maxTurns > 0 && out.Turns >= maxTurns {
			out.Status = StatusMaxTurns
			out.Reason = fmt.Sprintf("stopped after %d model calls (--max-turns %d)", out.Turns, maxTurns)
			return out
		}
		resp, err := l.call(ctx, st, &out)
		if err != nil {
			if ctx.Err() != nil {
				return fail(StatusCancelled, fmt.Errorf("%w: %w", ask.ErrCancelled, err))
			}
			return fail(StatusError, err)
		}
		uniqueToolUseIDs(&resp.Message)
		if len(resp.Message.Content) == 0 {
			// Nothing to keep: an empty assistant message cannot be sent back.
			out.Status = StatusSuccess
			return out
		}
		if err := l.record(st, resp.Message); err != nil {
			return fail(StatusError, err)
		}
		l.emit(Event{Type: EventAssistant, Message: &resp.Message, Response: &resp})
	}
}

// call makes one model call, streaming text to the observer.
func (l *Loop) call(ctx context.Context, st *State, out *Outcome) (Response, error) {
	req := Request{System: l.System, Messages: st.Messages, Tools: l.tools().Specs(), MaxTokens: l.MaxTokens}
	began := l.now()
	resp, err := l.Provider.Complete(ctx, req, func(s string) { l.emit(Event{Type: EventText, Text: s}) })
	out.APIDuration += l.now().Sub(began)
	if err != nil {
		return resp, err
	}
	out.Turns++
	out.Usage.Add(resp.Usage)
	resp.Message.Role = RoleAssistant
	return resp, nil
}

// record appends m to the journal, then to the state.
func (l *Loop) record(st *State, m Message) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Journal != nil {
		if err := l.Journal.Message(m); err != nil {
			return fmt.Errorf("record message: %w", err)
		}
	}
	st.Append(m)
	return nil
}

func (l *Loop) emit(e Event) {
	if l.Observe != nil {
		l.emitMu.Lock()
		defer l.emitMu.Unlock()
		l.Observe(e)
	}
}

// pendingQuestions lists what st waits on: the question sets asked and not
// answered, then those that pending calls not yet run would ask.
func (l *Loop) pendingQuestions(st *State) []ask.Request {
	out := st.PendingQuestions()
	for _, use := range st.Pending() {
		if _, asked := st.AskedAt[use.ID]; asked {
			continue
		}
		if t, ok := l.tools().Lookup(use.Name); ok {
			if p, ok := t.(Previewer); ok {
				if req, ok := p.Preview(use); ok {
					out = append(out, req)
				}
			}
		}
	}
	return out
}

func (l *Loop) tools() *Registry {
	if l.Tools == nil {
		return defaultTools
	}
	return l.Tools
}

var defaultTools = DefaultTools()

func (l *Loop) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}
