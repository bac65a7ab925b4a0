package inbox

import (
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/askuser/askuser/internal/inbox/page"
)

// A server's own host name. Browsers keep cookies apart by host name, not
// by port: a cookie of 127.0.0.1:8765 goes to every server on 127.0.0.1,
// a dev server an agent started included, which could then answer the
// questions with it. So a server on loopback has a name of its own,
// askuser-<16 hex digits>.localhost, which a browser resolves to this
// machine by itself (Chrome, Firefox, Edge; RFC 6761), and which no other
// server is reached by:
//   - the name is derived from the token (homeName): a page that does not
//     hold the token cannot learn it, so cannot send the browser to
//     another port under it, where the cookie would go too;
//   - the printed URL stays http://127.0.0.1:PORT/?token=…, which every
//     client opens. A browser's first visit (a navigation: Sec-Fetch-Mode)
//     gets a page that checks the browser reaches the name (a 1×1 image,
//     askuser-probe.gif), notes the name in 127.0.0.1:PORT's own storage,
//     and moves the browser there with the token, where the cookie is
//     set; a browser that cannot (Safari before macOS 26) is moved back
//     with here=1 and keeps its cookie on 127.0.0.1, as before. Programs
//     (no Sec-Fetch-Mode) get the cookie where they asked;
//   - a link to 127.0.0.1 without the token (serve.url, a chat, a
//     notification) opened in such a browser finds no cookie there: it
//     gets a page whose script reads where the browser was moved last,
//     kept in 127.0.0.1:PORT's own storage (which, unlike cookies, no
//     other port reads), and goes there;
//   - behind a reverse proxy (Forwarded, X-Forwarded-*), the browser is
//     not on this machine: nothing moves, and the cookie stays on the
//     proxy's name.
// Wherever it is kept, the cookie's value is not the token (derive): it
// opens this server only, and shows nothing of the token.

// homeName is the host name of a server on loopback with token tok and
// port.
func homeName(tok, port string) string {
	return "askuser-" + derive(tok, "askuser host", port)[:16] + ".localhost"
}

// probePath answers at the home name, with no token: a page on 127.0.0.1
// loads it to learn whether the browser reaches the name.
const probePath = "/askuser-probe.gif"

// probeGIF is a transparent 1×1 GIF.
var probeGIF = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// homeKey is where the 127.0.0.1 origin's storage keeps the home's URL.
func (g *guard) homeKey() string { return "askuser-home-" + g.port }

// homeBase is the home's URL, without a path.
func (g *guard) homeBase() string { return "http://" + net.JoinHostPort(g.home, g.port) }

// atHome reports whether r came to the home name.
func (g *guard) atHome(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return g.home != "" && strings.EqualFold(host, g.home)
}

// mayMove reports whether r is a browser's page load on this machine,
// not at the home name: one to move there.
func (g *guard) mayMove(r *http.Request) bool {
	return g.home != "" && !g.atHome(r) && r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate" &&
		r.Header.Get("Sec-Fetch-Dest") != "iframe" && !proxied(r)
}

// proxied reports whether r came through a reverse proxy.
func proxied(r *http.Request) bool {
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

// serveProbe answers probePath at the home name.
func (g *guard) serveProbe(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != probePath || r.Method != http.MethodGet || !g.atHome(r) {
		return false
	}
	w.Header().Set("Cross-Origin-Resource-Policy", "cross-origin") // loaded by the page on 127.0.0.1
	w.Header().Set("Content-Type", "image/gif")
	_, _ = w.Write(probeGIF)
	return true
}

// moveHome answers a browser's first visit, token valid, away from the
// home name: a page that checks the browser reaches the name, and moves
// it there, or back here with here=1. It reports whether it answered.
func (g *guard) moveHome(w http.ResponseWriter, r *http.Request) bool {
	if !g.mayMove(r) || r.URL.Query().Get("here") != "" {
		return false
	}
	path := localPath(r.URL.Path)
	d := page.MoveData{To: g.homeBase() + path + "?token=" + g.token, Here: path + "?token=" + g.token + "&here=1",
		Home: g.homeBase(), Probe: g.homeBase() + probePath, Key: g.homeKey()}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src '"+page.MoveScriptHash+"'; img-src "+g.homeBase()+
		"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	writeHome(w, http.StatusOK, "move", d)
	return true
}

// reloadWithoutToken answers a GET that brought the token, the cookie set:
// the page again without the token in the address. At the home name,
// come from 127.0.0.1's checking page (another site, which a redirect
// would not shed, so a Strict cookie would stay behind), a page the
// browser loads itself goes on.
func (g *guard) reloadWithoutToken(w http.ResponseWriter, r *http.Request) {
	path := localPath(r.URL.Path)
	if !g.atHome(r) || r.Header.Get("Sec-Fetch-Site") != "cross-site" {
		http.Redirect(w, r, path, http.StatusSeeOther)
		return
	}
	writeHome(w, http.StatusOK, "reload", page.MoveData{To: path})
}

// bounceHome answers a browser's page load without the cookie away from
// the home name (a link to 127.0.0.1 from a chat): a page whose script
// goes to the home name the browser was moved to, if it was. It reports
// whether it answered.
func (g *guard) bounceHome(w http.ResponseWriter, r *http.Request) bool {
	if !g.mayMove(r) {
		return false
	}
	why := "this page needs the token in the URL askuser printed (…/?token=…); open that URL"
	if g.cookieAge > 0 {
		why = notOpenedHere
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src '"+page.BounceScriptHash+"'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	writeHome(w, http.StatusForbidden, "bounce", page.MoveData{Key: g.homeKey(), Why: "askuser: " + why})
	return true
}

// writeHome writes one of the pages above: name is move, reload or
// bounce.
func writeHome(w http.ResponseWriter, code int, name string, d page.MoveData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, page.Home(name, d))
}
