package agentloop

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Default stream idle timeouts. A healthy Anthropic stream is never silent
// for long: it streams thinking, or ping events while the model thinks, so
// 90 s of silence means the connection is dead. OpenAI's Chat Completions
// sends nothing at all while a reasoning model thinks, and a local server
// sends nothing while it reads a long prompt; both can take minutes, so
// its default is 5 minutes.
const (
	defaultAnthropicIdle = 90 * time.Second
	defaultOpenAIIdle    = 5 * time.Minute
)

// idleTimeout is the configured stream idle timeout, else def; 0 means
// none.
func (c ProviderConfig) idleTimeout(def time.Duration) time.Duration {
	switch {
	case c.StreamIdleTimeout < 0:
		return 0
	case c.StreamIdleTimeout == 0:
		return def
	}
	return c.StreamIdleTimeout
}

// httpClient is the client a provider sends through: the configured one
// (or a default) with its transport wrapped in the idle watchdog. Working
// at the HTTP layer, beneath postJSON, the watchdog sees every byte, pings
// and SSE comments included, and needs nothing from the providers.
func (c ProviderConfig) httpClient(def time.Duration) *http.Client {
	client := &http.Client{}
	if c.HTTPClient != nil {
		copied := *c.HTTPClient
		client = &copied
	}
	idle := c.idleTimeout(def)
	if idle == 0 {
		return client
	}
	base := client.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	client.Transport = &idleTransport{base: base, idle: idle}
	return client
}

// stallError is a server that sent nothing for the idle timeout: no
// response headers, or no byte of a response body. It is a network
// failure: the call is repeated while no text has been shown.
type stallError struct {
	idle time.Duration
	// headers is set when not even the response headers arrived.
	headers bool
}

func (e *stallError) Error() string {
	if e.headers {
		return fmt.Sprintf("no response from the server within %s", e.idle)
	}
	return fmt.Sprintf("the stream stalled: no data from the server for %s", e.idle)
}

// idleTransport ends a request whose server stays silent for idle: before
// the response headers arrive, or between two reads of the body. The
// clock runs only while the client waits on the server (a reader that is
// slow to come back, say a paused terminal, is not the server's fault). It
// ends the request by cancelling a context of its own, so the connection
// is closed the way net/http closes any cancelled request, and the
// caller's context still cancels at once.
type idleTransport struct {
	base http.RoundTripper
	idle time.Duration
}

func (t *idleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	w := &watchdog{cancel: cancel}
	w.timer = time.AfterFunc(t.idle, w.fire)
	res, err := t.base.RoundTrip(req.WithContext(ctx))
	w.timer.Stop()
	if err != nil {
		cancel()
		if w.fired.Load() {
			return nil, &stallError{idle: t.idle, headers: true}
		}
		return nil, err
	}
	res.Body = &idleBody{rc: res.Body, w: w, idle: t.idle}
	return res, nil
}

// watchdog cancels a request when its timer fires.
type watchdog struct {
	timer  *time.Timer
	cancel context.CancelFunc
	fired  atomic.Bool
}

func (w *watchdog) fire() {
	w.fired.Store(true)
	w.cancel()
}

// idleBody is a response body whose reads are watched. Close stops the
// timer and releases the context, so nothing outlives the response.
type idleBody struct {
	rc   io.ReadCloser
	w    *watchdog
	idle time.Duration
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.w.timer.Reset(b.idle)
	n, err := b.rc.Read(p)
	b.w.timer.Stop()
	if err != nil && err != io.EOF && b.w.fired.Load() {
		return n, &stallError{idle: b.idle}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.w.timer.Stop()
	err := b.rc.Close()
	b.w.cancel()
	return err
}
