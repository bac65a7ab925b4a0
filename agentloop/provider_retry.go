package agentloop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// callState is what one Complete call learns from the HTTP layer beneath
// the SDK. The SDKs report failures in shapes of their own (and the OpenAI
// SDK loses the status of a response whose body is not JSON); these facts
// let the error wording depend on what actually happened on the wire.
type callState struct {
	// attempts counts the HTTP requests sent, retries included.
	attempts int
	// status is the status of the last response, 0 if none arrived.
	status int
	header http.Header
	// body is the body of the last response when its status was >= 400.
	body []byte
}

type callStateKey struct{}

// withCallState returns ctx carrying a fresh callState for observe to fill.
func withCallState(ctx context.Context) (context.Context, *callState) {
	st := &callState{}
	return context.WithValue(ctx, callStateKey{}, st), st
}

// maxErrorBody bounds how much of an error response is kept.
const maxErrorBody = 64 << 10

// observe is SDK middleware (both SDKs' middleware has this signature). It
// runs once per HTTP attempt, in the calling goroutine, recording the
// attempt in the request context's callState; it buffers error bodies so
// their message survives whatever the SDK does with them, which also frees
// the connection of a response the SDK retries without closing.
func observe(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	st, _ := req.Context().Value(callStateKey{}).(*callState)
	if st == nil {
		return res, err
	}
	st.attempts++
	st.status, st.header, st.body = 0, nil, nil
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

// retryAfter reads the wait a response asks for (retry-after-ms, then
// retry-after in seconds or as a date). Like the SDKs it ignores waits
// over a minute, which are more likely a quota reset than a hiccup.
func retryAfter(h http.Header) (time.Duration, bool) {
	var d time.Duration
	if v, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil {
		d = time.Duration(v * float64(time.Millisecond))
	} else if v, err := strconv.ParseFloat(h.Get("retry-after"), 64); err == nil {
		d = time.Duration(v * float64(time.Second))
	} else if t, err := http.ParseTime(h.Get("retry-after")); err == nil {
		d = time.Until(t)
	} else {
		return 0, false
	}
	return d, d >= 0 && d < time.Minute
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
