package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/askuser/askuser/ask"
)

// Tools returns the tools offered to the model.
func Tools() []Tool {
	return []Tool{{Name: ask.ToolName, Description: ask.ToolDescription, InputSchema: ask.InputSchema}}
}

// outcome of one question set.
type askOutcome struct {
	use     Block
	req     ask.Request
	answers []ask.Answer
	err     error
}

// resolve answers the pending tool uses. It returns true when the run must
// stop (out is then set); otherwise every tool use has a result.
func (l *Loop) resolve(ctx context.Context, st *State, pending []Block, out *Outcome) bool {
	var jobs []askOutcome
	for _, use := range pending {
		if use.Name != ask.ToolName {
			msg := fmt.Sprintf("Unknown tool %q: the only tool available here is %s. Ask the user with %s, or answer without tools.", use.Name, ask.ToolName, ask.ToolName)
			if err := l.answer(st, use.ID, errorResult(use.ID, msg), nil); err != nil {
				out.Status, out.Err = StatusError, err
				return true
			}
			continue
		}
		in, err := ask.Parse(use.Input)
		if err != nil {
			if err := l.answer(st, use.ID, errorResult(use.ID, invalidInput(use.Input, err)), nil); err != nil {
				out.Status, out.Err = StatusError, err
				return true
			}
			continue
		}
		jobs = append(jobs, askOutcome{use: use, req: ask.Request{ID: use.ID, Questions: in.Questions}})
	}
	if len(jobs) == 0 {
		return false
	}
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c, ok := l.Frontend.(ask.Concurrent); ok && c.Concurrent() && len(jobs) > 1 {
		var wg sync.WaitGroup
		for i := range jobs {
			wg.Add(1)
			go func(j *askOutcome) {
				defer wg.Done()
				l.askOne(actx, st, j)
				if stopsRun(ctx, j.err) {
					cancel()
				}
			}(&jobs[i])
		}
		wg.Wait()
		givenUp(ctx, actx, jobs)
	} else {
		for i := range jobs {
			l.askOne(actx, st, &jobs[i])
			if stopsRun(ctx, jobs[i].err) {
				break
			}
		}
	}
	return l.settle(ctx, jobs, out)
}

// stopsRun reports whether a question set's error ends the run at once
// (the other sets are not asked): anything but a deferral or a timeout.
func stopsRun(ctx context.Context, err error) bool {
	return err != nil && (ctx.Err() != nil || !(errors.Is(err, ask.ErrDeferred) || errors.Is(err, ask.ErrTimeout)))
}

// givenUp clears the errors of question sets that ended only because
// another set stopped the run (actx was cancelled, ctx was not), so the run
// reports that set's failure rather than a cancellation nobody asked for.
// The sets given up stay pending.
func givenUp(ctx, actx context.Context, jobs []askOutcome) {
	if ctx.Err() != nil || actx.Err() == nil {
		return
	}
	cause := false
	for _, j := range jobs {
		if j.err != nil && !errors.Is(j.err, context.Canceled) {
			cause = true
		}
	}
	if !cause {
		return // keep the errors: without them the run would seem answered
	}
	for i := range jobs {
		if errors.Is(jobs[i].err, context.Canceled) {
			jobs[i].err = nil
		}
	}
}

// settle turns the question sets' errors into the run's outcome. Order of
// precedence: cancelled, error, timeout, waiting.
func (l *Loop) settle(ctx context.Context, jobs []askOutcome, out *Outcome) bool {
	var waiting, timedOut, failed, cancelled error
	for _, j := range jobs {
		switch err := j.err; {
		case err == nil:
		case ctx.Err() != nil || errors.Is(err, ask.ErrCancelled):
			cancelled = err
		case errors.Is(err, ask.ErrDeferred):
			waiting = err
		case errors.Is(err, ask.ErrTimeout):
			timedOut = err
		default:
			if failed == nil {
				failed = err
			}
		}
	}
	switch {
	case cancelled != nil:
		out.Status, out.Err = StatusCancelled, cancelled
	case failed != nil:
		out.Status, out.Err = StatusError, failed
	case timedOut != nil:
		out.Status, out.Reason, out.Err = StatusTimeout, timedOut.Error(), timedOut
	case waiting != nil:
		out.Status, out.Reason = StatusWaiting, strings.TrimPrefix(waiting.Error(), ask.ErrDeferred.Error()+": ")
	default:
		return false
	}
	return true
}

// askOne puts one question set to the frontend and records its result.
func (l *Loop) askOne(ctx context.Context, st *State, j *askOutcome) {
	l.mu.Lock()
	askedAt, late := st.AskedAt[j.req.ID]
	if !late {
		askedAt = l.now()
		if l.Journal != nil {
			if err := l.Journal.Asked(j.req, askedAt); err != nil {
				l.mu.Unlock()
				j.err = fmt.Errorf("record question: %w", err)
				return
			}
		}
		st.AskedAt[j.req.ID] = askedAt
		st.Questions[j.req.ID] = j.req
	}
	l.mu.Unlock()
	l.emit(Event{Type: EventQuestion, Request: &j.req, Late: late})

	answers, err := ask.AskWithin(ctx, l.Frontend, j.req, l.AskTimeout, l.OnTimeout, l.TimeoutFallback)
	if err != nil {
		j.err = err
		if errors.Is(err, ask.ErrDeferred) || errors.Is(err, ask.ErrTimeout) {
			l.emit(Event{Type: EventDeferred, Request: &j.req, Note: err.Error()})
		}
		return
	}
	if late {
		for i := range answers {
			answers[i].Late = &ask.Late{AskedAt: askedAt}
		}
	}
	j.answers = answers
	result := Block{Type: BlockToolResult, ToolUseID: j.req.ID, Content: ask.FormatResult(answers)}
	if err := l.answer(st, j.req.ID, result, answers); err != nil {
		j.err = err
		return
	}
	l.emit(Event{Type: EventAnswers, Request: &j.req, Answers: answers})
}

// answer records a tool result.
func (l *Loop) answer(st *State, id string, result Block, answers []ask.Answer) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Journal != nil {
		if err := l.Journal.Answered(id, result, answers); err != nil {
			return fmt.Errorf("record answer: %w", err)
		}
	}
	st.Results[id] = result
	return nil
}

func errorResult(id, msg string) Block {
	return Block{Type: BlockToolResult, ToolUseID: id, Content: msg, IsError: true}
}

// invalidInput words a decoding failure for the model.
func invalidInput(raw json.RawMessage, err error) string {
	var ve *ask.ValidationError
	if errors.As(err, &ve) {
		var s string
		if json.Unmarshal(raw, &s) == nil && !json.Valid([]byte(s)) {
			return fmt.Sprintf("Invalid %s input: the arguments are not valid JSON (%q). Send a JSON object {\"questions\": [...]}.", ask.ToolName, truncate(s, 200))
		}
		return ve.ToolResult()
	}
	return fmt.Sprintf("Invalid %s input: %v", ask.ToolName, err)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
