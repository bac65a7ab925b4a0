package fakeprovider

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// post sends body to url with a bounded wait and returns the response with
// its body read.
func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return res, string(b)
}

// events returns the SSE event names (or, for data-only events, the first
// bytes of the data) of a stream body.
func events(t *testing.T, body string) []string {
	t.Helper()
	var names []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			names = append(names, name)
		}
	}
	return names
}

const anthropicBody = `{"model":"m","max_tokens":10,"stream":true,"system":"sys","messages":[{"role":"user","content":"hi"}]}`

func TestAnthropicEventSequence(t *testing.T) {
	srv := NewAnthropic(Turn{
		Text:      "Hello, wörld!",
		ToolCalls: []ToolCall{{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}},
	})
	defer srv.Close()
	res, body := post(t, srv.URL+"/v1/messages", anthropicBody)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("content-type"), "text/event-stream") || res.Header.Get("request-id") != "req_fake_1" {
		t.Fatalf("status %d headers %v", res.StatusCode, res.Header)
	}
	got := strings.Join(events(t, body), " ")
	want := "message_start ping content_block_start content_block_delta content_block_delta content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_delta content_block_stop " +
		"message_delta message_stop"
	if got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	for _, frag := range []string{`"stop_reason":"tool_use"`, `"partial_json":""`, `"type":"input_json_delta"`, `"id":"toolu_1"`} {
		if !strings.Contains(body, frag) {
			t.Errorf("stream lacks %s:\n%s", frag, body)
		}
	}
	if r := srv.Requests()[0]; r.Model != "m" || r.System != "sys" || r.MaxTokens != 10 || len(r.Messages) != 1 {
		t.Errorf("decoded request = %+v", r)
	}
}

func TestOpenAIChunkSequence(t *testing.T) {
	srv := NewOpenAI(Turn{Text: "Hi", ToolCalls: []ToolCall{{Name: "Bash", Input: json.RawMessage(`{"a":1}`)}}, StopReason: "end_turn"})
	defer srv.Close()
	res, body := post(t, srv.URL+"/chat/completions",
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}]}`)
	if res.StatusCode != 200 || res.Header.Get("x-request-id") != "req_fake_1" {
		t.Fatalf("status %d headers %v", res.StatusCode, res.Header)
	}
	lines := strings.Split(strings.TrimSpace(body), "\n\n")
	if last := lines[len(lines)-1]; last != "data: [DONE]" {
		t.Errorf("last line %q, want data: [DONE]", last)
	}
	usage := lines[len(lines)-2]
	if !strings.Contains(usage, `"choices":[]`) || !strings.Contains(usage, `"prompt_tokens":100`) {
		t.Errorf("usage chunk = %s", usage)
	}
	if !strings.Contains(lines[len(lines)-3], `"finish_reason":"stop"`) {
		t.Errorf("finish chunk = %s, want the translated stop reason", lines[len(lines)-3])
	}
	if strings.Contains(body, `"id":"call`) {
		t.Errorf("a tool call without an id was sent one:\n%s", body)
	}
	if r := srv.Requests()[0]; r.System != "sys" || !r.IncludeUsage {
		t.Errorf("decoded request = %+v", r)
	}
}

func TestScriptExhaustedAndBadRequests(t *testing.T) {
	srv := NewAnthropic(Turn{Text: "only one", Repeat: 2})
	defer srv.Close()
	if res, body := post(t, srv.URL+"/v1/messages", "not json"); res.StatusCode != 400 || !strings.Contains(body, "not valid JSON") {
		t.Errorf("non-JSON body: %d %s", res.StatusCode, body)
	}
	if res, body := post(t, srv.URL+"/v1/complete", anthropicBody); res.StatusCode != 404 || !strings.Contains(body, "not_found_error") {
		t.Errorf("wrong path: %d %s", res.StatusCode, body)
	}
	if res, _ := post(t, srv.URL+"/v1/messages", strings.Replace(anthropicBody, `"stream":true`, `"stream":false`, 1)); res.StatusCode != 400 {
		t.Errorf("non-streaming request: %d", res.StatusCode)
	}
	if srv.Remaining() != 2 {
		t.Errorf("rejected requests consumed turns: %d remaining", srv.Remaining())
	}
	for range 2 {
		if res, _ := post(t, srv.URL+"/v1/messages", anthropicBody); res.StatusCode != 200 {
			t.Fatalf("scripted turn: %d", res.StatusCode)
		}
	}
	res, body := post(t, srv.URL+"/v1/messages", anthropicBody)
	if res.StatusCode != 500 || res.Header.Get("x-should-retry") != "false" || !strings.Contains(body, "fakeprovider: no more scripted turns") {
		t.Errorf("over-call: %d %v %s", res.StatusCode, res.Header, body)
	}
	if n := len(srv.Requests()); n != 6 {
		t.Errorf("%d requests recorded, want 6", n)
	}
}

func TestStatusFault(t *testing.T) {
	srv := NewOpenAI(Turn{Status: 429})
	defer srv.Close()
	res, body := post(t, srv.URL+"/chat/completions", `{"model":"m","stream":true,"messages":[]}`)
	var e struct {
		Error struct{ Message, Type, Code string }
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 429 || res.Header.Get("retry-after-ms") != "1" || e.Error.Code != "rate_limit_exceeded" || e.Error.Message == "" {
		t.Errorf("429: %d %v %s", res.StatusCode, res.Header, body)
	}
}

func TestToolResultsListedOnce(t *testing.T) {
	srv := NewAnthropic(Turn{Text: "a"}, Turn{Text: "b"})
	defer srv.Close()
	turn := func(results string) string {
		return `{"model":"m","stream":true,"messages":[{"role":"user","content":[` + results + `]}]}`
	}
	post(t, srv.URL+"/v1/messages", turn(`{"type":"tool_result","tool_use_id":"t1","content":"ok"}`))
	post(t, srv.URL+"/v1/messages", turn(`{"type":"tool_result","tool_use_id":"t1","content":"ok"},`+
		`{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"bad"}],"is_error":true}`))
	want := []ToolResultSeen{{0, "t1", "ok", false}, {1, "t2", "bad", true}}
	got := srv.ToolResults()
	if len(got) != len(want) {
		t.Fatalf("tool results = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tool result %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSplit(t *testing.T) {
	for _, s := range []string{"", "a", "ab", "héllo wörld ✓✓", strings.Repeat("🙂", 10)} {
		pieces := split(s, 3)
		if strings.Join(pieces, "") != s {
			t.Errorf("split(%q) = %q, does not join back", s, pieces)
		}
		if want := min(3, utf8.RuneCountInString(s)); len(pieces) != want {
			t.Errorf("split(%q) gave %d pieces, want %d", s, len(pieces), want)
		}
		for _, p := range pieces {
			if p == "" || !utf8.ValidString(p) {
				t.Errorf("split(%q) piece %q is empty or cut inside a rune", s, p)
			}
		}
	}
}

func TestLoadTurns(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "turns.json")
	writeFile(t, good, `[
		{"text": "asking", "tool_calls": [{"id": "t1", "name": "AskUserQuestion", "input": {"questions": []}}]},
		{"status": 529, "repeat": 2},
		{"text": "done", "usage": {"input_tokens": 5, "output_tokens": 6}}
	]`)
	turns, err := LoadTurns(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 3 || turns[0].ToolCalls[0].Name != "AskUserQuestion" || string(turns[0].ToolCalls[0].Input) != `{"questions": []}` ||
		turns[1].Status != 529 || turns[1].Repeat != 2 || turns[2].Usage.OutputTokens != 6 {
		t.Errorf("turns = %+v", turns)
	}
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, `[{"txet": "typo"}]`)
	if _, err := LoadTurns(bad); err == nil || !strings.Contains(err.Error(), "txet") {
		t.Errorf("a typo loaded: %v", err)
	}
	if _, err := LoadTurns(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file loaded")
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The fault modes added for the provider-fault catalog: a chosen
// retry-after, a stream that ends cleanly but early, tool input sent
// verbatim, headers that never come.
func TestFaultModes(t *testing.T) {
	srv := NewAnthropic(
		Turn{Status: 429, RetryAfter: "2"},
		Turn{Status: 503, RetryAfterMs: "86400000"},
		Turn{Text: "Hello, world", EndEarly: true},
		Turn{ToolCalls: []ToolCall{{Name: "AskUserQuestion", Input: json.RawMessage(`{"ignored":1}`), RawInput: `{questions: [}`}}},
	)
	defer srv.Close()
	res, _ := post(t, srv.URL+"/v1/messages", anthropicBody)
	if res.StatusCode != 429 || res.Header.Get("retry-after") != "2" || res.Header.Get("retry-after-ms") != "" {
		t.Errorf("retry-after: %d %v", res.StatusCode, res.Header)
	}
	res, _ = post(t, srv.URL+"/v1/messages", anthropicBody)
	if res.StatusCode != 503 || res.Header.Get("retry-after-ms") != "86400000" || res.Header.Get("retry-after") != "" {
		t.Errorf("retry-after-ms: %d %v", res.StatusCode, res.Header)
	}
	res, body := post(t, srv.URL+"/v1/messages", anthropicBody)
	if got := strings.Join(events(t, body), " "); res.StatusCode != 200 || got != "message_start ping content_block_start content_block_delta" {
		t.Errorf("end early: %d events %s", res.StatusCode, got)
	}
	_, body = post(t, srv.URL+"/v1/messages", anthropicBody)
	var partial strings.Builder
	for _, line := range strings.Split(body, "\n") {
		var ev struct {
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil {
			partial.WriteString(ev.Delta.PartialJSON)
		}
	}
	if partial.String() != `{questions: [}` {
		t.Errorf("raw input streamed as %q", partial.String())
	}
}

func TestHangHeaders(t *testing.T) {
	srv := NewOpenAI(Turn{HangHeaders: true})
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/chat/completions", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	res, err := http.DefaultClient.Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("headers arrived: %d", res.StatusCode)
	}
	if ctx.Err() == nil {
		t.Errorf("the request failed before the client gave up: %v", err)
	}
	if n := len(srv.Requests()); n != 1 || srv.Requests()[0].Time.IsZero() {
		t.Errorf("requests = %d, want 1 with its time", n)
	}
}
