package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot"

	"github.com/askuser/askuser/internal/channel"
)

// apiError is a failed Bot API call, its text redacted.
type apiError struct {
	method string
	// code is the Bot API's error_code (the HTTP status); 0 when no
	// answer came.
	code int
	text string
	// retry is how long Telegram asked to wait (a 429), from until.
	retry time.Duration
	until time.Time
	// refused says a retry will not help (a bad token, a chat the bot
	// cannot write to, a request Telegram will never take).
	refused bool
}

func (e *apiError) Error() string { return e.method + ": " + e.text }

// RetryAt implements channel.RetryLater: when a 429's retry_after is up
// (zero for other errors), so the relay calls again then.
func (e *apiError) RetryAt() time.Time { return e.until }

var _ channel.RetryLater = (*apiError)(nil)

// Unwrap makes a refusal channel.ErrRefused, so the relay waits long
// before trying again.
func (e *apiError) Unwrap() error {
	if e.refused {
		return channel.ErrRefused
	}
	return nil
}

// is reports whether err is a Bot API error whose description holds s
// ("message is not modified", "message to edit not found").
func is(err error, s string) bool {
	var ae *apiError
	return errors.As(err, &ae) && strings.Contains(ae.text, s)
}

// gate keeps Telegram's rate limits: after a 429, the method is not
// called again before its retry_after is up.
type gate struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// hold closes method's gate for d, and returns when it opens.
func (g *gate) hold(method string, d time.Duration) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t := time.Now().Add(d); t.After(g.until[method]) {
		g.until[method] = t
	}
	return g.until[method]
}

// left is how long method must still wait.
func (g *gate) left(method string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return time.Until(g.until[method])
}

// wait waits out method's rate limit when it ends within most; a longer
// one is an error at once.
func (g *gate) wait(ctx context.Context, method string, most time.Duration) error {
	left := g.left(method)
	if left <= 0 {
		return nil
	}
	if left > most {
		return &apiError{method: method, code: http.StatusTooManyRequests, retry: left, until: time.Now().Add(left),
			text: fmt.Sprintf("rate limited by Telegram for another %s", left.Round(time.Second))}
	}
	return channel.Sleep(ctx, left)
}

// do makes one call of method through the library: after its rate limit,
// bounded by Timings.Call, its error classified and redacted.
func (c *Channel) do(ctx context.Context, method string, call func(context.Context) error) error {
	if err := c.gate.wait(ctx, method, c.t.InlineWait); err != nil {
		return c.classify(method, err)
	}
	cctx, cancel := context.WithTimeout(ctx, c.t.Call)
	defer cancel()
	return c.classify(method, call(cctx))
}

// libraryErrors are the library's sentinels, each wrapped as "<sentinel>,
// <Telegram's description>", with the status they stand for.
var libraryErrors = []struct {
	err  error
	code int
}{
	{bot.ErrorBadRequest, http.StatusBadRequest},
	{bot.ErrorUnauthorized, http.StatusUnauthorized},
	{bot.ErrorForbidden, http.StatusForbidden},
	{bot.ErrorNotFound, http.StatusNotFound},
	{bot.ErrorConflict, http.StatusConflict},
}

// classify turns a library (or transport) error into an apiError.
func (c *Channel) classify(method string, err error) error {
	if err == nil {
		return nil
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	// A proxy's error page can be long: the first few lines say enough.
	text := strings.TrimPrefix(err.Error(), "error do request for method "+method+", ")
	e := &apiError{method: method, text: channel.Cut(c.redact(text), 300)}
	var tm *bot.TooManyRequestsError
	switch {
	case errors.As(err, &tm):
		e.code, e.retry = http.StatusTooManyRequests, time.Duration(max(tm.RetryAfter, 1))*time.Second
		e.until = c.gate.hold(method, e.retry)
	case errors.Is(err, context.DeadlineExceeded):
		e.text = fmt.Sprintf("no answer within %s", c.t.Call)
	}
	for _, le := range libraryErrors {
		if errors.Is(err, le.err) {
			e.code = le.code
			e.text = strings.TrimPrefix(e.text, le.err.Error()+", ")
		}
	}
	e.refused = e.code == http.StatusBadRequest || e.code == http.StatusUnauthorized ||
		e.code == http.StatusForbidden || e.code == http.StatusNotFound
	return e.worded()
}

// worded words the errors a person fixes in askuser's settings (a token
// refused, a wrong API URL) as what to do.
func (e *apiError) worded() *apiError {
	switch e.code {
	case http.StatusUnauthorized:
		e.text = "Telegram refused TELEGRAM_BOT_TOKEN (" + e.text + "): copy the token again from @BotFather"
	case http.StatusNotFound:
		e.text = "the Bot API answered Not Found: check ASKUSER_TELEGRAM_API_URL and TELEGRAM_BOT_TOKEN"
	}
	return e
}

// redact makes text from the platform (or a proxy) fit to show: no
// secret, on one line.
func (c *Channel) redact(s string) string {
	return strings.Join(strings.Fields(channel.Redact(s, c.cfg.Secrets()...)), " ")
}
