package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// newTestOpenAI returns a provider talking to srv, with no backoff.
func newTestOpenAI(srv *fakeprovider.Server, cfg ProviderConfig) *OpenAI {
	cfg.BaseURL = srv.URL
	p := NewOpenAI(cfg)
	p.wait = noWait
	return p
}

// openaiMessage is an OpenAI chat message as the fake recorded it.
type openaiMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func TestOpenAIFullExchange(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "env-key")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("OPENAI_ORG_ID", "env-org")
	usage := fakeprovider.Usage{InputTokens: 90, OutputTokens: 41, CacheReadInputTokens: 30}
	bashInput := json.RawMessage(`{"command":"ls -la ~/projects/ünïcode"}`)
	srv := fakeprovider.NewOpenAI(
		fakeprovider.Turn{
			Text: "I need to know which database to use before I start.",
			ToolCalls: []fakeprovider.ToolCall{
				{ID: "call_a", Name: "AskUserQuestion", Input: askInput},
				{ID: "call_b", Name: "Bash", Input: bashInput},
			},
			Usage: &usage,
		},
		fakeprovider.Turn{Text: "Postgres it is."},
	)
	defer srv.Close()
	p := newTestOpenAI(srv, ProviderConfig{APIKey: "sk-test", Model: "gpt-test"})

	var sink textSink
	resp, err := p.Complete(providerCtx(t), firstRequest(), sink.add)
	if err != nil {
		t.Fatal(err)
	}
	if sink.text() != "I need to know which database to use before I start." || len(sink.pieces) < 2 {
		t.Errorf("streamed %q in %d pieces, want the whole text in several", sink.pieces, len(sink.pieces))
	}
	if resp.ID != "chatcmpl-fake1" || resp.StopReason != "tool_use" || resp.Message.Text() != sink.text() {
		t.Errorf("id %q stop %q text %q", resp.ID, resp.StopReason, resp.Message.Text())
	}
	if want := (Usage{InputTokens: 90, OutputTokens: 41, CacheReadInputTokens: 30}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	uses := resp.Message.ToolUses()
	if len(uses) != 2 || uses[0].ID != "call_a" || uses[0].Name != "AskUserQuestion" || uses[1].ID != "call_b" {
		t.Fatalf("tool uses = %+v", uses)
	}
	if string(uses[0].Input) != string(askInput) || string(uses[1].Input) != string(bashInput) {
		t.Errorf("inputs = %s, %s; want them byte for byte", uses[0].Input, uses[1].Input)
	}

	first := srv.Requests()[0]
	if first.Header.Get("authorization") != "Bearer sk-test" || first.Header.Get("openai-organization") != "" {
		t.Errorf("authorization %q organization %q, want only the configured key",
			first.Header.Get("authorization"), first.Header.Get("openai-organization"))
	}
	if first.Model != "gpt-test" || first.System != testSystem || !first.IncludeUsage || first.MaxTokens != defaultMaxTokens {
		t.Errorf("model %q system %q include_usage %v max tokens %d", first.Model, first.System, first.IncludeUsage, first.MaxTokens)
	}
	if !strings.Contains(string(first.Body), `"max_tokens":8192`) {
		t.Errorf("a compatible server gets max_tokens: %s", first.Body)
	}
	if names := strings.Join(first.ToolNames(), ","); names != "AskUserQuestion,Bash" {
		t.Errorf("tools = %s", names)
	}
	wantJSON(t, "AskUserQuestion parameters", first.ToolSchema("AskUserQuestion"), askSchema)

	req2, results := secondRequest(t, resp.Message)
	if _, err := p.Complete(providerCtx(t), req2, nil); err != nil {
		t.Fatal(err)
	}
	checkOpenAISecondRequest(t, srv, resp.Message, results)
}

// checkOpenAISecondRequest asserts the request that continued after reply
// carried it and the tool results in OpenAI's shape.
func checkOpenAISecondRequest(t *testing.T, srv *fakeprovider.Server, reply Message, results []Block) {
	t.Helper()
	uses := reply.ToolUses()
	second := srv.Requests()[1]
	// system, user, assistant with tool_calls, one tool message per result
	if len(second.Messages) != 5 {
		t.Fatalf("second request has %d messages, want 5: %s", len(second.Messages), second.Body)
	}
	assistant := decodeRaw[openaiMessage](t, second.Messages[2])
	if assistant.Role != "assistant" || assistant.Content != reply.Text() || len(assistant.ToolCalls) != 2 {
		t.Fatalf("assistant message sent back = %s", second.Messages[2])
	}
	for i, tc := range assistant.ToolCalls {
		if tc.ID != uses[i].ID || tc.Type != "function" || tc.Function.Name != uses[i].Name || tc.Function.Arguments != string(uses[i].Input) {
			t.Errorf("tool call %d sent back = %+v", i, tc)
		}
	}
	for i, r := range results {
		m := decodeRaw[openaiMessage](t, second.Messages[3+i])
		if m.Role != "tool" || m.ToolCallID != r.ToolUseID || m.Content != r.Content {
			t.Errorf("tool message %d = %s, want %+v", i, second.Messages[3+i], r)
		}
	}
	seen := srv.ToolResults()
	if len(seen) != 2 || seen[0].ToolUseID != "call_a" || seen[1].Content != results[1].Content {
		t.Errorf("tool results seen = %+v", seen)
	}
}

// Local servers: no key needed, tool calls finished with "stop", ids
// missing, arguments that are not JSON, no usage.
func TestOpenAILocalServerQuirks(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "must-not-leak")
	srv := fakeprovider.NewOpenAI(
		fakeprovider.Turn{
			ToolCalls: []fakeprovider.ToolCall{
				{Name: "Bash", Input: json.RawMessage(`{"command": "ls`)},
				{Name: "AskUserQuestion", Input: askInput},
			},
			StopReason: "stop",
			NoUsage:    true,
		},
		fakeprovider.Turn{Text: "done"},
	)
	defer srv.Close()
	p := newTestOpenAI(srv, ProviderConfig{})
	resp, err := p.Complete(providerCtx(t), firstRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if h := srv.Requests()[0].Header.Get("authorization"); h != "" {
		t.Errorf("authorization %q sent to a keyless local server", h)
	}
	if resp.StopReason != "tool_use" || resp.Usage != (Usage{}) {
		t.Errorf("stop %q usage %+v, want tool_use and none", resp.StopReason, resp.Usage)
	}
	uses := resp.Message.ToolUses()
	if len(uses) != 2 || uses[0].ID != "call_1" || uses[1].ID != "call_2" {
		t.Fatalf("tool uses = %+v, want invented ids call_1, call_2", uses)
	}
	var verbatim string
	if err := json.Unmarshal(uses[0].Input, &verbatim); err != nil || verbatim != `{"command": "ls` {
		t.Errorf("input of invalid arguments = %s, want them as a JSON string", uses[0].Input)
	}
	if string(uses[1].Input) != string(askInput) {
		t.Errorf("second input = %s", uses[1].Input)
	}
	req2, _ := secondRequest(t, resp.Message)
	if _, err := p.Complete(providerCtx(t), req2, nil); err != nil {
		t.Fatal(err)
	}
	assistant := decodeRaw[openaiMessage](t, srv.Requests()[1].Messages[2])
	if len(assistant.ToolCalls) != 2 || assistant.ToolCalls[0].Function.Arguments != `{"command": "ls` || assistant.ToolCalls[0].ID != "call_1" {
		t.Errorf("assistant sent back = %s, want the invalid arguments verbatim", srv.Requests()[1].Messages[2])
	}
	seen := srv.ToolResults()
	if len(seen) != 2 || seen[0].ToolUseID != "call_1" || seen[1].ToolUseID != "call_2" {
		t.Errorf("tool results = %+v", seen)
	}
}

func TestOpenAIRateLimitThenSuccess(t *testing.T) {
	srv := fakeprovider.NewOpenAI(fakeprovider.Turn{Status: 429}, fakeprovider.Turn{Text: "fine now"})
	defer srv.Close()
	resp, err := newTestOpenAI(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "fine now" || len(srv.Requests()) != 2 {
		t.Errorf("reply %q after %d requests, want \"fine now\" after 2", resp.Message.Text(), len(srv.Requests()))
	}
}

func TestOpenAIHTTPErrors(t *testing.T) {
	cases := []struct {
		status   int
		requests int
		hint     string
	}{
		{500, 3, "the service failed or is overloaded; retried 2 times — try again later"},
		{429, 3, "rate limited; retried 2 times — wait and try again, or lower the request rate"},
		{401, 1, "check OPENAI_API_KEY (or --api-key)"},
		{404, 1, "check --model and --base-url"},
	}
	for _, c := range cases {
		msg := fmt.Sprintf("scripted failure %d", c.status)
		srv := fakeprovider.NewOpenAI(fakeprovider.Turn{Status: c.status, ErrorMessage: msg, Repeat: c.requests})
		_, err := newTestOpenAI(srv, ProviderConfig{MaxRetries: 2}).Complete(providerCtx(t), firstRequest(), nil)
		srv.Close()
		pe := wantProviderError(t, err)
		if pe.Provider != "openai" || pe.Status != c.status || pe.Message != msg || !strings.Contains(pe.Hint, c.hint) {
			t.Errorf("%d: got %+v, want message %q hint %q", c.status, pe, msg, c.hint)
		}
		if n := len(srv.Requests()); n != c.requests {
			t.Errorf("%d: %d requests, want %d", c.status, n, c.requests)
		}
	}
}

// A wrong base URL meets a plain-text 404 (Go servers such as Ollama send
// "404 page not found"), whose status the SDK alone would lose.
func TestOpenAIPlainTextNotFound(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	p := NewOpenAI(ProviderConfig{BaseURL: srv.URL})
	_, err := p.Complete(providerCtx(t), firstRequest(), nil)
	pe := wantProviderError(t, err)
	if pe.Status != 404 || pe.Message != "404 page not found" || pe.Hint != "check --model and --base-url" {
		t.Errorf("got %+v", pe)
	}
}

func TestOpenAIStreamFailures(t *testing.T) {
	cases := []struct {
		name     string
		turn     fakeprovider.Turn
		streamed string
		message  string
		hint     string
	}{
		{"malformed", fakeprovider.Turn{Text: "never shown", Malformed: true}, "",
			"malformed event stream", "check --base-url (OPENAI_BASE_URL): the server does not speak the OpenAI Chat Completions streaming format"},
		{"dropped", fakeprovider.Turn{Text: "Hello there, world", DropAfterText: true}, "Hello ",
			"the stream ended early", "check --base-url (OPENAI_BASE_URL) and the connection; the reply had begun, so it was not repeated"},
		{"error line", fakeprovider.Turn{Text: "Half a", ErrorEvent: "server_error", ErrorMessage: "The server had an error"}, "Half a",
			"The server had an error (server_error in the event stream)", "the service failed or is overloaded; the reply had begun"},
	}
	for _, c := range cases {
		srv := fakeprovider.NewOpenAI(c.turn, fakeprovider.Turn{Text: "not to be reached"})
		var sink textSink
		_, err := newTestOpenAI(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), sink.add)
		srv.Close()
		pe := wantProviderError(t, err)
		if pe.Status != 0 || !strings.Contains(pe.Message, c.message) || !strings.Contains(pe.Hint, c.hint) {
			t.Errorf("%s: got %q (hint %q), want message %q hint %q", c.name, pe.Message, pe.Hint, c.message, c.hint)
		}
		if sink.text() != c.streamed {
			t.Errorf("%s: streamed %q, want %q", c.name, sink.text(), c.streamed)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", c.name, n)
		}
	}
}

func TestOpenAIStreamFailureBeforeTextIsRetried(t *testing.T) {
	srv := fakeprovider.NewOpenAI(fakeprovider.Turn{DropAfterText: true}, fakeprovider.Turn{Text: "second try"})
	defer srv.Close()
	resp, err := newTestOpenAI(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "second try" || len(srv.Requests()) != 2 {
		t.Errorf("reply %q after %d requests", resp.Message.Text(), len(srv.Requests()))
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	srv := fakeprovider.NewOpenAI(fakeprovider.Turn{Text: "Thinking about it", Hang: true})
	defer srv.Close()
	ctx, cancel := context.WithCancel(providerCtx(t))
	defer cancel()
	_, err := newTestOpenAI(srv, ProviderConfig{}).Complete(ctx, firstRequest(), func(string) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		t.Errorf("cancellation wrapped in %v", pe)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func BenchmarkOpenAIComplete(b *testing.B) {
	srv := fakeprovider.NewOpenAI(fakeprovider.Turn{
		Text:      "I need to know which database to use before I start.",
		ToolCalls: []fakeprovider.ToolCall{{ID: "call_a", Name: "AskUserQuestion", Input: askInput}},
		Repeat:    b.N + 1,
	})
	defer srv.Close()
	p := NewOpenAI(ProviderConfig{BaseURL: srv.URL})
	ctx := context.Background()
	req := firstRequest()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := p.Complete(ctx, req, func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}
