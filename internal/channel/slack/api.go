package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/internal/channel"
)

// api is the Web API as this channel calls it: one slack-go client holding
// both tokens (the bot token for methods, the app-level token for
// apps.connections.open), a gate per method that a 429 closes for as long
// as Slack said, and errors that say what to do and never hold a secret.
type api struct {
	client  *slack.Client
	host    string
	secrets []string
	now     func() time.Time

	mu    sync.Mutex
	gates map[string]time.Time
}

func newAPI(cfg channel.Config, opt Options) *api {
	quiet := log.New(io.Discard, "", 0)
	client := slack.New(cfg.Secret(envBot), slack.OptionAPIURL(cfg.API), slack.OptionHTTPClient(httpClient(opt)),
		slack.OptionAppLevelToken(cfg.Secret(envApp)), slack.OptionLog(quiet))
	host := cfg.API
	if u, err := url.Parse(cfg.API); err == nil {
		host = u.Host
	}
	return &api{client: client, host: host, secrets: cfg.Secrets(), now: opt.Now, gates: map[string]time.Time{}}
}

// Web API methods, as gates and errors name them.
const (
	mPost      = "chat.postMessage"
	mUpdate    = "chat.update"
	mEphemeral = "chat.postEphemeral"
	mAuthTest  = "auth.test"
	mOpen      = "apps.connections.open"
)

// do calls method through fn, unless Slack asked for a wait before it is
// called again: then it returns a *RateLimited at once, without calling.
func (a *api) do(ctx context.Context, method string, fn func(context.Context) error) error {
	if until := a.gate(method); !until.IsZero() {
		return &RateLimited{Method: method, Until: until}
	}
	err := fn(ctx)
	if err == nil {
		return nil
	}
	return a.fail(method, err)
}

// doWaiting is do, waiting for a closed gate to open (while ctx lasts):
// for what a person is waiting to read, such as a refusal.
func (a *api) doWaiting(ctx context.Context, method string, fn func(context.Context) error) error {
	for {
		err := a.do(ctx, method, fn)
		var rl *RateLimited
		if !errors.As(err, &rl) {
			return err
		}
		if channel.Sleep(ctx, rl.Until.Sub(a.now())) != nil {
			return err
		}
	}
}

// gate is when method may be called again; zero when it may now.
func (a *api) gate(method string) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	until, ok := a.gates[method]
	if ok && !a.now().Before(until) {
		delete(a.gates, method)
		return time.Time{}
	}
	return until
}

// fail turns slack-go's error into this channel's: a 429 closes the
// method's gate, and the text is redacted.
func (a *api) fail(method string, err error) error {
	var rl *slack.RateLimitedError
	var sc slack.StatusCodeError
	switch {
	case errors.As(err, &rl):
		return a.hold(method, rl.RetryAfter)
	case errors.As(err, &sc) && sc.Code == http.StatusTooManyRequests:
		return a.hold(method, 0) // no Retry-After: Slack always sends one; a proxy may not
	}
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return &APIError{Method: method, Code: channel.Redact(se.Err, a.secrets...), Needed: channel.Redact(se.Needed, a.secrets...)}
	}
	return &APIError{Method: method, Down: true, Detail: channel.Redact(err.Error(), a.secrets...), Host: a.host}
}

// hold closes method's gate for wait (a second at least).
func (a *api) hold(method string, wait time.Duration) *RateLimited {
	until := a.now().Add(max(wait, time.Second))
	a.mu.Lock()
	defer a.mu.Unlock()
	if until.After(a.gates[method]) {
		a.gates[method] = until
	}
	return &RateLimited{Method: method, Until: a.gates[method]}
}

// RateLimited is a call Slack asked to make later.
type RateLimited struct {
	Method string
	Until  time.Time
}

func (e *RateLimited) Error() string {
	return fmt.Sprintf("%s: rate limited; Slack asked askuser not to call it again before %s", e.Method, e.Until.Local().Format("15:04:05"))
}

// RetryAt implements channel.RetryLater: the relay tries again then.
func (e *RateLimited) RetryAt() time.Time { return e.Until }

var _ channel.RetryLater = (*RateLimited)(nil)

// APIError is a call Slack refused (Code, with the scope it Needed for
// missing_scope), or one that did not reach Slack (Down).
type APIError struct {
	Method string
	Code   string
	Needed string
	Down   bool
	Detail string
	Host   string
}

func (e *APIError) Error() string {
	if e.Down {
		return fmt.Sprintf("%s: could not reach %s: %s", e.Method, e.Host, e.Detail)
	}
	if e.Needed != "" {
		return fmt.Sprintf("%s: %s (needs the %s scope)", e.Method, e.Code, e.Needed)
	}
	return fmt.Sprintf("%s: %s", e.Method, e.Code)
}

// Unwrap makes a refusal that a retry will not fix channel.ErrRefused.
func (e *APIError) Unwrap() error {
	if !e.Down && permanent[e.Code] {
		return channel.ErrRefused
	}
	return nil
}

// permanent are the error codes that stay until a person changes
// something: a token, a scope, an invitation, the destination.
var permanent = map[string]bool{
	"invalid_auth": true, "not_authed": true, "account_inactive": true, "token_revoked": true, "token_expired": true,
	"missing_scope": true, "not_allowed_token_type": true, "no_permission": true, "team_access_not_granted": true,
	"channel_not_found": true, "not_in_channel": true, "is_archived": true, "restricted_action": true,
	"user_not_found": true, "cannot_dm_bot": true, "messages_tab_disabled": true,
	"invalid_blocks": true, "invalid_blocks_format": true, "invalid_arguments": true, "msg_too_long": true,
}

// code is the Slack error code of err, "" when it has none.
func code(err error) string {
	var ae *APIError
	if errors.As(err, &ae) && !ae.Down {
		return ae.Code
	}
	return ""
}

// explain says in one line what a refusal means and what to do, naming
// the variable to change; other errors are returned as they are.
func explain(err error, dest string) error {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Down {
		return err
	}
	var why string
	switch ae.Code {
	case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired":
		env := envBot
		if ae.Method == mOpen {
			env = envApp
		}
		why = env + " was refused: " + ae.Code
	case "not_allowed_token_type":
		why = envApp + " is not an app-level token (xapp-…): make one under Basic Information → App-Level Tokens, with connections:write"
	case "missing_scope":
		why = "the token lacks the " + ae.Needed + " scope: add it under OAuth & Permissions (connections:write: App-Level Tokens), then reinstall the app"
	case "channel_not_found":
		why = "Slack knows no channel " + dest + " that the bot can see (ASKUSER_SLACK_CHANNEL): check the id, and invite the bot to a private channel"
	case "not_in_channel":
		why = "the bot is not in channel " + dest + ": invite it (/invite @your-app), or give it the chat:write.public scope"
	case "is_archived":
		why = "channel " + dest + " is archived (ASKUSER_SLACK_CHANNEL): unarchive it or name another"
	case "user_not_found", "cannot_dm_bot", "messages_tab_disabled":
		why = "the bot cannot write to " + dest + " (" + ae.Code + "): for a DM, name a person's user id and turn on the app's Messages tab"
	default:
		return err
	}
	return &explained{why: why, err: ae}
}

// explained is a refusal put in words; it is still the API error.
type explained struct {
	why string
	err *APIError
}

func (e *explained) Error() string { return e.why }
func (e *explained) Unwrap() error { return e.err }
