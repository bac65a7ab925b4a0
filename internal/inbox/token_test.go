package inbox

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// A token kept across restarts (askuser serve's) is the page's, and its
// cookie lasts, renewed by each page loaded, so a bookmark of the page
// works after the browser and askuser serve restart; a made-up token is
// refused before anything listens.
func TestKeptToken(t *testing.T) {
	tok := NewToken()
	if !ValidToken(tok) {
		t.Fatalf("NewToken made %q, which ValidToken refuses", tok)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("A", 32), strings.Repeat("g", 32), tok + "0"} {
		if ValidToken(bad) {
			t.Errorf("ValidToken(%q)", bad)
		}
	}
	if _, err := NewCard(NewBroker(), Options{Token: "not-a-token"}); err == nil {
		t.Error("a server started with a token that is not one")
	}
	s, err := NewCard(NewBroker(), Options{Token: tok})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if !strings.HasSuffix(s.URL(), "/?token="+tok) {
		t.Errorf("URL %s, want the kept token in it", s.URL())
	}
	g := visit(t, s)
	if g.cookie.MaxAge != keptCookieAge || g.cookie.Value == tok || g.cookie.Value != s.guard.session || g.cookie.SameSite != http.SameSiteLaxMode {
		t.Errorf("cookie %+v: want a value that is not the token, lasting %d s, sent with a link followed from a chat (Lax)", g.cookie, keptCookieAge)
	}
	// The same token on another port (a second serve given the same
	// token file) takes none of this one's cookies.
	twin, err := NewCard(NewBroker(), Options{Token: tok})
	if err != nil {
		t.Fatal(err)
	}
	defer twin.Close(context.Background())
	if twin.guard.session == s.guard.session || twin.guard.home == s.guard.home {
		t.Errorf("two servers with one token on two ports share a cookie value or a name")
	}
	// Restarted with the kept token on its port, the server takes the
	// cookie it gave: a bookmark outlives the restart.
	addr := strings.TrimPrefix(strings.Split(s.URL(), "/?")[0], "http://")
	s.Close(context.Background())
	again, err := NewCard(NewBroker(), Options{Token: tok, Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close(context.Background())
	if again.guard.session != g.cookie.Value {
		t.Errorf("restarted on %s with the kept token, the server does not take its cookie", addr)
	}
	g.s = again
	// A link from a chat carries no token: a browser without the cookie
	// is told how to get it.
	if res := g.do(g.req("GET", "/s/abc", nil)); res.Code != http.StatusForbidden ||
		!strings.Contains(res.Body.String(), "this browser has not opened this askuser serve yet. Open the URL askuser serve printed") {
		t.Errorf("a link opened without the cookie: %d %s", res.Code, res.Body)
	}
	res := g.get("/")
	if res.Code != http.StatusOK {
		t.Fatalf("status %d", res.Code)
	}
	if c := res.Result().Cookies(); len(c) != 1 || c[0].MaxAge != keptCookieAge {
		t.Errorf("a page loaded with the cookie did not renew it: %v", c)
	}
	// A server with a token of its own keeps to a browser session's cookie.
	own, err := NewCard(NewBroker(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close(context.Background())
	if g := visit(t, own); g.cookie.MaxAge != 0 || g.cookie.SameSite != http.SameSiteStrictMode {
		t.Errorf("a one-off token's cookie lasts %d s (%v), want the browser's session, Strict", g.cookie.MaxAge, g.cookie.SameSite)
	}
}
