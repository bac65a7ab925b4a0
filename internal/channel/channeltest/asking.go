package channeltest

import (
	"context"
	"time"

	"github.com/askuser/askuser/ask"
)

// TB is the part of testing.TB an Asking fails a test with; taking it
// keeps the testing package out of the e2e binary, which links this one.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Asking is a question set asked in the background, as a run waiting on
// a channel asks it: the test answers on the fake platform meanwhile,
// then waits for Ask to return. Every wait is bounded, so a set nobody
// answers fails the test instead of hanging it.
type Asking struct {
	limit   time.Duration
	answers []ask.Answer
	err     error
	done    chan struct{}
}

// Ask runs fe.Ask(ctx, req) in the background; the Asking's waits give up
// after limit.
func Ask(ctx context.Context, fe ask.Frontend, req ask.Request, limit time.Duration) *Asking {
	a := &Asking{limit: limit, done: make(chan struct{})}
	go func() { a.answers, a.err = fe.Ask(ctx, req); close(a.done) }()
	return a
}

// Wait returns what Ask returned; it fails t when Ask did not return in
// time.
func (a *Asking) Wait(t TB) ([]ask.Answer, error) {
	t.Helper()
	select {
	case <-a.done:
		return a.answers, a.err
	case <-time.After(a.limit):
		t.Fatalf("Ask did not return within %v", a.limit)
		return nil, nil
	}
}

// Answers returns the answers Ask returned; it fails t when Ask failed or
// did not return in time.
func (a *Asking) Answers(t TB) []ask.Answer {
	t.Helper()
	answers, err := a.Wait(t)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	return answers
}

// Answered reports whether Ask has returned.
func (a *Asking) Answered() bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

// Pending fails t when Ask has returned: the set should still wait.
func (a *Asking) Pending(t TB) {
	t.Helper()
	if a.Answered() {
		t.Fatalf("the set was answered: %+v, %v", a.answers, a.err)
	}
}
