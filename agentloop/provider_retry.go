package agentloop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// callState is what one Complete call learns from the HTTP layer beneath
// postJSON: these facts let the error wording depend on what actually
// happened on the wire, the same way for both providers.
type callState struct {
	// attempts counts the HTTP requests sent, retries included.
	attempts int
	// status is the status of the last response, 0 if none arrived.
	status int
	header http.Header
	// body is the body of the last response when its status was >= 400.
	body []byte
	// refused is the wait the last response asked for, when it was too
	// long to grant (see refuseLongWait).
	refused *serverWait
}

type callStateKey struct{}

// withCallState returns ctx carrying a fresh callState for observe to fill.
func withCallState(ctx context.Context) (context.Context, *callState) {
	st := &callState{}
	return context.WithValue(ctx, callStateKey{}, st), st
}

// maxErrorBody bounds how much of an error response is kept.
const maxErrorBody = 64 << 10

// observe sees every HTTP attempt postJSON makes, once each, in the
// calling goroutine. It refuses a wait over maxRetryAfter (refuseLongWait)
// and records the attempt in the request context's callState; it buffers
// error bodies, up to maxErrorBody, so their message is kept and the
// connection freed.
func observe(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	refused, isRefused := refuseLongWait(res)
	st, _ := req.Context().Value(callStateKey{}).(*callState)
	if st == nil {
		return res, err
	}
	st.attempts++
	st.status, st.header, st.body, st.refused = 0, nil, nil, nil
	if isRefused {
		st.refused = &refused
	}
	if res != nil {
		st.status, st.header = res.StatusCode, res.Header
		if res.StatusCode >= 400 && res.Body != nil {
			st.body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
			res.Body.Close()
			res.Body = io.NopCloser(bytes.NewReader(st.body))
		}
	}
	return res, err
}

// backoff is the wait before retry n (from 0) when the server named none:
// the SDKs' schedule, 0.5 s doubling up to 8 s, less up to a quarter of
// jitter so that clients that failed together do not retry together.
func backoff(n int) time.Duration {
	d := min(500*time.Millisecond<<min(n, 10), 8*time.Second)
	return d - rand.N(d/4)
}

// maxRetryAfter is the longest wait before a retry that askuser grants a
// server (retry-after-ms, retry-after). A rate-limit window is seconds to
// a minute, and the SDKs of other languages honour up to a minute; a
// longer wait is a quota that resets in hours or days, which a run at a
// terminal or in CI must not sit out silently. Over the limit the call
// ends at once with the server's error, naming the header (see
// refuseLongWait). With the default 4 retries a run waits at most 4
// minutes in all, while no stream is open, so the stall watchdog
// (--stream-idle-timeout) does not run meanwhile.
const maxRetryAfter = time.Minute

// serverWait is a wait a response asks for before a retry.
type serverWait struct {
	header, value string
	// seconds may be more than a time.Duration holds.
	seconds float64
}

// askedWait reads the wait h asks for as the SDKs read it: retry-after-ms,
// else retry-after in seconds or as an RFC 1123 date. A value neither can
// parse asks for nothing: the SDKs then back off as usual.
func askedWait(h http.Header) (serverWait, bool) {
	for _, c := range []struct {
		header string
		per    float64 // units per second
	}{{"retry-after-ms", 1000}, {"retry-after", 1}} {
		v := h.Get(c.header)
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err == nil || errors.Is(err, strconv.ErrRange) {
			if math.IsNaN(f) {
				continue
			}
			return serverWait{c.header, v, max(f/c.per, 0)}, true
		}
		if c.header == "retry-after" {
			if t, err := time.Parse(time.RFC1123, v); err == nil {
				return serverWait{c.header, v, max(time.Until(t).Seconds(), 0)}, true
			}
		}
	}
	return serverWait{}, false
}

// String says what the server asked for, for an error's hint.
func (w serverWait) String() string {
	wait := "over 290 years" // more than a time.Duration holds
	if w.seconds < float64(math.MaxInt64/time.Second) {
		wait = time.Duration(w.seconds * float64(time.Second)).Round(time.Second).String()
	}
	return fmt.Sprintf("the server asked to wait %s (%s: %s); askuser waits at most %s",
		wait, w.header, ask.Excerpt(w.value), maxRetryAfter)
}

// refuseLongWait stops postJSON's retry loop from sitting out a wait
// longer than maxRetryAfter: it marks such a response, if it would be
// retried, x-should-retry: false, which postJSON obeys, so the call ends
// with it. It returns the wait it refused. (The Anthropic SDK, which
// askuser used before, honoured any wait, without bound.)
func refuseLongWait(res *http.Response) (serverWait, bool) {
	if res == nil || !retryable(res) {
		return serverWait{}, false
	}
	w, ok := askedWait(res.Header)
	if !ok || w.seconds <= maxRetryAfter.Seconds() {
		return serverWait{}, false
	}
	res.Header.Set("x-should-retry", "false")
	return w, true
}

// retryable is the SDKs' rule for which responses to retry.
func retryable(res *http.Response) bool {
	switch res.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := res.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// runStreamCall runs one Complete call. attempt streams the reply once and
// reports whether any text reached the caller. HTTP-level retries (status
// and connection errors before the stream starts) happen beneath attempt;
// here a stream that failed part-way is repeated, but only while no text
// has been shown, since then the caller cannot tell. Cancellation returns
// ctx's own error; every other failure becomes a *ProviderError.
func runStreamCall(ctx context.Context, w wording, maxRetries int, wait func(int) time.Duration,
	attempt func(ctx context.Context) (Response, bool, error)) (Response, error) {
	ctx, st := withCallState(ctx)
	for n := 0; ; n++ {
		resp, emitted, err := attempt(ctx)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return Response{}, ctx.Err()
		}
		if emitted || n >= maxRetries || !retryableInStream(err, st) {
			return Response{}, w.providerError(err, st, emitted)
		}
		if err := sleepCtx(ctx, wait(n)); err != nil {
			return Response{}, err
		}
	}
}

// retryableInStream reports whether err broke a stream that had started
// (status 200) in a way worth repeating: an overload or server error event,
// or a connection that dropped. A malformed stream is not: the server will
// most likely send it again.
func retryableInStream(err error, st *callState) bool {
	var ev *streamEventError
	if errors.As(err, &ev) {
		return ev.retryable()
	}
	var bad *malformedError
	return st.status == http.StatusOK && !errors.As(err, &bad)
}

// streamEventError is an error event inside a stream that had started: an
// Anthropic SSE `error` event or an OpenAI `data: {"error": …}` line.
type streamEventError struct {
	Type    string
	Message string
}

func (e *streamEventError) Error() string {
	return e.Type + " in the event stream: " + e.Message
}

func (e *streamEventError) retryable() bool {
	switch e.Type {
	case "invalid_request_error", "authentication_error", "permission_error", "not_found_error", "request_too_large":
		return false
	}
	return true
}

// malformedError is an event stream the provider could not decode.
type malformedError struct{ err error }

func (e *malformedError) Error() string { return "malformed event stream: " + e.err.Error() }

func (e *malformedError) Unwrap() error { return e.err }

// errStreamEnded is a stream that closed cleanly before the reply was
// complete (no message_stop, no finish_reason).
var errStreamEnded = errors.New("the stream ended before the reply was complete")

// incomplete is the error for a stream that ended cleanly before the reply
// was complete. A 200 that was not an event stream at all (a server that
// ignored "stream": true, a proxy's page) is malformed, since repeating it
// would not help; otherwise the stream was cut short.
func incomplete(ctx context.Context) error {
	st, _ := ctx.Value(callStateKey{}).(*callState)
	if st != nil && st.status == http.StatusOK {
		if ct := st.header.Get("content-type"); !strings.HasPrefix(ct, "text/event-stream") {
			return &malformedError{fmt.Errorf("the server answered with content-type %q, not an event stream", bounded(ct))}
		}
	}
	return errStreamEnded
}

// asMalformed marks JSON that could not be decoded as a malformed stream;
// other errors pass through.
func asMalformed(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &typ) {
		return &malformedError{err}
	}
	return err
}
