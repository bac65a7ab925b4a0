package agentloop_test

// Provider faults as the loop reports them: retried rate limits recover;
// server errors, malformed streams and dropped connections end the run as
// errors that name the provider; a cancelled stream ends it as cancelled.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fakeprovider"
)

func TestRateLimitThenSuccess(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, 2, fakeprovider.Turn{Status: 429}, fakeprovider.Turn{Text: "Done after a pause."})
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t)}, agentloop.NewState(), userPrompt("go"))
			if out.Status != agentloop.StatusSuccess || out.Result != "Done after a pause." || out.Turns != 1 {
				t.Fatalf("status %s, result %q, %d turns (%v); want success after 1 turn", out.Status, out.Result, out.Turns, out.Err)
			}
			if len(srv.Requests()) != 2 {
				t.Errorf("%d requests, want 2 (the 429 and its retry)", len(srv.Requests()))
			}
		})
	}
}

// faultRun runs one prompt against a server playing turns and checks that
// the run ended in a *ProviderError of w's provider with status, after
// requests requests.
func faultRun(t *testing.T, w wire, retries, requests, status int, turns ...fakeprovider.Turn) *agentloop.ProviderError {
	t.Helper()
	srv, prov := w.start(t, retries, turns...)
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t)}, st, userPrompt("go"))
	if out.Status != agentloop.StatusError {
		t.Fatalf("status %s (%v), want error", out.Status, out.Err)
	}
	var pe *agentloop.ProviderError
	if !errors.As(out.Err, &pe) {
		t.Fatalf("err %T %v, want a *agentloop.ProviderError", out.Err, out.Err)
	}
	if pe.Provider != w.name || pe.Status != status || !strings.HasPrefix(out.Err.Error(), w.name+": ") {
		t.Errorf("error %q (provider %q, status %d), want one naming %s with status %d", out.Err, pe.Provider, pe.Status, w.name, status)
	}
	if len(srv.Requests()) != requests {
		t.Errorf("%d requests, want %d", len(srv.Requests()), requests)
	}
	if out.Turns != 0 || len(st.Messages) != 1 {
		t.Errorf("%d turns, %d messages after a failed call; want 0 and only the prompt", out.Turns, len(st.Messages))
	}
	return pe
}

func TestServerErrorUntilRetriesRunOut(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			// MaxRetries 2: three requests, all 500; a fourth would get the
			// success that is scripted after them.
			pe := faultRun(t, w, 2, 3, 500, fakeprovider.Turn{Status: 500, Repeat: 3}, fakeprovider.Turn{Text: "too late"})
			if !strings.Contains(pe.Hint, "retried 2 times") {
				t.Errorf("hint %q, want it to say the call was retried 2 times", pe.Hint)
			}
		})
	}
}

func TestMalformedStream(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			pe := faultRun(t, w, 2, 1, 0, fakeprovider.Turn{Malformed: true}, fakeprovider.Turn{Text: "never"})
			if !strings.Contains(pe.Message, "malformed event stream") {
				t.Errorf("message %q, want it to say the stream was malformed", pe.Message)
			}
		})
	}
}

func TestDroppedConnection(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			// Text had reached the observer, so the call is not repeated.
			pe := faultRun(t, w, 2, 1, 0, fakeprovider.Turn{Text: "Let me think about this carefully.", DropAfterText: true}, fakeprovider.Turn{Text: "never"})
			if !strings.Contains(pe.Hint, "the reply had begun, so it was not repeated") {
				t.Errorf("hint %q, want it to say why the call was not repeated", pe.Hint)
			}
		})
	}
}

func TestCancelWhileStreaming(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, 2, fakeprovider.Turn{Text: "I am thinking about it", Hang: true})
			ctx, cancel := context.WithCancel(testCtx(t))
			defer cancel()
			// Cancel once the model has begun to answer; the stream then
			// hangs until the client goes away.
			l := &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t), Observe: func(e agentloop.Event) {
				if e.Type == agentloop.EventText {
					cancel()
				}
			}}
			st := agentloop.NewState()
			out := startRun(t, ctx, l, st, userPrompt("go"))()
			if out.Status != agentloop.StatusCancelled || !errors.Is(out.Err, ask.ErrCancelled) || !errors.Is(out.Err, context.Canceled) {
				t.Fatalf("status %s, err %v; want cancelled wrapping ask.ErrCancelled and context.Canceled", out.Status, out.Err)
			}
			if len(srv.Requests()) != 1 || len(st.Messages) != 1 {
				t.Errorf("%d requests, %d messages; want 1 request and only the prompt kept", len(srv.Requests()), len(st.Messages))
			}
		})
	}
}
