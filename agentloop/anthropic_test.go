package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// newTestAnthropic returns a provider talking to srv, with no backoff.
func newTestAnthropic(srv *fakeprovider.Server, cfg ProviderConfig) *Anthropic {
	cfg.BaseURL = srv.URL
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	p := NewAnthropic(cfg)
	p.wait = noWait
	return p
}

// The SDK reads ANTHROPIC_* by default; the provider must use only its
// configuration, so that the wiring decides and tests are hermetic.
func TestAnthropicReadsNoEnvironment(t *testing.T) {
	closed := httptest.NewServer(nil)
	closed.Close()
	t.Setenv("ANTHROPIC_API_KEY", "env-key")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "env-token")
	t.Setenv("ANTHROPIC_BASE_URL", closed.URL)
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Text: "ok"})
	defer srv.Close()
	p := NewAnthropic(ProviderConfig{BaseURL: srv.URL, MaxRetries: -1})
	if _, err := p.Complete(providerCtx(t), firstRequest(), nil); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	if h.Get("x-api-key") != "" || h.Get("authorization") != "" {
		t.Errorf("credentials from the environment were sent: x-api-key %q authorization %q", h.Get("x-api-key"), h.Get("authorization"))
	}
}

func TestAnthropicFullExchange(t *testing.T) {
	usage := fakeprovider.Usage{InputTokens: 120, OutputTokens: 33, CacheCreationInputTokens: 7, CacheReadInputTokens: 50}
	bashInput := json.RawMessage(`{"command":"ls -la ~/projects/ünïcode"}`)
	srv := fakeprovider.NewAnthropic(
		fakeprovider.Turn{
			Text: "I need to know which database to use before I start.",
			ToolCalls: []fakeprovider.ToolCall{
				{ID: "toolu_01", Name: "AskUserQuestion", Input: askInput},
				{ID: "toolu_02", Name: "Bash", Input: bashInput},
			},
			Usage: &usage,
		},
		fakeprovider.Turn{Text: "Postgres it is."},
	)
	defer srv.Close()
	p := newTestAnthropic(srv, ProviderConfig{APIKey: "sk-ant-test"})

	var sink textSink
	resp, err := p.Complete(providerCtx(t), firstRequest(), sink.add)
	if err != nil {
		t.Fatal(err)
	}
	if sink.text() != "I need to know which database to use before I start." || len(sink.pieces) < 2 {
		t.Errorf("streamed %q in %d pieces, want the whole text in several", sink.pieces, len(sink.pieces))
	}
	if resp.ID != "msg_fake_1" || resp.StopReason != "tool_use" {
		t.Errorf("id %q stop %q, want msg_fake_1 tool_use", resp.ID, resp.StopReason)
	}
	want := Usage{InputTokens: 120, OutputTokens: 33, CacheCreationInputTokens: 7, CacheReadInputTokens: 50}
	if resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	if resp.Message.Role != RoleAssistant || resp.Message.Text() != sink.text() {
		t.Errorf("message %s %q, want assistant with the streamed text", resp.Message.Role, resp.Message.Text())
	}
	uses := resp.Message.ToolUses()
	if len(uses) != 2 || uses[0].ID != "toolu_01" || uses[0].Name != "AskUserQuestion" || uses[1].Name != "Bash" {
		t.Fatalf("tool uses = %+v", uses)
	}
	if string(uses[0].Input) != string(askInput) || string(uses[1].Input) != string(bashInput) {
		t.Errorf("inputs = %s, %s; want them byte for byte", uses[0].Input, uses[1].Input)
	}

	first := srv.Requests()[0]
	if first.Header.Get("x-api-key") != "sk-ant-test" || first.Header.Get("authorization") != "" {
		t.Errorf("auth headers x-api-key %q authorization %q, want only the configured key",
			first.Header.Get("x-api-key"), first.Header.Get("authorization"))
	}
	if first.Model != DefaultAnthropicModel || first.MaxTokens != defaultMaxTokens || first.System != testSystem {
		t.Errorf("model %q max_tokens %d system %q", first.Model, first.MaxTokens, first.System)
	}
	if names := strings.Join(first.ToolNames(), ","); names != "AskUserQuestion,Bash" {
		t.Errorf("tools = %s", names)
	}
	wantJSON(t, "AskUserQuestion input_schema", first.ToolSchema("AskUserQuestion"), askSchema)

	req2, results := secondRequest(t, resp.Message)
	resp2, err := p.Complete(providerCtx(t), req2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp2.Message.Text() != "Postgres it is." || resp2.StopReason != "end_turn" || resp2.Usage.InputTokens != fakeprovider.DefaultUsage.InputTokens {
		t.Errorf("second reply %q stop %q usage %+v", resp2.Message.Text(), resp2.StopReason, resp2.Usage)
	}
	checkAnthropicSecondRequest(t, srv, resp.Message, results)
	if srv.Remaining() != 0 {
		t.Errorf("%d scripted turns unused", srv.Remaining())
	}
}

// checkAnthropicSecondRequest asserts the request that continued after
// reply carried it and the tool results in Anthropic's shape.
func checkAnthropicSecondRequest(t *testing.T, srv *fakeprovider.Server, reply Message, results []Block) {
	t.Helper()
	uses := reply.ToolUses()
	second := srv.Requests()[1]
	if len(second.Messages) != 3 {
		t.Fatalf("second request has %d messages, want 3", len(second.Messages))
	}
	assistant := decodeRaw[Message](t, second.Messages[1])
	if assistant.Role != RoleAssistant || len(assistant.Content) != 3 || assistant.Content[0].Text != reply.Text() {
		t.Fatalf("assistant message sent back = %s", second.Messages[1])
	}
	for i, b := range assistant.Content[1:] {
		if b.Type != BlockToolUse || b.ID != uses[i].ID || b.Name != uses[i].Name {
			t.Errorf("tool_use %d sent back = %+v", i, b)
		}
		wantJSON(t, "tool_use input sent back", b.Input, uses[i].Input)
	}
	seen := srv.ToolResults()
	if len(seen) != len(results) {
		t.Fatalf("tool results seen = %+v, want %d", seen, len(results))
	}
	for i, r := range results {
		if s := seen[i]; s.ToolUseID != r.ToolUseID || s.Content != r.Content || s.IsError != r.IsError || s.Request != 1 {
			t.Errorf("tool result %d seen = %+v, want %+v in request 1", i, s, r)
		}
	}
}

func TestAnthropicRateLimitThenSuccess(t *testing.T) {
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Status: 429}, fakeprovider.Turn{Text: "fine now"})
	defer srv.Close()
	resp, err := newTestAnthropic(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "fine now" || len(srv.Requests()) != 2 {
		t.Errorf("reply %q after %d requests, want \"fine now\" after 2", resp.Message.Text(), len(srv.Requests()))
	}
}

// TestAnthropicHTTPErrors covers statuses that end the call: the wording,
// and how many requests were sent for MaxRetries 2.
func TestAnthropicHTTPErrors(t *testing.T) {
	cases := []struct {
		status   int
		requests int
		hint     string
	}{
		{500, 3, "the service failed or is overloaded; retried 2 times — try again later"},
		{529, 3, "the service failed or is overloaded; retried 2 times"},
		{429, 3, "rate limited; retried 2 times — wait and try again, or lower the request rate"},
		{401, 1, "check ANTHROPIC_API_KEY (or --api-key)"},
		{404, 1, "check --model and --base-url"},
	}
	for _, c := range cases {
		msg := fmt.Sprintf("scripted failure %d", c.status)
		srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Status: c.status, ErrorMessage: msg, Repeat: c.requests})
		_, err := newTestAnthropic(srv, ProviderConfig{MaxRetries: 2}).Complete(providerCtx(t), firstRequest(), nil)
		srv.Close()
		pe := wantProviderError(t, err)
		if pe.Provider != "anthropic" || pe.Status != c.status || pe.Message != msg || !strings.Contains(pe.Hint, c.hint) {
			t.Errorf("%d: got %+v, want message %q hint %q", c.status, pe, msg, c.hint)
		}
		if n := len(srv.Requests()); n != c.requests {
			t.Errorf("%d: %d requests, want %d", c.status, n, c.requests)
		}
	}
}

func TestAnthropicStreamFailures(t *testing.T) {
	cases := []struct {
		name     string
		turn     fakeprovider.Turn
		streamed string
		message  string
		hint     string
	}{
		{"malformed", fakeprovider.Turn{Text: "never shown", Malformed: true}, "",
			"malformed event stream", "check --base-url (ANTHROPIC_BASE_URL): the server does not speak the Anthropic Messages streaming format"},
		{"dropped", fakeprovider.Turn{Text: "Hello there, world", DropAfterText: true}, "Hello ",
			"the stream ended early", "check --base-url (ANTHROPIC_BASE_URL) and the connection; the reply had begun, so it was not repeated"},
		{"overloaded event", fakeprovider.Turn{Text: "Half a", ErrorEvent: "overloaded_error", ErrorMessage: "Overloaded"}, "Half a",
			"Overloaded (overloaded_error in the event stream)", "the service failed or is overloaded; the reply had begun, so it was not repeated — try again later"},
	}
	for _, c := range cases {
		srv := fakeprovider.NewAnthropic(c.turn, fakeprovider.Turn{Text: "not to be reached"})
		var sink textSink
		_, err := newTestAnthropic(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), sink.add)
		srv.Close()
		pe := wantProviderError(t, err)
		if pe.Status != 0 || !strings.Contains(pe.Message, c.message) || !strings.Contains(pe.Hint, c.hint) {
			t.Errorf("%s: got %q (hint %q), want message %q hint %q", c.name, pe.Message, pe.Hint, c.message, c.hint)
		}
		if sink.text() != c.streamed {
			t.Errorf("%s: streamed %q, want %q", c.name, sink.text(), c.streamed)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1 (nothing to retry)", c.name, n)
		}
	}
}

// A stream that fails before any text was shown is repeated: the caller
// cannot tell.
func TestAnthropicStreamFailureBeforeTextIsRetried(t *testing.T) {
	for _, fault := range []fakeprovider.Turn{{DropAfterText: true}, {ErrorEvent: "overloaded_error"}} {
		srv := fakeprovider.NewAnthropic(fault, fakeprovider.Turn{Text: "second try"})
		var sink textSink
		resp, err := newTestAnthropic(srv, ProviderConfig{}).Complete(providerCtx(t), firstRequest(), sink.add)
		srv.Close()
		if err != nil {
			t.Fatalf("%+v: %v", fault, err)
		}
		if resp.Message.Text() != "second try" || sink.text() != "second try" || len(srv.Requests()) != 2 {
			t.Errorf("%+v: reply %q streamed %q after %d requests", fault, resp.Message.Text(), sink.text(), len(srv.Requests()))
		}
	}
}

func TestAnthropicCancelMidStream(t *testing.T) {
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Text: "Thinking about it", Hang: true})
	defer srv.Close()
	ctx, cancel := context.WithCancel(providerCtx(t))
	defer cancel()
	_, err := newTestAnthropic(srv, ProviderConfig{}).Complete(ctx, firstRequest(), func(string) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		t.Errorf("cancellation wrapped in %v", pe)
	}
}

func TestAnthropicConnectionRefused(t *testing.T) {
	closed := httptest.NewServer(nil)
	closed.Close()
	p := NewAnthropic(ProviderConfig{APIKey: "k", BaseURL: closed.URL, MaxRetries: -1})
	_, err := p.Complete(providerCtx(t), firstRequest(), nil)
	pe := wantProviderError(t, err)
	if pe.Status != 0 || !strings.Contains(pe.Message, "connect") || pe.Hint != "check --base-url (ANTHROPIC_BASE_URL) and the connection; not retried" {
		t.Errorf("got %+v", pe)
	}
}

func TestAnthropicRequestMapping(t *testing.T) {
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Text: "ok"})
	defer srv.Close()
	req := Request{
		MaxTokens: 1234,
		Messages: []Message{
			{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "hi"}, {Type: BlockText}}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: "t1", Name: "Bash", Input: json.RawMessage(`"not json"`)}}},
			{Role: RoleUser, Content: []Block{{Type: BlockToolResult, ToolUseID: "t1"}}},
		},
		Tools: []ToolSpec{{Name: "Bash"}},
	}
	p := newTestAnthropic(srv, ProviderConfig{Model: "claude-test"})
	if p.Model() != "claude-test" || p.Name() != "anthropic" {
		t.Errorf("name %q model %q", p.Name(), p.Model())
	}
	if _, err := p.Complete(providerCtx(t), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Model != "claude-test" || got.MaxTokens != 1234 || strings.Contains(string(got.Body), `"system"`) {
		t.Errorf("model %q max_tokens %d body %s", got.Model, got.MaxTokens, got.Body)
	}
	wantJSON(t, "messages", []byte("["+string(got.Messages[0])+","+string(got.Messages[1])+","+string(got.Messages[2])+"]"), []byte(`[
		{"role":"user","content":[{"type":"text","text":"hi"}]},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]}]`))
	wantJSON(t, "schema of a tool without one", got.ToolSchema("Bash"), []byte(`{"type":"object","properties":{}}`))
}

func BenchmarkAnthropicComplete(b *testing.B) {
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{
		Text:      "I need to know which database to use before I start.",
		ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_01", Name: "AskUserQuestion", Input: askInput}},
		Repeat:    b.N + 1,
	})
	defer srv.Close()
	p := NewAnthropic(ProviderConfig{APIKey: "k", BaseURL: srv.URL})
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
