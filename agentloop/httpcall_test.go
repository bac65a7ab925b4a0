package agentloop

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The wire pieces of the OpenAI-compatible provider that the fake's
// scripted turns do not reach.

// Events as servers write them: comments, other fields, CRLF line ends,
// data split over lines, blank lines between and around, and an event
// left unfinished when the stream ends, which is dropped.
func TestSSEReader(t *testing.T) {
	stream := ": keep-alive\r\n\r\nevent: chunk\r\nid: 7\r\ndata: {\"a\":1}\r\n\r\n\n\ndata:{\"b\":\r\ndata:  2}\n\ndata: [DONE]\n\ndata: {\"cut\":"
	r := newSSEReader(strings.NewReader(stream))
	var got []string
	for {
		data, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(data))
	}
	want := []string{"{\"a\":1}\n", "{\"b\":\n 2}\n", "[DONE]\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
}

// A line longer than any event could be is a malformed stream, said as
// such, not a read error to retry.
func TestSSEReaderLineTooLong(t *testing.T) {
	r := newSSEReader(io.MultiReader(strings.NewReader("data: "), strings.NewReader(strings.Repeat("x", maxEventLine+1))))
	_, err := r.next()
	var bad *malformedError
	if !errors.As(err, &bad) {
		t.Errorf("error %v, want a malformed stream", err)
	}
}

// The endpoint is under the base URL, whether it ends in a slash or not,
// and keeps its query.
func TestOpenAIEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"http://localhost:11434/v1":       "http://localhost:11434/v1/chat/completions",
		"http://localhost:11434/v1/":      "http://localhost:11434/v1/chat/completions",
		"https://example.test/api/v1?x=1": "https://example.test/api/v1/chat/completions?x=1",
		"":                                "/chat/completions",
	} {
		if got := openaiEndpoint(base); got != want {
			t.Errorf("openaiEndpoint(%q) = %q, want %q", base, got, want)
		}
	}
	if p := NewOpenAI(ProviderConfig{}); p.url != "https://api.openai.com/v1/chat/completions" {
		t.Errorf("default endpoint %q", p.url)
	}
}

// OpenAI's own API gets max_completion_tokens, which its current models
// need; a compatible server gets max_tokens (TestOpenAIFullExchange).
func TestOpenAIOwnAPITokenCap(t *testing.T) {
	body, err := json.Marshal(NewOpenAI(ProviderConfig{MaxTokens: 77}).params(firstRequest()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"max_completion_tokens":77`) || strings.Contains(string(body), `"max_tokens"`) {
		t.Errorf("request to OpenAI's API: %s", body)
	}
}

// A chunk whose error is null is a chunk, not an error; one with an error
// object or string is the server's error.
func TestOpenAIErrorInChunk(t *testing.T) {
	for _, c := range []struct {
		line, err string
	}{
		{`{"id":"a","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}],"error":null}`, ""},
		{`{"error":{"message":"slow down","type":"rate_limit_exceeded","code":"429"}}`, "slow down (rate_limit_exceeded in the event stream)"},
		{`{"error":"model crashed"}`, "model crashed (server_error in the event stream)"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("content-type", "text/event-stream")
			_, _ = io.WriteString(w, "data: "+c.line+"\n\ndata: [DONE]\n\n")
		}))
		resp, err := NewOpenAI(ProviderConfig{BaseURL: srv.URL, MaxRetries: -1}).Complete(providerCtx(t), firstRequest(), nil)
		srv.Close()
		switch {
		case c.err == "" && (err != nil || resp.Message.Text() != "Hi"):
			t.Errorf("%s: reply %q, error %v", c.line, resp.Message.Text(), err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.line, err, c.err)
		}
	}
}
