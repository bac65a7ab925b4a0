package fakeprovider

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// do sends a bodiless request and returns its status.
func do(t *testing.T, method, url string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestClaudeCodeSideRequests(t *testing.T) {
	srv := NewAnthropic(Turn{Text: "only turn"})
	defer srv.Close()
	if got := do(t, http.MethodHead, srv.URL+"/"); got != 200 {
		t.Errorf("HEAD / (2.1.197's warm-up) = %d, want 200", got)
	}
	if got := do(t, http.MethodHead, srv.URL+"/api/hello"); got != 200 {
		t.Errorf("HEAD /api/hello (2.1.330's check) = %d, want 200", got)
	}
	res, body := post(t, srv.URL+"/v1/messages/count_tokens?beta=true", anthropicBody)
	var count struct {
		InputTokens int `json:"input_tokens"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &count) != nil || count.InputTokens < 1 {
		t.Errorf("count_tokens = %d %s, want 200 with input_tokens", res.StatusCode, body)
	}
	if res, _ := post(t, srv.URL+"/v1/messages/count_tokens", "{"); res.StatusCode != 400 {
		t.Errorf("count_tokens with a broken body = %d, want 400", res.StatusCode)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("side requests were recorded as %d model calls", n)
	}
	if srv.Remaining() != 1 {
		t.Errorf("side requests took turns: %d remaining, want 1", srv.Remaining())
	}
	var paths []string
	for _, r := range srv.SideRequests() {
		paths = append(paths, r.Method+" "+r.Path)
	}
	want := []string{"HEAD /", "HEAD /api/hello", "POST /v1/messages/count_tokens", "POST /v1/messages/count_tokens"}
	if !slices.Equal(paths, want) {
		t.Errorf("side requests = %q, want %q", paths, want)
	}
	// The model call path carries Claude Code's query string.
	if res, body := post(t, srv.URL+"/v1/messages?beta=true", anthropicBody); res.StatusCode != 200 || !strings.Contains(body, "event: message_stop") {
		t.Errorf("/v1/messages?beta=true = %d %s", res.StatusCode, body)
	}
}

func TestOpenAIHasNoSideRequests(t *testing.T) {
	srv := NewOpenAI(Turn{Text: "x"})
	defer srv.Close()
	if got := do(t, http.MethodHead, srv.URL+"/"); got != 404 {
		t.Errorf("HEAD / on the OpenAI fake = %d, want 404", got)
	}
	if len(srv.SideRequests()) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("side %d, requests %d: want the HEAD recorded as a rejected request", len(srv.SideRequests()), len(srv.Requests()))
	}
}

func TestAfterToolResult(t *testing.T) {
	srv := NewAnthropic(Turn{Text: "a"}, Turn{Text: "b"})
	defer srv.Close()
	// The two envelopes Claude Code uses for a hook's additionalContext.
	post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"AskUserQuestion","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"answered"},
			{"type":"text","text":"<system-reminder>\nctx one\n</system-reminder>"}]}]}`)
	post(t, srv.URL+"/v1/messages", `{"model":"m","stream":true,"messages":[
		{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"AskUserQuestion","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"answered"}]},
		{"role":"system","content":"ctx two"}]}`)
	got, ok := srv.After("t1")
	if want := []string{"user: <system-reminder>\nctx one\n</system-reminder>"}; !ok || !slices.Equal(got, want) {
		t.Errorf("After(t1) = %q %v, want %q", got, ok, want)
	}
	got, ok = srv.After("t2")
	if want := []string{"system: ctx two"}; !ok || !slices.Equal(got, want) {
		t.Errorf("After(t2) = %q %v, want %q", got, ok, want)
	}
	if got, ok := srv.After("t3"); ok {
		t.Errorf("After(t3) = %q, found a tool result never sent", got)
	}
}
