package whatsapp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// The Cloud API client. Meta publishes no Go SDK for the WhatsApp Cloud
// API, and askuser needs two calls of it (send a message, read the
// sending number), so this is a small typed client on net/http: the JSON
// of those two calls as Go types, the Graph error object, and the rate
// limits. Every error it returns is redacted (the token, the app secret,
// the phone number id and the verify token never appear in it, whatever
// the platform or a proxy echoed).

// graphVersion is the Graph API version askuser speaks, in one place so
// that moving to the next is one change.
const graphVersion = "v25.0"

// maxResponse bounds what is read of a Graph answer.
const maxResponse = 1 << 20

// Waits after a rate limit that came without Retry-After: Meta's pair
// limit (one message to one person every few seconds) clears soon; the
// others (the app's or the account's request budget, throughput) later.
const (
	pairLimitWait = 6 * time.Second
	rateLimitWait = time.Minute
)

type client struct {
	api, phoneID, token string
	secrets             []string
	http                *http.Client
	now                 func() time.Time

	mu        sync.Mutex
	notBefore time.Time // no call before this: the platform said to wait
}

// apiError is a Graph error: the HTTP status, Meta's code and subcode,
// and its words, redacted.
type apiError struct {
	status        int
	code, subcode int
	text          string
	// retry is when a rate limit lets askuser call again; zero for
	// other errors.
	retry time.Time
}

// RetryAt implements channel.RetryLater: a rate limit's end.
func (e *apiError) RetryAt() time.Time { return e.retry }

func (e *apiError) Error() string {
	if e.code != 0 {
		return fmt.Sprintf("%s (HTTP %d, code %d)", e.text, e.status, e.code)
	}
	return fmt.Sprintf("%s (HTTP %d)", e.text, e.status)
}

// rateLimited: the platform said to wait until then; no call is made
// before it.
type rateLimited struct{ until time.Time }

func (e *rateLimited) Error() string {
	return "WhatsApp's rate limit: no call before " + e.until.Local().Format("15:04:05")
}

// RetryAt implements channel.RetryLater.
func (e *rateLimited) RetryAt() time.Time { return e.until }

var (
	_ channel.RetryLater = (*apiError)(nil)
	_ channel.RetryLater = (*rateLimited)(nil)
)

// Graph error codes askuser tells apart.
const (
	codeTooManyCalls   = 4      // the app's call budget
	codePermission     = 10     // a permission the token lacks
	codeBadParameter   = 100    // bad parameter, or an object that does not exist
	codeAccessToken    = 190    // the token is wrong or expired
	codeAccountLimit   = 80007  // the business account's budget
	codeThroughput     = 130429 // the number's throughput
	codeUndeliverable  = 131026 // the recipient cannot get it
	codeNotAllowedTo   = 131030 // a test number may message only listed recipients
	codeWindow         = 131047 // outside the 24-hour customer service window
	codePairLimit      = 131056 // too many messages to one person
	codePermissionMany = 200    // permissions, 200–299
)

func isRateLimit(status, code int) bool {
	switch code {
	case codeTooManyCalls, codeAccountLimit, codeThroughput, codePairLimit:
		return true
	}
	return status == http.StatusTooManyRequests
}

// call makes one Graph call: GET when body is nil, else a POST of body as
// JSON; the answer is decoded into out. path follows the version:
// "/<phone number id>/messages". When wait is false and the platform
// said to wait, it fails at once with *rateLimited instead of waiting.
func (c *client) call(ctx context.Context, path string, body, out any, wait bool) error {
	if err := c.ready(ctx, wait); err != nil {
		return err
	}
	method, rd := http.MethodGet, io.Reader(nil)
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		method, rd = http.MethodPost, bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.api+"/"+graphVersion+path, rd)
	if err != nil {
		return c.redacted(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return c.redacted(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return c.redacted(fmt.Errorf("read WhatsApp's answer: %w", err))
	}
	if resp.StatusCode/100 != 2 {
		return c.failure(resp, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("WhatsApp's answer is not the Cloud API's JSON: %s", c.clean(string(data), 120))
		}
	}
	return nil
}

// ready waits out (or, unless wait, refuses) a rate limit.
func (c *client) ready(ctx context.Context, wait bool) error {
	c.mu.Lock()
	until := c.notBefore
	c.mu.Unlock()
	d := until.Sub(c.now())
	if d <= 0 {
		return nil
	}
	if !wait {
		return &rateLimited{until: until}
	}
	return channel.Sleep(ctx, d)
}

// failure reads a Graph error, and keeps a rate limit's wait.
func (c *client) failure(resp *http.Response, data []byte) error {
	var g struct {
		Error struct {
			Message   string          `json:"message"`
			Code      int             `json:"code"`
			Subcode   int             `json:"error_subcode"`
			ErrorData json.RawMessage `json:"error_data"`
		} `json:"error"`
	}
	e := &apiError{status: resp.StatusCode}
	if json.Unmarshal(data, &g) == nil && (g.Error.Message != "" || g.Error.Code != 0) {
		e.code, e.subcode, e.text = g.Error.Code, g.Error.Subcode, c.clean(g.Error.Message, 200)
		var d struct{ Details string }
		if json.Unmarshal(g.Error.ErrorData, &d) == nil && d.Details != "" {
			e.text += ": " + c.clean(d.Details, 300)
		}
	} else {
		e.text = "WhatsApp answered " + resp.Status
		if s := c.clean(string(data), 120); s != "" {
			e.text += ": " + s
		}
	}
	if isRateLimit(e.status, e.code) {
		wait := rateLimitWait
		if e.code == codePairLimit {
			wait = pairLimitWait
		}
		if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s >= 0 {
			wait = time.Duration(s) * time.Second
		}
		c.mu.Lock()
		if until := c.now().Add(wait); until.After(c.notBefore) {
			c.notBefore = until
		}
		e.retry = c.notBefore
		c.mu.Unlock()
	}
	return e
}

// clean makes platform text safe to show and log: secrets redacted, one
// line, at most n characters.
func (c *client) clean(s string, n int) string {
	return channel.Cut(ask.Display(channel.Redact(s, c.secrets...)), n)
}

func (c *client) redacted(err error) error {
	var ue interface{ Timeout() bool }
	if errors.As(err, &ue) && ue.Timeout() {
		return fmt.Errorf("WhatsApp did not answer in time: %s", c.clean(err.Error(), 300))
	}
	return errors.New(c.clean(err.Error(), 300))
}
