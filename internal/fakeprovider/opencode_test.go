package fakeprovider

import (
	"strings"
	"testing"
)

// OpenCode's title request, as 1.18.33 sent it (trimmed): no tools, a
// title generator's system prompt, the prompt quoted.
const openCodeTitleBody = `{"model":"fake-model","stream":true,"stream_options":{"include_usage":true},"max_tokens":32000,"messages":[` +
	`{"role":"system","content":"You are a title generator. You output ONLY a thread title. Nothing else."},` +
	`{"role":"user","content":"Generate a title for this conversation:\n"},{"role":"user","content":"\"say hello\""}]}`

// TestOpenCodeTitleIsASideRequest: the title request is answered without
// taking the script's turn, whichever arrives first, and is kept apart
// from the model calls. Without it, the title took "only turn" and the
// real call got the 500 for a script run out.
func TestOpenCodeTitleIsASideRequest(t *testing.T) {
	srv := NewOpenAI(Turn{Text: "only turn"})
	defer srv.Close()
	res, body := post(t, srv.URL+"/chat/completions", openCodeTitleBody)
	if res.StatusCode != 200 || chatText(t, body) != TitleReply {
		t.Fatalf("title request: status %d, body %s", res.StatusCode, body)
	}
	res, body = post(t, srv.URL+"/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if res.StatusCode != 200 || chatText(t, body) != "only turn" {
		t.Fatalf("model call after the title: status %d, body %s", res.StatusCode, body)
	}
	if n, side := len(srv.Requests()), len(srv.SideRequests()); n != 1 || side != 1 || srv.Remaining() != 0 {
		t.Errorf("requests %d, side requests %d, turns left %d; want 1, 1, 0", n, side, srv.Remaining())
	}
	// A call without tools that is not a title request is a model call.
	srv2 := NewOpenAI()
	defer srv2.Close()
	if res, _ := post(t, srv2.URL+"/chat/completions", strings.Replace(openCodeTitleBody, "You are a title generator.", "You are helpful.", 1)); res.StatusCode != 500 {
		t.Errorf("a plain call without tools got %d, want the 500 of a script run out", res.StatusCode)
	}
}

// chatText joins the content deltas of a Chat Completions stream.
func chatText(t *testing.T, body string) string {
	t.Helper()
	var text strings.Builder
	for _, ev := range dataEvents(t, strings.ReplaceAll(body, "data: [DONE]", "")) {
		for _, c := range ev["choices"].([]any) {
			if s, ok := c.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
				text.WriteString(s)
			}
		}
	}
	return text.String()
}
