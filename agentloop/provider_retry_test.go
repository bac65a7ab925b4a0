package agentloop

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// The retries beneath both SDKs, as the wire sees them.

// completeBounded runs p.Complete(ctx) and fails the test if it has not
// ended within testTimeout, whatever ctx says: a retry loop that ignores
// its context fails here instead of hanging the test run.
func completeBounded(t *testing.T, ctx context.Context, p Provider) (Response, error) {
	t.Helper()
	type result struct {
		resp Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := p.Complete(ctx, firstRequest(), nil)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-time.After(testTimeout):
		t.Fatalf("%s: the call did not end within %s", p.Name(), testTimeout)
		return Response{}, nil
	}
}

// A server that says x-should-retry: false is asked once, whatever its
// status (the fake answers so once its script is spent).
func TestShouldRetryFalseIsObeyed(t *testing.T) {
	for _, k := range providerKinds {
		srv := k.serve()
		_, err := k.make(srv, ProviderConfig{MaxRetries: 3}).Complete(providerCtx(t), firstRequest(), nil)
		srv.Close()
		pe := wantProviderError(t, err)
		if pe.Status != 500 || len(srv.Requests()) != 1 {
			t.Errorf("%s: status %d after %d requests, want 500 after 1", k.name, pe.Status, len(srv.Requests()))
		}
	}
}

// Cancelling while the SDK waits out a retry-after ends the call at once
// with the context's error; the wait asked for (50 s) is longer than the
// test may run.
func TestCancelDuringRetryWait(t *testing.T) {
	for _, k := range providerKinds {
		srv := k.serve(fakeprovider.Turn{Status: 503, RetryAfter: "50"}, fakeprovider.Turn{Text: "too late"})
		ctx, cancel := context.WithCancel(context.Background())
		client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			res, err := http.DefaultTransport.RoundTrip(r)
			time.AfterFunc(50*time.Millisecond, cancel) // once the SDK waits
			return res, err
		})}
		_, err := completeBounded(t, ctx, k.make(srv, ProviderConfig{HTTPClient: client}))
		cancel()
		srv.Close()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error = %v, want context.Canceled", k.name, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", k.name, n)
		}
	}
}
