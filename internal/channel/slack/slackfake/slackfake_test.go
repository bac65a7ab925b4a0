package slackfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// call posts a form to the fake's Web API and returns Slack's answer.
func call(t *testing.T, s *Server, method string, form url.Values) map[string]any {
	t.Helper()
	resp, err := http.PostForm(s.URL+method, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The fake refuses what Slack refuses: the wrong token, the other kind
// of token, blocks over Block Kit's limits.
func TestFakeRefusesAsSlackDoes(t *testing.T) {
	s := NewServer(Config{})
	defer s.Close()
	section := func(n int) string {
		b, _ := json.Marshal([]obj{{"type": "section", "text": obj{"type": "mrkdwn", "text": strings.Repeat("x", n)}}})
		return string(b)
	}
	for _, tc := range []struct {
		name, method string
		form         url.Values
		want         string
	}{
		{"no token", "chat.postMessage", url.Values{"channel": {Channel}, "text": {"hi"}}, "not_authed"},
		{"wrong token", "chat.postMessage", url.Values{"token": {"xoxb-nope"}, "channel": {Channel}, "text": {"hi"}}, "invalid_auth"},
		{"app token for a bot method", "chat.postMessage", url.Values{"token": {s.AppToken()}, "channel": {Channel}, "text": {"hi"}}, "not_allowed_token_type"},
		{"bot token for Socket Mode", "apps.connections.open", url.Values{"token": {s.BotToken()}}, "not_allowed_token_type"},
		{"a section over 3,000", "chat.postMessage", url.Values{"token": {s.BotToken()}, "channel": {Channel}, "blocks": {section(3001)}}, "invalid_blocks"},
		{"unknown channel", "chat.postMessage", url.Values{"token": {s.BotToken()}, "channel": {"C0NONE"}, "text": {"hi"}}, "channel_not_found"},
		{"update of nothing", "chat.update", url.Values{"token": {s.BotToken()}, "channel": {Channel}, "ts": {"1.2"}, "text": {"hi"}}, "message_not_found"},
	} {
		out := call(t, s, tc.method, tc.form)
		if out["ok"] != false || out["error"] != tc.want {
			t.Errorf("%s: %v, want error %s", tc.name, out, tc.want)
		}
	}
	if out := call(t, s, "chat.postMessage", url.Values{"token": {s.BotToken()}, "channel": {Channel}, "blocks": {section(3000)}}); out["ok"] != true {
		t.Errorf("a section of 3,000 characters was refused: %v", out)
	}
}
