package agentloop

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// testIdle is the idle timeout of the stall tests where the server sends
// something: long against a scheduling delay on a loaded machine (the
// fake server's chunks follow each other at once), so only a server that
// really went silent trips it.
const testIdle = time.Second

// stallLimit bounds how long a stalled call may take to end: the idle
// timeout per attempt, and slack.
const stallLimit = 10 * time.Second

// timed runs one Complete call and fails the test if it took stallLimit.
func timed(t *testing.T, p Provider, onText func(string)) (Response, error) {
	t.Helper()
	start := time.Now()
	resp, err := p.Complete(providerCtx(t), firstRequest(), onText)
	if d := time.Since(start); d > stallLimit {
		t.Errorf("the call took %v, want it to end within %v", d, stallLimit)
	}
	return resp, err
}

// A stream that goes silent after text was shown ends in a clear error,
// and the text is not repeated.
func TestStreamStallAfterText(t *testing.T) {
	for _, k := range providerKinds {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			srv := k.serve(fakeprovider.Turn{Text: "Let me think about this", Hang: true}, fakeprovider.Turn{Text: "never"})
			defer srv.Close()
			var sink textSink
			_, err := timed(t, k.make(srv, ProviderConfig{StreamIdleTimeout: testIdle}), sink.add)
			pe := wantProviderError(t, err)
			if pe.Message != "the stream stalled: no data from the server for 1s" || pe.Status != 0 {
				t.Errorf("message %q status %d", pe.Message, pe.Status)
			}
			for _, want := range []string{"check the connection and --base-url", "--stream-idle-timeout", "the reply had begun, so it was not repeated"} {
				if !strings.Contains(pe.Hint, want) {
					t.Errorf("hint %q lacks %q", pe.Hint, want)
				}
			}
			if sink.text() != "Let me t" || len(srv.Requests()) != 1 {
				t.Errorf("streamed %q in %d requests, want the first chunk once", sink.text(), len(srv.Requests()))
			}
		})
	}
}

// A stream that goes silent before any text is a network failure like
// any other: it is repeated.
func TestStreamStallBeforeTextIsRetried(t *testing.T) {
	for _, k := range providerKinds {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			srv := k.serve(fakeprovider.Turn{Hang: true}, fakeprovider.Turn{Text: "second try"})
			defer srv.Close()
			var sink textSink
			resp, err := timed(t, k.make(srv, ProviderConfig{StreamIdleTimeout: testIdle}), sink.add)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text() != "second try" || sink.text() != "second try" || len(srv.Requests()) != 2 {
				t.Errorf("reply %q streamed %q after %d requests", resp.Message.Text(), sink.text(), len(srv.Requests()))
			}
		})
	}
}

// A server that never sends its response headers is bounded by the same
// clock, retried, and then reported.
func TestResponseHeadersStall(t *testing.T) {
	for _, k := range providerKinds {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			srv := k.serve(fakeprovider.Turn{HangHeaders: true, Repeat: 2}, fakeprovider.Turn{Text: "never"})
			defer srv.Close()
			_, err := timed(t, k.make(srv, ProviderConfig{StreamIdleTimeout: testIdle, MaxRetries: 1}), nil)
			pe := wantProviderError(t, err)
			if pe.Message != "no response from the server within 1s" || !strings.Contains(pe.Hint, "retried 1 time") {
				t.Errorf("got %q (hint %q)", pe.Message, pe.Hint)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
		})
	}
}

// Cancelling still ends a call at once while the watchdog waits, before
// the headers and during the stream.
func TestCancelBeatsIdleTimeout(t *testing.T) {
	for _, k := range providerKinds {
		for _, turn := range []fakeprovider.Turn{{HangHeaders: true}, {Text: "Thinking", Hang: true}} {
			srv := k.serve(turn)
			ctx, cancel := context.WithTimeout(providerCtx(t), 200*time.Millisecond)
			start := time.Now()
			_, err := k.make(srv, ProviderConfig{StreamIdleTimeout: time.Hour}).Complete(ctx, firstRequest(), nil)
			cancel()
			srv.Close()
			if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
				t.Errorf("%s %+v: error %v after %v, want the context's deadline at once", k.name, turn, err, time.Since(start))
			}
		}
	}
}

func TestIdleTimeoutConfig(t *testing.T) {
	cases := []struct {
		set, def, want time.Duration
	}{
		{0, defaultAnthropicIdle, 90 * time.Second},
		{0, defaultOpenAIIdle, 5 * time.Minute},
		{2 * time.Second, defaultOpenAIIdle, 2 * time.Second},
		{-1, defaultAnthropicIdle, 0},
	}
	for _, c := range cases {
		if got := (ProviderConfig{StreamIdleTimeout: c.set}).idleTimeout(c.def); got != c.want {
			t.Errorf("idleTimeout(%v, default %v) = %v, want %v", c.set, c.def, got, c.want)
		}
	}
	own := &http.Client{Timeout: time.Minute}
	if c := (ProviderConfig{HTTPClient: own}).httpClient(time.Second); c == own || c.Timeout != time.Minute || own.Transport != nil {
		t.Errorf("the configured client was not copied and wrapped: %+v", c)
	}
	if c := (ProviderConfig{StreamIdleTimeout: -1}).httpClient(time.Second); c.Transport != nil {
		t.Errorf("no limit still wrapped the transport: %T", c.Transport)
	}
}

// stubTransport answers with a stubBody, or, when stallHeaders, waits for
// the request's context before the headers. It reports the context it
// was given.
type stubTransport struct {
	body         stubBody
	stallHeaders bool
	ctx          chan context.Context
}

func (s *stubTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	s.ctx <- ctx
	if s.stallHeaders {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	body := s.body
	body.ctx, body.start = ctx, time.Now()
	return &http.Response{StatusCode: 200, Body: &body, Header: http.Header{}}, nil
}

// stubBody is a server that sends a byte every gap (at once when gap is
// 0), at least n bytes and for at least lasting, then ends. Each Read
// waits for the next byte; like a real connection's body, it fails once
// the request's context is done, even when a byte is ready, so a watchdog
// that fires at the wrong time is seen.
type stubBody struct {
	gap     time.Duration
	n       int
	lasting time.Duration

	ctx   context.Context
	start time.Time
	sent  int
}

func (b *stubBody) Read(p []byte) (int, error) {
	if b.sent >= b.n && time.Since(b.start) >= b.lasting {
		return 0, io.EOF
	}
	next := time.NewTimer(b.gap)
	defer next.Stop()
	select {
	case <-b.ctx.Done():
	case <-next.C:
	}
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = 'x'
	b.sent++
	return 1, nil
}

func (b *stubBody) Close() error { return nil }

func idleRoundTrip(t *testing.T, s *stubTransport, idle time.Duration) (*http.Response, context.Context, error) {
	t.Helper()
	s.ctx = make(chan context.Context, 1)
	req, _ := http.NewRequestWithContext(providerCtx(t), http.MethodPost, "http://example.invalid/", nil)
	res, err := (&idleTransport{base: s, idle: idle}).RoundTrip(req)
	return res, <-s.ctx, err
}

// The watchdog itself: a steady trickle that lasts longer than the
// timeout passes; silence fails with a stallError; a reader that is slow
// to come back is not the server's fault; Close releases the request's
// context, so nothing is left running.
//
// Where the server sends, the timeout (steadyIdle) is long against a
// scheduling delay and the gaps short against the timeout, so only a
// watchdog that runs out when it should not fails; where the server is
// silent, a short timeout only ends the wait sooner.
func TestIdleTransport(t *testing.T) {
	const steadyIdle, silentIdle = time.Second, 50 * time.Millisecond
	trickle := stubBody{gap: 20 * time.Millisecond, n: 1, lasting: steadyIdle * 3 / 2}
	res, ctx, err := idleRoundTrip(t, &stubTransport{body: trickle}, steadyIdle)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil || len(b) == 0 {
		t.Errorf("a steady trickle for %v: read %d bytes, %v", trickle.lasting, len(b), err)
	}
	res.Body.Close()
	if ctx.Err() == nil {
		t.Error("Close left the request's context alive")
	}

	res, _, err = idleRoundTrip(t, &stubTransport{body: stubBody{gap: time.Hour, n: 1}}, silentIdle)
	if err != nil {
		t.Fatal(err)
	}
	var stall *stallError
	if _, err := io.ReadAll(res.Body); !errors.As(err, &stall) || stall.headers {
		t.Errorf("a silent body: %v, want a stall of the stream", err)
	}
	res.Body.Close()

	res, _, err = idleRoundTrip(t, &stubTransport{body: stubBody{n: 2}}, steadyIdle)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	if _, err := res.Body.Read(buf); err != nil {
		t.Fatalf("first read: %v", err)
	}
	time.Sleep(2 * steadyIdle) // the caller is busy, the server is not to blame
	if _, err := res.Body.Read(buf); err != nil {
		t.Errorf("a read after the caller was away for twice the timeout: %v", err)
	}
	res.Body.Close()

	_, _, err = idleRoundTrip(t, &stubTransport{stallHeaders: true}, silentIdle)
	if !errors.As(err, &stall) || !stall.headers {
		t.Errorf("no headers: %v, want a stall before the headers", err)
	}
}

// Calls, stalled or not, leave nothing running: the watchdog's timers are
// stopped, its contexts released and the connections closed. Not
// parallel, so the count is this test's own.
//
// Each call has a server of its own: a call cut off before the server
// read its request takes no turn, so calls sharing one script could get
// each other's turns. The servers of the stalled calls are silent, so
// their short timeout cannot run out early; the last call streams, so its
// timeout is long against a scheduling delay. The wait for the goroutines
// to end only bounds a leak: on a loaded machine they may take a while.
func TestStallsLeaveNoGoroutines(t *testing.T) {
	base := runtime.NumGoroutine()
	call := func(k providerKind, turn fakeprovider.Turn, idle time.Duration) error {
		srv := k.serve(turn)
		defer srv.Close()
		_, err := k.make(srv, ProviderConfig{StreamIdleTimeout: idle, MaxRetries: -1}).Complete(providerCtx(t), firstRequest(), func(string) {})
		return err
	}
	for _, k := range providerKinds {
		for range 5 {
			for _, turn := range []fakeprovider.Turn{{Text: "Thinking", Hang: true}, {HangHeaders: true}, {Hang: true}} {
				if err := call(k, turn, 50*time.Millisecond); err == nil {
					t.Fatalf("%s %+v: no error from a silent server", k.name, turn)
				}
			}
			if err := call(k, fakeprovider.Turn{Text: "fine"}, testIdle); err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after:\n%s", base, n, buf[:runtime.Stack(buf, true)])
	}
}
