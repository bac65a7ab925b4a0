package inbox

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// cardRig is a Broker and its Server, driven through the server's handler
// as a browser that has visited the printed URL would.
type cardRig struct {
	t      *testing.T
	b      *Broker
	s      *Server
	host   string
	cookie *http.Cookie
}

func newCardRig(t *testing.T) *cardRig {
	t.Helper()
	b := NewBroker()
	s, err := NewCard(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s.Close(ctx)
	})
	g := visit(t, s)
	g.b = b
	return g
}

// visit opens the server's printed URL as a browser does and keeps the
// cookie it gets.
func visit(t *testing.T, s *Server) *cardRig {
	t.Helper()
	u, _ := url.Parse(s.URL())
	g := &cardRig{t: t, s: s, host: u.Host}
	res := g.do(g.req("GET", s.URL(), nil))
	if res.Code != http.StatusSeeOther {
		t.Fatalf("first visit with the token: status %d, want 303", res.Code)
	}
	for _, c := range res.Result().Cookies() {
		g.cookie = c
	}
	if g.cookie == nil {
		t.Fatal("first visit set no cookie")
	}
	return g
}

// req builds a request to the server's own host.
func (g *cardRig) req(method, target string, body io.Reader) *http.Request {
	r := httptest.NewRequest(method, target, body)
	r.Host = g.host
	return r
}

func (g *cardRig) do(r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	g.s.Handler().ServeHTTP(w, r)
	return w
}

// get fetches path with the cookie.
func (g *cardRig) get(path string) *httptest.ResponseRecorder {
	r := g.req("GET", path, nil)
	r.AddCookie(g.cookie)
	return g.do(r)
}

// post posts form to path as the page's script does: with the cookie, the
// form token, and the headers a same-origin fetch carries.
func (g *cardRig) post(path string, form url.Values) *httptest.ResponseRecorder {
	g.t.Helper()
	if form.Get("csrf") == "" {
		form.Set("csrf", g.s.guard.csrf)
	}
	r := g.req("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set("X-Askuser-Fetch", "1")
	r.AddCookie(g.cookie)
	return g.do(r)
}

type asked struct {
	answers []ask.Answer
	err     error
}

// ask puts req to the broker in the background and waits for its card.
func (g *cardRig) ask(ctx context.Context, req ask.Request) <-chan asked {
	g.t.Helper()
	ch := make(chan asked, 1)
	go func() {
		a, err := g.b.Ask(ctx, req)
		ch <- asked{a, err}
	}()
	if !g.cardShown(setKey(req.ID)) {
		g.t.Fatalf("set %s never showed as a card", req.ID)
	}
	return ch
}

// cardShown waits until the set at key shows as a card, for at most 5 s,
// and reports whether it did. It may be called from any goroutine.
func (g *cardRig) cardShown(key string) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, ok := g.b.view(key, ""); ok {
			return true
		}
	}
	return false
}

func waitAsked(t *testing.T, ch <-chan asked) asked {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return")
		return asked{}
	}
}

// authSet is the design notes' example: one single-select question with a
// recommended option, one multi-select.
func authSet(id string) ask.Request {
	return ask.Request{ID: id, Questions: []ask.Question{
		{Question: "Which authentication method should we use?", Header: "Auth Method", Options: []ask.Option{
			{Label: "OAuth 2.0 (Recommended)", Description: "Industry standard"},
			{Label: "JWT", Description: "Stateless tokens"},
			{Label: "Session-based", Description: "Cookie sessions"}}},
		{Question: "Which OAuth providers should we support?", Header: "Providers", MultiSelect: true, Options: []ask.Option{
			{Label: "Google", Description: "Most widely used"},
			{Label: "GitHub", Description: "Developer tools"},
			{Label: "Microsoft", Description: "Enterprise"}}},
	}}
}

func mustContain(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}
