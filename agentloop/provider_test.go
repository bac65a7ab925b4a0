package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// Helpers shared by the provider tests.

// testTimeout bounds every provider call in tests: a hang fails the test
// with a deadline error instead of blocking the run.
const testTimeout = 20 * time.Second

func providerCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// noWait replaces the providers' backoff so retried streams cost nothing.
func noWait(int) time.Duration { return time.Millisecond }

// textSink records the text deltas a provider streams.
type textSink struct{ pieces []string }

func (s *textSink) add(text string) { s.pieces = append(s.pieces, text) }

func (s *textSink) text() string { return strings.Join(s.pieces, "") }

// wantProviderError asserts err is a *ProviderError and returns it.
func wantProviderError(t *testing.T, err error) *ProviderError {
	t.Helper()
	var pe *ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error = %v (%T), want a *ProviderError", err, err)
	}
	return pe
}

// wantJSON asserts two JSON texts hold the same value (key order and
// spacing aside).
func wantJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if normalJSON(t, got) != normalJSON(t, want) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// normalJSON re-encodes b, which sorts object keys.
func normalJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// decodeRaw decodes one raw JSON value of a recorded request.
func decodeRaw[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// providerKind builds one provider against a fake server, with no backoff.
type providerKind struct {
	name  string
	serve func(turns ...fakeprovider.Turn) *fakeprovider.Server
	make  func(srv *fakeprovider.Server, cfg ProviderConfig) Provider
}

var providerKinds = []providerKind{
	{"anthropic", fakeprovider.NewAnthropic, func(srv *fakeprovider.Server, cfg ProviderConfig) Provider {
		return newTestAnthropic(srv, cfg)
	}},
	{"openai", fakeprovider.NewOpenAI, func(srv *fakeprovider.Server, cfg ProviderConfig) Provider {
		cfg.BaseURL, cfg.APIKey = srv.URL, "test-key"
		p := NewOpenAI(cfg)
		p.wait = noWait
		return p
	}},
}

// Shared fixtures: the question tool and a second tool, as the loop
// offers them.
var (
	askSchema = json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object"}}},"required":["questions"]}`)
	askInput  = json.RawMessage(`{"questions":[{"question":"Which database?","header":"DB","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}]}`)
	testTools = []ToolSpec{
		{Name: "AskUserQuestion", Description: "Ask the user a question.", InputSchema: askSchema},
		{Name: "Bash", Description: "Run a command.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)},
	}
)

const testSystem = "You are a careful agent. Ask when unsure."

// firstRequest is the opening request of the full-exchange tests.
func firstRequest() Request {
	return Request{
		System:   testSystem,
		Messages: []Message{{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "Set up the project."}}}},
		Tools:    testTools,
	}
}

// secondRequest continues after reply with one result per tool call: the
// first succeeds, the others fail.
func secondRequest(t *testing.T, reply Message) (Request, []Block) {
	t.Helper()
	var results []Block
	for i, tu := range reply.ToolUses() {
		b := Block{Type: BlockToolResult, ToolUseID: tu.ID, Content: "User answered: Postgres"}
		if i > 0 {
			b.Content, b.IsError = "unknown tool "+tu.Name+": use AskUserQuestion", true
		}
		results = append(results, b)
	}
	if len(results) == 0 {
		t.Fatal("the first reply has no tool calls to answer")
	}
	req := firstRequest()
	req.Messages = append(req.Messages, reply, Message{Role: RoleUser, Content: results})
	return req, results
}

func TestProviderConfigDefaults(t *testing.T) {
	cases := []struct {
		cfg         ProviderConfig
		req         Request
		wantRetries int
		wantTokens  int64
	}{
		{ProviderConfig{}, Request{}, defaultMaxRetries, defaultMaxTokens},
		{ProviderConfig{MaxRetries: -1, MaxTokens: 100}, Request{}, 0, 100},
		{ProviderConfig{MaxRetries: 2, MaxTokens: 100}, Request{MaxTokens: 7}, 2, 7},
	}
	for _, c := range cases {
		if got := c.cfg.retries(); got != c.wantRetries {
			t.Errorf("%+v: retries = %d, want %d", c.cfg, got, c.wantRetries)
		}
		if got := c.cfg.maxTokens(c.req); got != c.wantTokens {
			t.Errorf("%+v: maxTokens = %d, want %d", c.cfg, got, c.wantTokens)
		}
	}
}

func TestErrorMessageShapes(t *testing.T) {
	cases := []struct {
		body   string
		status int
		want   string
	}{
		{`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, 429, "slow down"},
		{`{"error":"model 'x' not found"}`, 404, "model 'x' not found"},
		{`{"object":"error","message":"vllm says no","type":"BadRequestError"}`, 400, "vllm says no"},
		{`{"detail":"Not Found"}`, 404, "Not Found"},
		{"404 page not found\n", 404, "404 page not found"},
		{"<html><body>Bad gateway</body></html>", 502, "Bad Gateway"},
		{"", 529, "Overloaded"},
	}
	for _, c := range cases {
		if got := errorMessage([]byte(c.body), c.status); got != c.want {
			t.Errorf("errorMessage(%q, %d) = %q, want %q", c.body, c.status, got, c.want)
		}
	}
}

// askedWait reads the headers as the SDKs do; refuseLongWait refuses
// what is over the limit, and only on a response the SDKs would retry.
func TestAskedWait(t *testing.T) {
	cases := []struct {
		header, value string
		seconds       float64
		ok, refused   bool
	}{
		{"retry-after-ms", "1", 0.001, true, false},
		{"retry-after-ms", "60000", 60, true, false},
		{"retry-after-ms", "60001", 60.001, true, true},
		{"retry-after", "2", 2, true, false},
		{"retry-after", "60", 60, true, false},
		{"retry-after", "60.5", 60.5, true, true},
		{"retry-after", "-5", 0, true, false},
		{"retry-after", "1e400", math.Inf(1), true, true},
		{"retry-after", "NaN", 0, false, false},
		{"retry-after", "soon", 0, false, false},
		{"retry-after", "Mon, 02 Jan 2006 15:04:05 GMT", 0, true, false}, // in the past
	}
	for _, c := range cases {
		h := http.Header{}
		h.Set(c.header, c.value)
		w, ok := askedWait(h)
		if ok != c.ok || (ok && w.seconds != c.seconds) {
			t.Errorf("askedWait(%s: %s) = %v s, %v; want %v s, %v", c.header, c.value, w.seconds, ok, c.seconds, c.ok)
		}
		res := &http.Response{StatusCode: 429, Header: h}
		if _, refused := refuseLongWait(res); refused != c.refused || (res.Header.Get("x-should-retry") == "false") != c.refused {
			t.Errorf("%s: %s: refused %v, x-should-retry %q; want refused %v", c.header, c.value, refused, res.Header.Get("x-should-retry"), c.refused)
		}
	}
	// retry-after-ms wins, as in the SDKs.
	h := http.Header{"Retry-After-Ms": {"5"}, "Retry-After": {"86400"}}
	if w, _ := askedWait(h); w.header != "retry-after-ms" || w.seconds != 0.005 {
		t.Errorf("both headers: %+v, want retry-after-ms's 5 ms", w)
	}
	// A response that is not retried is left alone.
	for _, res := range []*http.Response{
		{StatusCode: 400, Header: http.Header{"Retry-After": {"86400"}}},
		{StatusCode: 503, Header: http.Header{"Retry-After": {"86400"}, "X-Should-Retry": {"false"}}},
	} {
		if _, refused := refuseLongWait(res); refused {
			t.Errorf("HTTP %d %v: refused, but it would not be retried", res.StatusCode, res.Header)
		}
	}
	if d := backoff(0); d <= 0 || d > 500*time.Millisecond {
		t.Errorf("backoff(0) = %v, want (0, 500ms]", d)
	}
	if d := backoff(30); d > 8*time.Second || d < 6*time.Second {
		t.Errorf("backoff(30) = %v, want about 8s", d)
	}
}

// Text quoted from a server is bounded, whatever shape it came in, and
// says how long it was.
func TestServerTextBounded(t *testing.T) {
	long := strings.Repeat("é", 1<<20)
	want := strings.Repeat("é", maxMessage) + "… (1048576 characters in all)"
	quoted, _ := json.Marshal(long)
	for _, body := range []string{
		`{"type":"error","error":{"type":"api_error","message":` + string(quoted) + `}}`,
		`{"error":` + string(quoted) + `}`,
		`{"message":` + string(quoted) + `}`,
		`{"detail":` + string(quoted) + `}`,
		long + "\nsecond line",
	} {
		if got := errorMessage([]byte(body), 500); got != want {
			t.Errorf("errorMessage(%.40q…) = %.60q… (%d bytes), want %d characters and the length", body, got, len(got), maxMessage)
		}
	}
	for _, err := range []error{
		anthropicEventError([]byte(long)),       // an error event whose data is no error object
		openaiEventError(quoted),                // {"error": "…"}
		openaiEventError(json.RawMessage(long)), // not JSON at all
	} {
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("an undecodable error event gives %d bytes: %.100q…", len(err.Error()), err.Error())
		}
	}
	if got := bounded(strings.Repeat("a", maxMessage)); got != strings.Repeat("a", maxMessage) {
		t.Errorf("text of exactly the limit was cut: %q", got)
	}
	// Through the wire: an error body is read up to maxErrorBody, so
	// the message is one that fits.
	long = strings.Repeat("é", 20000)
	want = strings.Repeat("é", maxMessage) + "… (20000 characters in all)"
	for _, k := range providerKinds {
		for _, turn := range []fakeprovider.Turn{{Status: 400, ErrorMessage: long}, {ErrorEvent: "invalid_request_error", ErrorMessage: long}} {
			srv := k.serve(turn)
			_, err := k.make(srv, ProviderConfig{MaxRetries: -1}).Complete(providerCtx(t), firstRequest(), nil)
			srv.Close()
			pe := wantProviderError(t, err)
			if !strings.HasPrefix(pe.Message, want) || len(pe.Error()) > 1000 {
				t.Errorf("%s %d/%s: error of %d bytes: %.300q", k.name, turn.Status, turn.ErrorEvent, len(pe.Error()), pe.Error())
			}
		}
	}
}
