package inbox

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestTokenRequired(t *testing.T) {
	g := newCardRig(t)
	for _, tc := range []struct {
		name   string
		target string
		cookie *http.Cookie
	}{
		{"no token", "/", nil},
		{"no token, asset", "/assets/page.js", nil},
		{"no token, events", "/events", nil},
		{"wrong token", "/?token=" + strings.Repeat("0", 32), nil},
		{"token of another length", "/?token=x", nil},
		{"wrong cookie", "/", &http.Cookie{Name: g.cookie.Name, Value: strings.Repeat("f", 32)}},
		{"cookie of another port", "/", &http.Cookie{Name: "askuser_1", Value: g.cookie.Value}},
	} {
		r := g.req("GET", tc.target, nil)
		if tc.cookie != nil {
			r.AddCookie(tc.cookie)
		}
		res := g.do(r)
		if res.Code != http.StatusForbidden || strings.Contains(res.Body.String(), "<form") {
			t.Errorf("%s: status %d, want 403 and nothing of the page", tc.name, res.Code)
		}
		if c := res.Result().Cookies(); len(c) > 0 {
			t.Errorf("%s: a refused request got a cookie: %v", tc.name, c)
		}
	}
	// The first visit's cookie: HttpOnly, SameSite=Strict, a value that is
	// not the token, and the page is reloaded without the token in the
	// address.
	if !g.cookie.HttpOnly || g.cookie.SameSite != http.SameSiteStrictMode || g.cookie.Value != g.s.guard.session ||
		strings.Contains(g.cookie.Value, g.s.guard.token) {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, the session value, not the token", g.cookie)
	}
	r := g.req("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: g.cookie.Name, Value: g.s.guard.token})
	if res := g.do(r); res.Code != http.StatusForbidden {
		t.Errorf("the token as the cookie: status %d, want 403", res.Code)
	}
	res := g.do(g.req("GET", g.s.URL(), nil))
	if loc := res.Header().Get("Location"); loc != "/" {
		t.Errorf("first visit redirects to %q, want / (without the token)", loc)
	}
	for path, want := range map[string]string{"/s/abc": "/s/abc", "//attacker.example/x": "/", "/\\attacker.example": "/"} {
		r := g.req("GET", "/?token="+g.s.guard.token, nil)
		r.URL.Path = path
		if loc := g.do(r).Header().Get("Location"); loc != want {
			t.Errorf("first visit to %q redirects to %q, want %q", path, loc, want)
		}
	}
	if res := g.get("/"); res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "No questions yet") {
		t.Errorf("with the cookie: status %d, want 200 and the page", res.Code)
	}
	if res := g.get("/assets/page.css"); res.Code != http.StatusOK || res.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("asset with the cookie: status %d, type %q", res.Code, res.Header().Get("Content-Type"))
	}
	if res := g.get("/assets/missing.js"); res.Code != http.StatusNotFound {
		t.Errorf("missing asset: status %d, want 404", res.Code)
	}
}

func TestSecurityHeaders(t *testing.T) {
	g := newCardRig(t)
	for _, path := range []string{"/", "/assets/page.js", "/nowhere"} {
		h := g.get(path).Header()
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: Content-Security-Policy %q lacks %s", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: Content-Security-Policy allows inline code: %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", path, h)
		}
	}
	// No inline script or style anywhere on the page.
	body := g.get("/").Body.String()
	if strings.Contains(body, "<script>") || strings.Contains(body, "style=") || strings.Contains(body, "onclick") {
		t.Errorf("the page has inline script or style:\n%s", body)
	}
}

// A DNS name rebound to 127.0.0.1 reaches the port with its own Host: a
// loopback server refuses it, token or not.
func TestLoopbackHostOnly(t *testing.T) {
	g := newCardRig(t)
	r := g.req("GET", "/", nil)
	r.Host = "attacker.example:80"
	r.AddCookie(g.cookie)
	if res := g.do(r); res.Code != http.StatusForbidden {
		t.Errorf("foreign Host: status %d, want 403", res.Code)
	}
	for _, h := range []string{"localhost:1", "[::1]:8080", "127.0.0.2:9"} {
		if !loopbackHost(h) {
			t.Errorf("%s should count as loopback", h)
		}
	}
}

func TestCSRF(t *testing.T) {
	g := newCardRig(t)
	ch := g.ask(context.Background(), authSet("toolu_1"))
	key := setKey("toolu_1")
	good := url.Values{"q0": {"1"}, "q1": {"0"}}
	for _, tc := range []struct {
		name  string
		code  int
		tweak func(r *http.Request)
	}{
		{"cross-site fetch", 403, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }},
		{"foreign origin", 403, func(r *http.Request) {
			r.Header.Del("Sec-Fetch-Site")
			r.Header.Set("Origin", "http://attacker.example")
		}},
		{"no form token", 403, func(r *http.Request) {
			r.Body = http.NoBody
			r.ContentLength = 0
		}},
		{"no cookie", 403, func(r *http.Request) { r.Header.Del("Cookie") }},
		{"text/plain", 415, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }},
	} {
		body := url.Values{"q0": good["q0"], "q1": good["q1"], "csrf": {g.s.guard.csrf}}
		r := g.req("POST", "/answer/"+key, strings.NewReader(body.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		r.AddCookie(g.cookie)
		tc.tweak(r)
		if res := g.do(r); res.Code != tc.code {
			t.Errorf("%s: status %d, want %d", tc.name, res.Code, tc.code)
		}
	}
	wrong := url.Values{"q0": {"1"}, "csrf": {strings.Repeat("0", 32)}}
	if res := g.post("/answer/"+key, wrong); res.Code != http.StatusForbidden {
		t.Errorf("wrong form token: status %d, want 403", res.Code)
	}
	select {
	case r := <-ch:
		t.Fatalf("a refused post answered the set: %+v", r)
	default:
	}
	if res := g.post("/answer/"+key, good); res.Code != http.StatusOK {
		t.Fatalf("the page's own post: status %d: %s", res.Code, res.Body)
	}
	waitAsked(t, ch)
}

func TestRequestSizes(t *testing.T) {
	g := newCardRig(t)
	ch := g.ask(context.Background(), authSet("toolu_1"))
	form := url.Values{"q0": {"1"}, "q1": {"0"}, "q0.other": {strings.Repeat("x", MaxBodyBytes)}}
	if res := g.post("/answer/"+setKey("toolu_1"), form); res.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized form: status %d, want 413", res.Code)
	}
	select {
	case r := <-ch:
		t.Fatalf("an oversized post answered the set: %+v", r)
	default:
	}
	// An oversized header is refused by the server itself (over loopback).
	r, _ := http.NewRequest("GET", "http://"+g.host+"/", nil)
	r.AddCookie(g.cookie)
	r.Header.Set("X-Big", string(bytes.Repeat([]byte("a"), 2*maxHeaderBytes)))
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized header: status %d, want 431", res.StatusCode)
	}
	// A free-text answer at the cap still fits.
	form = url.Values{"q0": {"other"}, "q0.other": {strings.Repeat("ü", 2000)}, "q1": {"0"}}
	if res := g.post("/answer/"+setKey("toolu_1"), form); res.Code != http.StatusOK {
		t.Errorf("an answer at the free-text cap: status %d: %s", res.Code, res.Body)
	}
	waitAsked(t, ch)
}

func TestListenAddresses(t *testing.T) {
	var warn bytes.Buffer
	s, err := NewCard(NewBroker(), Options{Listen: "0.0.0.0:0", Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if !strings.Contains(warn.String(), "is not a loopback address") || !strings.Contains(warn.String(), "has the token") {
		t.Errorf("non-loopback warning: %q", warn.String())
	}
	if s.guard.loopback {
		t.Error("0.0.0.0 treated as loopback: other machines' Host headers would be refused")
	}
	warn.Reset()
	l, err := NewCard(NewBroker(), Options{Listen: "localhost:0", Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(context.Background())
	if warn.Len() > 0 || !strings.HasPrefix(l.URL(), "http://localhost:") {
		t.Errorf("localhost: warning %q, URL %s", warn.String(), l.URL())
	}
	if _, err := NewCard(NewBroker(), Options{Listen: "8080"}); err == nil || !strings.Contains(err.Error(), "give HOST:PORT") {
		t.Errorf("a port alone: got %v, want an error saying HOST:PORT", err)
	}
}
