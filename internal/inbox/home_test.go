package inbox

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// navigate is a browser's page load of target at host.
func (g *cardRig) navigate(host, target string, headers ...string) *http.Response {
	r := g.req("GET", target, nil)
	r.Host = host
	r.Header.Set("Sec-Fetch-Mode", "navigate")
	r.Header.Set("Sec-Fetch-Dest", "document")
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	return g.do(r).Result()
}

var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// TestBrowserMovesToTheServersOwnName: a browser's first visit to the
// printed URL on 127.0.0.1 is moved, with the token, to the server's own
// name under .localhost, where the cookie is set; nothing is set on
// 127.0.0.1, whose cookies every local server gets. The page that moves it
// runs only its own script (its hash), loads the probe from the name
// alone, and notes the name for 127.0.0.1's links in that origin's
// storage.
func TestBrowserMovesToTheServersOwnName(t *testing.T) {
	g := newCardRig(t)
	home := g.s.guard.home
	if !regexp.MustCompile(`^askuser-[0-9a-f]{16}\.localhost$`).MatchString(home) || strings.Contains(home, g.s.guard.token[:16]) {
		t.Fatalf("the home name %q", home)
	}
	port := g.s.guard.port
	homeBase := "http://" + home + ":" + port
	res := g.navigate(g.host, "/?token="+g.s.guard.token)
	body := readAll(t, res)
	if res.StatusCode != http.StatusOK || len(res.Cookies()) != 0 || !strings.Contains(body, `data-to="`+homeBase+`/?token=`+g.s.guard.token+`"`) ||
		!strings.Contains(body, `data-key="askuser-home-`+port+`"`) {
		t.Fatalf("first visit: status %d, cookies %v:\n%s", res.StatusCode, res.Cookies(), body)
	}
	csp := res.Header.Get("Content-Security-Policy")
	m := inlineScript.FindStringSubmatch(body)
	sum := sha256.Sum256([]byte(m[1]))
	if !strings.Contains(csp, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") || !strings.Contains(csp, "img-src "+homeBase+";") ||
		strings.Contains(csp, "unsafe") {
		t.Errorf("the moving page's policy %q does not allow its script alone", csp)
	}

	// The probe answers at the name, to anyone; elsewhere it is a page
	// like any other.
	probe := g.navigate(home+":"+port, probePath)
	if probe.StatusCode != http.StatusOK || probe.Header.Get("Content-Type") != "image/gif" || probe.Header.Get("Cross-Origin-Resource-Policy") != "cross-origin" {
		t.Errorf("the probe at the name: %d %v", probe.StatusCode, probe.Header)
	}
	if res := g.do(g.req("GET", probePath, nil)); res.Code != http.StatusForbidden {
		t.Errorf("the probe on 127.0.0.1 without the cookie: %d, want 403", res.Code)
	}

	// At the name, come from 127.0.0.1's page: the cookie, and a page that
	// reloads without the token (a Strict cookie stays behind a redirect
	// from another site).
	res = g.navigate(home+":"+port, "/?token="+g.s.guard.token, "Sec-Fetch-Site", "cross-site")
	body = readAll(t, res)
	if res.StatusCode != http.StatusOK || len(res.Cookies()) != 1 || res.Cookies()[0].Value != g.s.guard.session ||
		!strings.Contains(body, `<meta http-equiv="refresh" content="0;url=/">`) {
		t.Errorf("at the name with the token: %d %v\n%s", res.StatusCode, res.Cookies(), body)
	}
	r := g.req("GET", "/", nil)
	r.Host = home + ":" + port
	r.AddCookie(res.Cookies()[0])
	if res := g.do(r); res.Code != http.StatusOK {
		t.Errorf("at the name with the cookie: %d", res.Code)
	}

	// A browser that cannot reach the name comes back with here=1, and
	// keeps its cookie on 127.0.0.1.
	res = g.navigate(g.host, "/s/x?token="+g.s.guard.token+"&here=1")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/s/x" || len(res.Cookies()) != 1 {
		t.Errorf("here=1: %d %v %v", res.StatusCode, res.Header, res.Cookies())
	}

	// A link to 127.0.0.1 without the token: the page that goes to the
	// name noted, if any; it names none itself.
	res = g.navigate(g.host, "/s/x")
	body = readAll(t, res)
	if res.StatusCode != http.StatusForbidden || strings.Contains(body, home) || !strings.Contains(body, `data-key="askuser-home-`+port+`"`) {
		t.Errorf("a link without the token: %d\n%s", res.StatusCode, body)
	}
	m = inlineScript.FindStringSubmatch(body)
	sum = sha256.Sum256([]byte(m[1]))
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("the bounce page's policy %q does not allow its script", csp)
	}
}

// TestBehindAProxyNothingMoves: through a reverse proxy the browser is not
// on this machine: the cookie stays on the name it came to, and over
// https it is Secure and __Host-.
func TestBehindAProxyNothingMoves(t *testing.T) {
	g := newCardRig(t)
	res := g.navigate(g.host, "/?token="+g.s.guard.token, "X-Forwarded-Proto", "https", "X-Forwarded-For", "203.0.113.7")
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 {
		t.Fatalf("through a proxy: %d %v", res.StatusCode, res.Cookies())
	}
	c := res.Cookies()[0]
	if c.Name != "__Host-"+g.s.guard.cookie || !c.Secure || c.Value != g.s.guard.session || c.Path != "/" || c.Domain != "" {
		t.Errorf("the cookie over https: %+v", c)
	}
	r := g.req("GET", "/", nil)
	r.AddCookie(c)
	if res := g.do(r); res.Code != http.StatusOK {
		t.Errorf("with the __Host- cookie: %d", res.Code)
	}
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
