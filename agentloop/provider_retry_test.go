package agentloop

import (
	"context"
	"errors"
	"net/http"
	"strings"
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

// A server that asks for a longer wait than maxRetryAfter before a retry
// (a quota that resets tomorrow) is not waited for: the call ends at once
// with the server's error, naming the header and its value. On a retry
// loop that honoured it, the call would outlast the test.
func TestLongRetryAfterIsNotWaited(t *testing.T) {
	tomorrow := time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)
	cases := []struct {
		turn  fakeprovider.Turn
		quote string
	}{
		{fakeprovider.Turn{Status: 429, RetryAfter: "86400"}, `retry-after: "86400"`},
		{fakeprovider.Turn{Status: 429, RetryAfter: "61"}, `retry-after: "61"`},
		{fakeprovider.Turn{Status: 503, RetryAfterMs: "86400000"}, `retry-after-ms: "86400000"`},
		{fakeprovider.Turn{Status: 529, RetryAfter: tomorrow}, `retry-after: "` + tomorrow + `"`},
		{fakeprovider.Turn{Status: 500, RetryAfter: "1e12"}, `retry-after: "1e12"`},
		{fakeprovider.Turn{Status: 429, RetryAfter: strings.Repeat("9", 100_000)}, `retry-after: "` + strings.Repeat("9", 60) + `"… (100000 characters)`},
	}
	for _, k := range providerKinds {
		for _, c := range cases {
			c.turn.ErrorMessage = "quota exhausted"
			srv := k.serve(c.turn, fakeprovider.Turn{Text: "too late"})
			_, err := completeBounded(t, context.Background(), k.make(srv, ProviderConfig{}))
			srv.Close()
			pe := wantProviderError(t, err)
			if pe.Status != c.turn.Status || pe.Message != "quota exhausted" || len(srv.Requests()) != 1 {
				t.Errorf("%s %s: %d requests, error %v; want 1 request and HTTP %d", k.name, c.quote, len(srv.Requests()), pe, c.turn.Status)
			}
			if !strings.Contains(pe.Hint, "not retried: the server asked to wait ") || !strings.Contains(pe.Hint, "("+c.quote+"); askuser waits at most 1m0s") {
				t.Errorf("%s %s: hint %q, want it to name the header, its value and the limit", k.name, c.quote, pe.Hint)
			}
		}
	}
}

// Up to the limit the wait is honoured, as the SDKs honour it; a retry
// after retries says both.
func TestRetryAfterWithinLimitIsHonoured(t *testing.T) {
	for _, k := range providerKinds {
		srv := k.serve(fakeprovider.Turn{Status: 429, RetryAfterMs: "20"}, fakeprovider.Turn{Status: 503, RetryAfter: "3600"}, fakeprovider.Turn{Text: "too late"})
		_, err := completeBounded(t, context.Background(), k.make(srv, ProviderConfig{}))
		srv.Close()
		pe := wantProviderError(t, err)
		want := `retried 1 time, then the server asked to wait 1h0m0s (retry-after: "3600"); askuser waits at most 1m0s`
		if pe.Status != 503 || len(srv.Requests()) != 2 || !strings.Contains(pe.Hint, want) {
			t.Errorf("%s: %d requests, error %v; want 2 requests and a hint saying %q", k.name, len(srv.Requests()), pe, want)
		}
	}
}
