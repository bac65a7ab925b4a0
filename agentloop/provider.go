package agentloop

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// ProviderConfig configures a provider. Zero values mean the defaults. The
// providers read nothing from the environment: the wiring resolves keys and
// base URLs (flags, ANTHROPIC_API_KEY, OPENAI_BASE_URL, …) and passes them
// here, which keeps tests hermetic.
type ProviderConfig struct {
	APIKey string
	// BaseURL is the API's base URL; "" means the default (the
	// vendor's public API).
	BaseURL string
	// Model is the model to call; "" means DefaultAnthropicModel or
	// DefaultOpenAIModel.
	Model string
	// MaxTokens caps each reply when the Request sets no cap; 0 means 8192.
	MaxTokens int64
	// MaxRetries is how often a rate limit, overload, 5xx or network error
	// is retried; 0 means 4 and a negative value means none.
	MaxRetries int
	// HTTPClient carries the requests; nil means a default client. Its
	// transport is wrapped, in a copy, by the stream idle watchdog.
	HTTPClient *http.Client
	// StreamIdleTimeout is how long the server may stay silent (no response
	// headers, or no byte of the stream) before the call counts as a
	// network failure; 0 means the provider's default (90 s for Anthropic,
	// 5 min for OpenAI) and a negative value means no limit.
	StreamIdleTimeout time.Duration
}

const (
	defaultMaxTokens  = 8192
	defaultMaxRetries = 4
)

func (c ProviderConfig) retries() int {
	switch {
	case c.MaxRetries < 0:
		return 0
	case c.MaxRetries == 0:
		return defaultMaxRetries
	}
	return c.MaxRetries
}

// maxTokens is the reply cap for req: the request's own, else the
// configured one, else the default.
func (c ProviderConfig) maxTokens(req Request) int64 {
	switch {
	case req.MaxTokens > 0:
		return req.MaxTokens
	case c.MaxTokens > 0:
		return c.MaxTokens
	}
	return defaultMaxTokens
}

// toolInput is the Block.Input for a call's arguments: the JSON itself, {}
// for none, or a JSON string holding arguments that are not JSON verbatim,
// so the loop can tell the model what it sent.
func toolInput(args string) json.RawMessage {
	switch {
	case strings.TrimSpace(args) == "":
		return json.RawMessage(`{}`)
	case json.Valid([]byte(args)):
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args) // a string always encodes
	return b
}

// wording names a provider's API in what its errors say.
type wording struct {
	provider string // "anthropic"
	keyEnv   string // "ANTHROPIC_API_KEY"
	baseEnv  string // "ANTHROPIC_BASE_URL"
	format   string // "Anthropic Messages"
}

// providerError words a failure of one call for a person: what the server
// said (or what broke) and what to check. st is what the HTTP layer saw;
// emitted says whether text had reached the caller, which is why a failed
// stream was not retried.
func (w wording) providerError(err error, st *callState, emitted bool) *ProviderError {
	pe := &ProviderError{Provider: w.provider, Err: err}
	again := retried(max(st.attempts-1, 0))
	if st.refused != nil {
		again = refusedRetry(st.attempts-1, *st.refused)
	}
	if emitted && st.status < 400 {
		again = "the reply had begun, so it was not repeated"
	}
	connection := fmt.Sprintf("check --base-url (%s) and the connection; %s", w.baseEnv, again)
	var ev *streamEventError
	var bad *malformedError
	var stall *stallError
	switch {
	case st.status >= 400:
		pe.Status = st.status
		pe.Message = errorMessage(st.body, st.status)
		pe.Hint = w.statusHint(st.status, again)
	case errors.As(err, &ev):
		pe.Message = fmt.Sprintf("%s (%s in the event stream)", ev.Message, ev.Type)
		if ev.Type == "rate_limit_error" || ev.Type == "rate_limit_exceeded" {
			pe.Hint = w.statusHint(http.StatusTooManyRequests, again)
		} else if ev.retryable() {
			pe.Hint = w.statusHint(http.StatusInternalServerError, again)
		}
	case errors.As(err, &bad):
		pe.Message = bad.Error()
		pe.Hint = fmt.Sprintf("check --base-url (%s): the server does not speak the %s streaming format", w.baseEnv, w.format)
	case errors.As(err, &stall):
		pe.Message = stall.Error()
		pe.Hint = fmt.Sprintf("check the connection and --base-url (%s); a model that thinks longer in silence needs a larger --stream-idle-timeout; %s",
			w.baseEnv, again)
	case errors.Is(err, errStreamEnded):
		pe.Message = err.Error()
		pe.Hint = connection
	case st.status == http.StatusOK:
		pe.Message = "the stream ended early: " + err.Error()
		pe.Hint = connection
	default:
		pe.Message = err.Error()
		pe.Hint = connection
	}
	return pe
}

// statusHint says what to check after an HTTP error status; again says
// whether the call was retried.
func (w wording) statusHint(status int, again string) string {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "check " + w.keyEnv + " (or --api-key)"
	case status == http.StatusNotFound:
		return "check --model and --base-url"
	case status == http.StatusRequestEntityTooLarge:
		return "the request is too large: the conversation has outgrown the model"
	case status == http.StatusTooManyRequests:
		return "rate limited; " + again + " — wait and try again, or lower the request rate"
	case status >= 500: // Anthropic's 529 overloaded included
		return "the service failed or is overloaded; " + again + " — try again later"
	}
	return ""
}

// refusedRetry says that the call ended after n retries because the
// server asked for too long a wait.
func refusedRetry(n int, w serverWait) string {
	if n == 0 {
		return "not retried: " + w.String()
	}
	return retried(n) + ", then " + w.String()
}

func retried(n int) string {
	switch n {
	case 0:
		return "not retried"
	case 1:
		return "retried 1 time"
	}
	return fmt.Sprintf("retried %d times", n)
}

// maxMessage bounds, in characters, the text quoted from a server: an
// error message, an event that could not be decoded. A server may send
// megabytes; a person needs the first line or two.
const maxMessage = 200

// bounded is s cut to maxMessage characters, saying how long it was.
// Sanitising for display is the output's job; this only bounds.
func bounded(s string) string {
	n, cut := 0, len(s)
	for i := range s {
		if n == maxMessage {
			cut = i
		}
		n++
	}
	if n <= maxMessage {
		return s
	}
	return fmt.Sprintf("%s… (%d characters in all)", s[:cut], n)
}

// errorMessage is what an error response says: the message of the JSON
// error shapes the APIs and the compatible servers use
// ({"error":{"message"}}, {"error":"…"}, {"message"}, {"detail"}), else the
// first line of a plain-text body, else the status text.
func errorMessage(body []byte, status int) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &e) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(e.Error, &inner) == nil && inner.Message != "":
			return bounded(inner.Message)
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			return bounded(s)
		case e.Message != "":
			return bounded(e.Message)
		case json.Unmarshal(e.Detail, &s) == nil && s != "":
			return bounded(s)
		}
	}
	text := strings.TrimSpace(string(body))
	text, _, _ = strings.Cut(text, "\n")
	if text != "" && text[0] != '<' && text[0] != '{' && utf8.ValidString(text) {
		return bounded(text)
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	if status == 529 {
		return "Overloaded"
	}
	return fmt.Sprintf("HTTP %d", status)
}
