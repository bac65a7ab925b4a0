package agentloop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/askuser/askuser/ask"
)

// callJob is one tool call of an assistant message, and how it ended.
type callJob struct {
	use  Block
	tool Tool
	err  error
}

// resolve runs the pending tool calls. It returns true when the run must
// stop (out is then set); otherwise every call has a result.
func (l *Loop) resolve(ctx context.Context, st *State, pending []Block, out *Outcome) bool {
	reg := l.tools()
	var jobs []*callJob
	for _, use := range pending {
		t, ok := reg.Lookup(use.Name)
		if !ok {
			r := reg.unknown(use.Name)
			if err := l.answer(st, use.ID, Block{Type: BlockToolResult, ToolUseID: use.ID, Content: r.Content, IsError: true}, nil); err != nil {
				out.Status, out.Err = StatusError, err
				return true
			}
			continue
		}
		jobs = append(jobs, &callJob{use: use, tool: t})
	}
	if len(jobs) == 0 {
		return false
	}
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	run := func(j *callJob) {
		l.runCall(actx, st, j)
		if stopsRun(ctx, j.err) {
			cancel()
		}
	}
	var inOrder []*callJob
	for _, j := range jobs {
		if !l.parallel(j.tool) {
			inOrder = append(inOrder, j)
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); run(j) }()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, j := range inOrder {
			if actx.Err() != nil {
				return // given up: the call stays pending
			}
			run(j)
		}
	}()
	wg.Wait()
	givenUp(ctx, actx, jobs)
	return l.settle(ctx, jobs, out)
}

// parallel reports whether a tool's call runs beside the others.
func (l *Loop) parallel(t Tool) bool {
	c := RunSequential
	if ct, ok := t.(Concurrent); ok {
		c = ct.Concurrency()
	}
	return c == RunConcurrent || (c == RunConcurrentAsking && l.frontendConcurrent())
}

// runCall runs one call and records its result. A tool that panics fails
// the run with an error instead of taking the process down.
func (l *Loop) runCall(ctx context.Context, st *State, j *callJob) {
	defer func() {
		if r := recover(); r != nil {
			j.err = fmt.Errorf("tool %s failed unexpectedly: %v", j.use.Name, r)
		}
	}()
	call := &Call{ID: j.use.ID, Name: j.use.Name, Input: j.use.Input, loop: l, st: st}
	res, err := j.tool.Run(context.WithValue(ctx, callKey{}, call), call)
	if err != nil {
		j.err = err
		return
	}
	block := Block{Type: BlockToolResult, ToolUseID: j.use.ID, Content: res.Content, IsError: res.IsError}
	if j.err = l.answer(st, j.use.ID, block, res.Answers); j.err == nil {
		l.emit(Event{Type: EventToolResult, Use: &j.use, Result: &block})
	}
}

// stopsRun reports whether a call's error ends the run at once (the other
// calls are given up): anything but a deferral or a timeout.
func stopsRun(ctx context.Context, err error) bool {
	return err != nil && (ctx.Err() != nil || !(errors.Is(err, ask.ErrDeferred) || errors.Is(err, ask.ErrTimeout)))
}

// givenUp clears the errors of calls that ended only because another call
// stopped the run (actx was cancelled, ctx was not), so the run reports
// that call's failure rather than a cancellation nobody asked for. The
// calls given up stay pending.
func givenUp(ctx, actx context.Context, jobs []*callJob) {
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
	for _, j := range jobs {
		if errors.Is(j.err, context.Canceled) {
			j.err = nil
		}
	}
}

// settle turns the calls' errors into the run's outcome. Order of
// precedence: cancelled, error, timeout, waiting.
func (l *Loop) settle(ctx context.Context, jobs []*callJob, out *Outcome) bool {
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
