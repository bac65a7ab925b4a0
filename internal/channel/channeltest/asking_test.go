package channeltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/channeltest"
)

// failures is a channeltest.TB that records what would fail a test, so
// the Asking's own failures can be checked.
type failures struct{ said []string }

func (f *failures) Helper() {}

func (f *failures) Fatalf(format string, args ...any) {
	f.said = append(f.said, fmt.Sprintf(format, args...))
}

// answering is a frontend that answers when told to, or fails with err.
type answering struct {
	release chan struct{}
	err     error
}

func (a answering) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	select {
	case <-a.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if a.err != nil {
		return nil, a.err
	}
	return []ask.Answer{{Question: req.Questions[0].Question, Selected: []string{"SQLite"}}}, nil
}

var req = ask.Request{Questions: []ask.Question{channeltest.DBQuestion}}

func TestAskingWaitsForTheAnswer(t *testing.T) {
	fe := answering{release: make(chan struct{})}
	a := channeltest.Ask(context.Background(), fe, req, 10*time.Second)
	var f failures
	a.Pending(&f)
	if a.Answered() || len(f.said) > 0 {
		t.Fatalf("answered before the frontend answered: %v", f.said)
	}
	close(fe.release)
	got := a.Answers(&f)
	if len(f.said) > 0 || len(got) != 1 || got[0].Selected[0] != "SQLite" {
		t.Fatalf("answers %+v, failures %q", got, f.said)
	}
	if a.Pending(&f); !a.Answered() || len(f.said) != 1 || !strings.Contains(f.said[0], "SQLite") {
		t.Errorf("Pending after the answer said %q; want it to fail naming the answer", f.said)
	}
}

func TestAskingFailsWhenAskDoesNotReturn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := channeltest.Ask(ctx, answering{release: make(chan struct{})}, req, time.Millisecond)
	var f failures
	if got, err := a.Wait(&f); got != nil || err != nil || len(f.said) != 1 || !strings.Contains(f.said[0], "did not return") {
		t.Errorf("Wait on a silent frontend gave %v, %v and said %q; want one failure saying Ask did not return", got, err, f.said)
	}
}

func TestAskingAnswersFailsOnAnError(t *testing.T) {
	fe := answering{release: make(chan struct{}), err: errors.New("frontend broke")}
	close(fe.release)
	a := channeltest.Ask(context.Background(), fe, req, 10*time.Second)
	var f failures
	if _, err := a.Wait(&f); err == nil || len(f.said) > 0 {
		t.Fatalf("Wait gave %v and said %q; want the frontend's error and no failure", err, f.said)
	}
	if a.Answers(&f); len(f.said) != 1 || !strings.Contains(f.said[0], "frontend broke") {
		t.Errorf("Answers on a failed Ask said %q; want one failure naming the error", f.said)
	}
}
