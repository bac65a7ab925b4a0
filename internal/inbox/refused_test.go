package inbox

import (
	"net/http"
	"strings"
	"testing"
)

// A person's browser that is refused a page (a chat's link opened before
// the browser has the cookie) gets the message on a page styled as the
// rest, whose stylesheet loads without the cookie; a script or curl gets
// the plain text, and nothing else of serve loads without the cookie.
func TestRefusedPageIsStyled(t *testing.T) {
	g := newCardRig(t)
	// A navigation away from serve's own name gets the page that moves
	// the browser there (with its one script); a browser that does not
	// say it navigates, the refusal alone.
	for _, navigate := range []bool{true, false} {
		r := g.req("GET", "/s/0123456789abcdef", nil)
		r.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
		if navigate {
			r.Header.Set("Sec-Fetch-Mode", "navigate")
		}
		res := g.do(r)
		body := res.Body.String()
		if res.Code != http.StatusForbidden || !strings.HasPrefix(res.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("navigate %v: status %d, type %q; want 403 and a page", navigate, res.Code, res.Header().Get("Content-Type"))
		}
		for _, want := range []string{`<link rel="stylesheet" href="/assets/page.css">`, `class="top"`, `class="panel refused"`, "his page needs the token"} {
			if !strings.Contains(body, want) {
				t.Errorf("navigate %v: the refused page lacks %s:\n%s", navigate, want, body)
			}
		}
		if strings.Contains(body, "<form") || (!navigate && strings.Contains(body, "<script")) {
			t.Errorf("navigate %v: the refused page carries a form or a script:\n%s", navigate, body)
		}
		if csp := res.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self'") {
			t.Errorf("navigate %v: the page's stylesheet is not allowed: %s", navigate, csp)
		}
	}
	if res := g.do(g.req("GET", "/assets/page.css", nil)); res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "--bg") {
		t.Errorf("the stylesheet without the cookie: status %d", res.Code)
	}
	for _, path := range []string{"/assets/page.js", "/assets/page.css/x", "/assets/../s/x"} {
		if res := g.do(g.req("GET", path, nil)); res.Code == http.StatusOK {
			t.Errorf("%s loaded without the cookie", path)
		}
	}
	plain := g.req("GET", "/s/0123456789abcdef", nil)
	plain.Header.Set("Accept", "*/*")
	if res := g.do(plain); !strings.HasPrefix(res.Header().Get("Content-Type"), "text/plain") || !strings.HasPrefix(res.Body.String(), "askuser: this page needs the token") {
		t.Errorf("curl's refusal: %q %q", res.Header().Get("Content-Type"), res.Body.String())
	}
}
