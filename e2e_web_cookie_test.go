// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// serve's cookie is worth nothing elsewhere. Its value is not the token,
// and opens no other askuser serve (one with another token, or the same
// token on another port); and a real browser that opened serve's printed
// URL sends nothing that opens serve to another server on this machine,
// where before every local server got the token in the cookie.

// firstVisit opens a printed URL as a program does (no Sec-Fetch-Mode)
// and returns the cookie it was given.
func firstVisit(t *testing.T, printed string) *http.Cookie {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(printed)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if len(res.Cookies()) != 1 {
		t.Fatalf("the first visit set %d cookies, want 1: %v", len(res.Cookies()), res.Cookies())
	}
	return res.Cookies()[0]
}

// opens reports whether cookie, sent under name to the server at base
// (http://127.0.0.1:PORT/), opens its first page.
func opens(t *testing.T, base, name, value string) bool {
	t.Helper()
	req, _ := http.NewRequest("GET", base, nil)
	req.AddCookie(&http.Cookie{Name: name, Value: value})
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

func TestServeCookieIsNotTheTokenAndOpensNoOtherServe(t *testing.T) {
	t.Parallel()
	stateA := filepath.Join(t.TempDir(), "a")
	a := startBackground(t, []string{"ASKUSER_STATE_DIR=" + stateA}, "serve").url(t)
	b := startBackground(t, []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "b")}, "serve").url(t)
	// The same token on another port: a --token-file shared by mistake.
	c := startBackground(t, []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "c")}, "serve",
		"--token-file", filepath.Join(stateA, "serve.token")).url(t)
	baseA, tokenA, _ := strings.Cut(a, "?token=")
	if _, tokenC, _ := strings.Cut(c, "?token="); tokenC != tokenA {
		t.Fatalf("serve with A's token file has another token: %s, %s", a, c)
	}
	cookie := firstVisit(t, a)
	if strings.Contains(cookie.Value, tokenA) || !cookie.HttpOnly || cookie.SameSite == http.SameSiteNoneMode || cookie.SameSite == 0 {
		t.Errorf("serve's cookie %+v: want HttpOnly, SameSite set, and a value that is not the token %s", cookie, tokenA)
	}
	if !opens(t, baseA, cookie.Name, cookie.Value) {
		t.Fatalf("serve's own cookie does not open serve")
	}
	for _, other := range []string{b, c} {
		base, _, _ := strings.Cut(other, "?")
		u, _ := url.Parse(base)
		own := "askuser_" + u.Port()
		if opens(t, base, own, cookie.Value) || opens(t, base, cookie.Name, cookie.Value) {
			t.Errorf("A's cookie opens the serve at %s", base)
		}
		if opens(t, base+"?token="+cookie.Value, own, "") {
			t.Errorf("A's cookie value, as a token, opens the serve at %s", base)
		}
	}
}

// cookieJarServer is a local server, as a dev server an agent started
// would be, that records every cookie a browser sends it.
type cookieJarServer struct {
	*httptest.Server
	mu  sync.Mutex
	got []*http.Cookie
}

func newCookieJarServer(t *testing.T) *cookieJarServer {
	s := &cookieJarServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.Cookies()...)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>dev server</title><p id="dev">a dev server</p>`))
	}))
	t.Cleanup(s.Close)
	return s
}

func TestServeCookieReachesNoOtherLocalServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		page string // what the first page shows
	}{
		{"serve", []string{"serve"}, `#waiting`},
		{"card", []string{"ask", "testdata/questions/database.json", "--frontend", "web"}, `form.set`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startBackground(t, []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}, tc.args...)
			printed := p.url(t)
			base, token, _ := strings.Cut(printed, "?token=")
			dev := newCookieJarServer(t)
			ctx := newBrowser(t, 1024, 768)
			err := chromedp.Do(ctx, chromedp.Navigate(printed), chromedp.WaitVisible(css(tc.page)))
			if err != nil {
				t.Fatalf("opening the printed URL: %v\nstderr: %s", err, p.stderr)
			}
			at, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
			if err != nil || strings.Contains(at, token) {
				t.Errorf("the page's address %q (%v) holds the token", at, err)
			}
			for _, u := range []string{dev.URL + "/", strings.Replace(dev.URL, "127.0.0.1", "localhost", 1) + "/"} {
				if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.WaitVisible(css(`#dev`))); err != nil {
					t.Fatalf("opening the dev server at %s: %v", u, err)
				}
			}
			dev.mu.Lock()
			got := dev.got
			dev.mu.Unlock()
			for _, c := range got {
				if c.Value == token || opens(t, base, c.Name, c.Value) {
					t.Errorf("the dev server received cookie %s=%s, which opens askuser", c.Name, c.Value)
				}
			}
			// serve's page still opens from a link without the token (a
			// chat's), in the browser that opened the printed URL.
			if tc.name == "serve" {
				if err := chromedp.Do(ctx, chromedp.Navigate(base), chromedp.WaitVisible(css(`#waiting`))); err != nil {
					page, _ := chromedp.Run(ctx, chromedp.Text(css(`body`)))
					t.Errorf("a link to %s without the token: %v\n%s", base, err, page)
				}
			}
		})
	}
}

// A browser that cannot open .localhost names (Safari before macOS 26;
// here Chromium told that no such name resolves) is not stranded: the
// check fails, and it stays on 127.0.0.1 with its cookie, as before.
func TestServeFallsBackWhereLocalhostNamesDoNotResolve(t *testing.T) {
	t.Parallel()
	p := startBackground(t, []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}, "serve")
	printed := p.url(t)
	base, token, _ := strings.Cut(printed, "?token=")
	ctx := newBrowserWith(t, 1024, 768, chromedp.Flag("host-resolver-rules", "MAP *.localhost ~NOTFOUND"))
	if err := chromedp.Do(ctx, chromedp.Navigate(printed), chromedp.WaitVisible(css(`#waiting`))); err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Text(css(`body`)))
		t.Fatalf("opening the printed URL: %v\n%s", err, page)
	}
	at, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil || at != base || strings.Contains(at, token) {
		t.Errorf("the browser is at %q (%v), want %s", at, err, base)
	}
}
