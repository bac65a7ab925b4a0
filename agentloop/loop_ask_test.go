package agentloop_test

// Putting question sets to frontends: all at once on a concurrent frontend,
// one at a time otherwise; timeouts and their policies; deferral.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/fakeprovider"
)

func twoSetsTurns() []fakeprovider.Turn {
	return []fakeprovider.Turn{
		{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_1", authInput), askCall("toolu_2", dbInput)}},
		{Text: "Both answered."},
	}
}

func TestConcurrentFrontendGetsBothSetsAtOnce(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, -1, twoSetsTurns()...)
			p := startPipeProgram(t)
			wait := startRun(t, testCtx(t), &agentloop.Loop{Provider: prov, Frontend: p.fe}, agentloop.NewState(), userPrompt("go"))
			// Both question lines arrive before any answer is written: a
			// loop that asked one at a time would leave the second read
			// waiting until it fails.
			ids := []string{p.next(t).ID, p.next(t).ID}
			slices.Sort(ids)
			if !slices.Equal(ids, []string{"toolu_1", "toolu_2"}) {
				t.Fatalf("question lines for %v, want toolu_1 and toolu_2", ids)
			}
			// Answer in reverse order, each naming its set.
			p.send(t, `{"id":"toolu_2","source":"person","answers":{"Database":"SQLite"}}`)
			p.send(t, `{"id":"toolu_1","source":"person","answers":{"Auth Method":"JWT","Providers":"GitHub"}}`)
			out := wait()
			if out.Status != agentloop.StatusSuccess || out.Turns != 2 {
				t.Fatalf("outcome %s after %d turns (%v), want success after 2", out.Status, out.Turns, out.Err)
			}
			// The results still follow the tool_use order, in one message.
			wantResults(t, srv,
				fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_1", Content: authPersonResult},
				fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_2", Content: dbPersonResult},
			)
			if w.name == "anthropic" {
				wantOneResultsMessage(t, srv.Requests()[1], "toolu_1", "toolu_2")
			}
		})
	}
}

func TestSequentialFrontendIsAskedInOrder(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	fe := newStubFrontend(t).answer("toolu_2", []string{"SQLite"}).answer("toolu_1", []string{"JWT"}, []string{"GitHub"})
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	if got := fe.Asked(); !slices.Equal(got, []string{"toolu_1", "toolu_2"}) {
		t.Errorf("asked %v, want toolu_1 then toolu_2", got)
	}
	wantOneResultsMessage(t, srv.Requests()[1], "toolu_1", "toolu_2")
}

// A frontend error other than deferral or timeout stops the run at once:
// later sets are not asked and nothing is sent to the model.
func TestFrontendFailureStopsTheRun(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	fe := newStubFrontend(t).fail("toolu_1", fmt.Errorf("%w: stdin ended", ask.ErrNoAnswer))
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusError || !errors.Is(out.Err, ask.ErrNoAnswer) {
		t.Fatalf("status %s, err %v; want error wrapping ErrNoAnswer", out.Status, out.Err)
	}
	if len(srv.Requests()) != 1 || len(out.Pending) != 2 {
		t.Errorf("%d model calls and pending %+v; want 1 call and both sets pending", len(srv.Requests()), out.Pending)
	}
}

const askTimeout = 20 * time.Millisecond

// timeoutRun runs the one-question session with a frontend nobody
// answers, under policy.
func timeoutRun(t *testing.T, policy ask.Policy) (*fakeprovider.Server, *agentloop.State, agentloop.Outcome) {
	srv, prov := anthropicWire.start(t, -1,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_db", dbInput)}},
		fakeprovider.Turn{Text: "Going with the default."},
	)
	fe := &blockFrontend{}
	st := agentloop.NewState()
	l := &agentloop.Loop{Provider: prov, Frontend: fe, AskTimeout: askTimeout, OnTimeout: policy,
		TimeoutFallback: frontend.Auto{Reason: fmt.Sprintf("no person answered within %s", askTimeout)}}
	out := run(t, l, st, userPrompt("go"))
	if fe.Calls() != 1 {
		t.Errorf("the frontend was asked %d times, want 1", fe.Calls())
	}
	return srv, st, out
}

func TestTimeoutAuto(t *testing.T) {
	t.Parallel()
	srv, _, out := timeoutRun(t, ask.PolicyAuto)
	want := "No person answered the following questions; they were answered as marked:\n\n" +
		"1. Database (Which database should we use?)\n   Selected: PostgreSQL\n" +
		"   Answered by: the recommended-option policy, not a person; no person answered within 20ms\n\n" + machineTail
	wantResults(t, srv, fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_db", Content: want})
	if out.Status != agentloop.StatusSuccess || out.Turns != 2 {
		t.Errorf("outcome %s after %d turns (%v), want success after 2", out.Status, out.Turns, out.Err)
	}
}

func TestTimeoutSuspend(t *testing.T) {
	t.Parallel()
	srv, st, out := timeoutRun(t, ask.PolicySuspend)
	if out.Status != agentloop.StatusWaiting || out.Err != nil {
		t.Fatalf("status %s (%v), want waiting", out.Status, out.Err)
	}
	if want := "no person answered within 20ms (--on-timeout suspend)"; out.Reason != want {
		t.Errorf("reason %q, want %q", out.Reason, want)
	}
	wantPending(t, out, st, "toolu_db")
	if len(srv.Requests()) != 1 || len(srv.ToolResults()) != 0 {
		t.Errorf("%d model calls, results sent %+v; want 1 call and nothing sent", len(srv.Requests()), srv.ToolResults())
	}
}

func TestTimeoutError(t *testing.T) {
	t.Parallel()
	srv, st, out := timeoutRun(t, ask.PolicyError)
	if out.Status != agentloop.StatusTimeout || !errors.Is(out.Err, ask.ErrTimeout) {
		t.Fatalf("status %s, err %v; want timeout wrapping ErrTimeout", out.Status, out.Err)
	}
	if want := "no answer within the time allowed: no person answered within 20ms (--on-timeout error)"; out.Reason != want {
		t.Errorf("reason %q, want %q", out.Reason, want)
	}
	wantPending(t, out, st, "toolu_db")
	if len(srv.Requests()) != 1 {
		t.Errorf("%d model calls, want 1", len(srv.Requests()))
	}
}

// wantPending checks that exactly the sets ids wait, with their questions,
// and have no result.
func wantPending(t *testing.T, out agentloop.Outcome, st *agentloop.State, ids ...string) {
	t.Helper()
	var got []string
	for _, r := range out.Pending {
		got = append(got, r.ID)
		if len(r.Questions) == 0 {
			t.Errorf("pending set %s has no questions", r.ID)
		}
	}
	if !slices.Equal(got, ids) {
		t.Errorf("pending %v, want %v", got, ids)
	}
	for _, id := range ids {
		if _, done := st.Results[id]; done {
			t.Errorf("pending set %s has a result", id)
		}
		if st.AskedAt[id].IsZero() {
			t.Errorf("pending set %s has no asked time", id)
		}
	}
}

func TestDeferral(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_db", dbInput)}})
	fe := newStubFrontend(t).fail("toolu_db", fmt.Errorf("%w: the answers file has no entry for Database", ask.ErrDeferred))
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, st, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || out.Err != nil {
		t.Fatalf("status %s (%v), want waiting", out.Status, out.Err)
	}
	if want := "the answers file has no entry for Database"; out.Reason != want {
		t.Errorf("reason %q, want %q", out.Reason, want)
	}
	wantPending(t, out, st, "toolu_db")
	if len(srv.Requests()) != 1 {
		t.Errorf("%d model calls, want 1", len(srv.Requests()))
	}
}

func TestDeferOneAnswerOther(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	fe := newStubFrontend(t).
		fail("toolu_1", fmt.Errorf("%w: later", ask.ErrDeferred)).
		answer("toolu_2", []string{"SQLite"})
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, st, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || out.Reason != "later" {
		t.Fatalf("status %s, reason %q (%v); want waiting, \"later\"", out.Status, out.Reason, out.Err)
	}
	wantPending(t, out, st, "toolu_1")
	if r, ok := st.Results["toolu_2"]; !ok || r.Content != dbPersonResult || r.IsError {
		t.Errorf("toolu_2's result is %+v, want the recorded answer", r)
	}
	if len(srv.Requests()) != 1 || len(srv.ToolResults()) != 0 {
		t.Errorf("%d model calls, results sent %+v; want 1 call and nothing sent", len(srv.Requests()), srv.ToolResults())
	}
}

// failingConcurrent is a concurrent frontend on which set toolu_1 fails,
// once toolu_2 is open, while toolu_2 waits for an answer that never comes.
type failingConcurrent struct {
	open2 chan struct{}
	err   error
}

func (f *failingConcurrent) Concurrent() bool { return true }

func (f *failingConcurrent) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if req.ID == "toolu_2" {
		close(f.open2)
		<-ctx.Done()
		return nil, ask.CtxErr(ctx)
	}
	select {
	case <-f.open2:
	case <-ctx.Done():
		return nil, ask.CtxErr(ctx)
	}
	return nil, f.err
}

var errBroken = errors.New("the answer channel broke")

// When one of several open sets fails, the others are given up: the run
// ends as that set's failure says (an error, or the person's cancelling),
// not as a cancellation of the sets given up.
func TestConcurrentFailureStopsTheOthers(t *testing.T) {
	cases := []struct {
		err    error
		status agentloop.Status
	}{
		{errBroken, agentloop.StatusError},
		{fmt.Errorf("%w: Ctrl+C at the prompt", ask.ErrCancelled), agentloop.StatusCancelled},
	}
	for _, c := range cases {
		t.Run(string(c.status), func(t *testing.T) {
			srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
			fe := &failingConcurrent{open2: make(chan struct{}), err: c.err}
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
			if out.Status != c.status || out.Err != c.err {
				t.Fatalf("status %s, err %v; want %s, %v", out.Status, out.Err, c.status, c.err)
			}
			if len(srv.Requests()) != 1 || len(out.Pending) != 2 {
				t.Errorf("%d model calls, pending %+v; want 1 and both sets", len(srv.Requests()), out.Pending)
			}
		})
	}
}

// Input ending with two sets open on the JSON-lines frontend is "no
// answer", not a cancellation.
func TestStdinEndsWithTwoSetsOpen(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	p := startPipeProgram(t)
	wait := startRun(t, testCtx(t), &agentloop.Loop{Provider: prov, Frontend: p.fe}, agentloop.NewState(), userPrompt("go"))
	p.next(t)
	p.next(t)
	p.in.Close()
	out := wait()
	if out.Status != agentloop.StatusError || !errors.Is(out.Err, ask.ErrNoAnswer) {
		t.Fatalf("status %s, err %v; want error wrapping ErrNoAnswer", out.Status, out.Err)
	}
	if len(srv.Requests()) != 1 || len(out.Pending) != 2 {
		t.Errorf("%d model calls, pending %+v; want 1 and both sets", len(srv.Requests()), out.Pending)
	}
}

// The observer is called one event at a time, even while question sets are
// open concurrently, so an output printer needs no lock of its own. Under
// -race, an observer that keeps state without a lock proves it.
func TestObserverCalledOneAtATime(t *testing.T) {
	_, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	p := startPipeProgram(t)
	var seen []string // no lock, on purpose
	observe := func(e agentloop.Event) {
		switch e.Type {
		case agentloop.EventQuestion:
			seen = append(seen, "question "+e.Request.ID)
		case agentloop.EventAnswers:
			seen = append(seen, "answers "+e.Request.ID)
		}
	}
	wait := startRun(t, testCtx(t), &agentloop.Loop{Provider: prov, Frontend: p.fe, Observe: observe}, agentloop.NewState(), userPrompt("go"))
	p.next(t)
	p.next(t)
	p.send(t, `{"id":"toolu_2","answers":{"Database":"SQLite"}}`)
	p.send(t, `{"id":"toolu_1","answers":{"Auth Method":"JWT","Providers":"GitHub"}}`)
	if out := wait(); out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	slices.Sort(seen)
	if want := []string{"answers toolu_1", "answers toolu_2", "question toolu_1", "question toolu_2"}; !slices.Equal(seen, want) {
		t.Errorf("events %v, want %v", seen, want)
	}
}
