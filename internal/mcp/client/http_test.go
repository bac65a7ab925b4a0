package client

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask/asktest"
)

// httpFixture serves the fixture server over streamable HTTP on
// loopback and records the Authorization headers it receives.
func httpFixture(t *testing.T, opts *mcp.StreamableHTTPOptions) (url string, auth func() []string) {
	t.Helper()
	srv := fixtureServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	var mu sync.Mutex
	var seen []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

func TestStreamableHTTP(t *testing.T) {
	for _, jsonReplies := range []bool{false, true} {
		name := "event-stream replies"
		if jsonReplies {
			name = "JSON replies"
		}
		t.Run(name, func(t *testing.T) {
			url, auth := httpFixture(t, &mcp.StreamableHTTPOptions{JSONResponse: jsonReplies})
			c, errs := start(t, Options{}, ServerConfig{Name: "web", Transport: TransportHTTP, URL: url,
				Headers: map[string]string{"Authorization": "Bearer t0k"}, Source: "test"})
			if len(errs) > 0 {
				t.Fatal(errs[0])
			}
			echo := tool(t, c, "mcp__web__echo").Spec()
			if !strings.HasPrefix(string(echo.InputSchema), `{"type":"object","properties":{"zebra"`) {
				t.Errorf("schema %s; want the server's key order", echo.InputSchema)
			}
			if r := call(t, c, "mcp__web__echo", `{"text":"over http"}`); r.Content != "echo: over http" {
				t.Errorf("echo: %+v", r)
			}
			for _, a := range auth() {
				if a != "Bearer t0k" {
					t.Fatalf("a request came with Authorization %q; want every request to carry the configured header", a)
				}
			}
			if len(auth()) < 2 {
				t.Errorf("%d requests seen", len(auth()))
			}
			if jsonReplies {
				return // the server cannot ask its own questions without a stream
			}
			fe := asktest.New(t)
			fe.Expect("toolu_1.elicit.1").Choose("Staging").Other("2").Choose("Yes")
			out, res := runLoop(t, c, fe, "mcp__web__elicit", `{}`)
			if out.Status != agentloop.StatusSuccess || res == nil || !strings.HasPrefix(res.Content, `action=accept content={"env":"stg","notify":true,"replicas":2}`) {
				t.Fatalf("outcome %s (%v), result %+v", out.Status, out.Err, res)
			}
			if hs := fe.Asked()[0].Questions; hs[1].Header != "Replicas" {
				t.Errorf("over HTTP the form's order was lost: %+v", hs)
			}
		})
	}
}

func TestAnHTTPServerThatIsNotThere(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	_, errs := start(t, Options{}, ServerConfig{Name: "gone", Transport: TransportHTTP, URL: url + "/mcp", Source: "test"})
	if len(errs) != 1 || !errors.Is(errs[0], ErrStart) || !strings.Contains(errs[0].Error(), `mcp server "gone": did not start: it did not answer initialize`) {
		t.Fatalf("errors %v", errs)
	}
}

func TestRepliesAreBounded(t *testing.T) {
	body := &boundedBody{r: io.NopCloser(strings.NewReader(strings.Repeat("x", 100))), left: 10, limit: 10, tap: newRawSchemas().tap()}
	_, err := io.ReadAll(body)
	if !errors.Is(err, errTooLarge) {
		t.Fatalf("error %v; want errTooLarge", err)
	}
	exact := &boundedBody{r: io.NopCloser(bytes.NewReader(make([]byte, 10))), left: 10, limit: 10}
	if b, err := io.ReadAll(exact); err != nil || len(b) != 10 {
		t.Fatalf("a reply of exactly the bound: %d bytes, %v", len(b), err)
	}
}
