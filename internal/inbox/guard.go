package inbox

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/askuser/askuser/internal/inbox/page"
)

// MaxBodyBytes bounds a POST body: four questions with Other text at its
// cap (2,000 characters of up to 4 bytes each) fit with room to spare.
const MaxBodyBytes = 64 << 10

// maxHeaderBytes bounds a request's header: the request line and the
// header fields, up to the blank line that ends them.
const maxHeaderBytes = 16 << 10

// httpMaxHeaderBytes is http.Server's MaxHeaderBytes for maxHeaderBytes:
// net/http reads up to MaxHeaderBytes and 4096 bytes more (its bufio
// slop) before it gives up on a header, so the figure given is that much
// less.
const httpMaxHeaderBytes = maxHeaderBytes - 4096

// contentSecurityPolicy allows the embedded files and nothing else: no
// inline script or style, no other origin, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// guard is the door of a Server: headers on every response, the token on
// every request, and the checks of a POST (see the package invariants).
type guard struct {
	token string // in the printed URL; never in a cookie
	csrf  string // in every form
	// cookie is the cookie's name. Cookies do not keep ports apart, so it
	// names the port: two askuser pages on one host keep their own.
	cookie   string
	port     string
	loopback bool
	cross    *http.CrossOriginProtection

	// cookieAge is the cookie's Max-Age, renewed by every page loaded
	// with it; 0 is a cookie for the browser's session.
	cookieAge int
	// session is the cookie's value (cookieValue): not the token, and
	// worth nothing to a server with another token or port.
	session string
	// home is the server's own host name on loopback (homeName), where a
	// browser keeps its cookie apart from every other local server; ""
	// when it does not listen on loopback.
	home string
}

func newGuard(port string, loopback bool) *guard {
	g := &guard{csrf: randomToken(), cookie: "askuser_" + port, port: port, loopback: loopback,
		cross: http.NewCrossOriginProtection()}
	g.setToken(randomToken())
	return g
}

// setToken makes tok the token, and the cookie's value and the home name
// those of tok.
func (g *guard) setToken(tok string) {
	g.token = tok
	g.session = derive(tok, "askuser cookie", g.port)
	g.home = ""
	if g.loopback {
		g.home = homeName(tok, g.port)
	}
}

// derive is the HMAC-SHA256 of purpose and port under key, in hex: a
// value that names this server's token and port without revealing the
// token.
func derive(key, purpose, port string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(purpose + "\x00" + port))
	return hex.EncodeToString(m.Sum(nil))
}

// randomToken returns 128 random bits in hex.
func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// sameSecret compares a secret in constant time.
func sameSecret(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func setHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// wrap lets a request through to next only when it passes every check.
func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setHeaders(w.Header())
		if g.loopback && !loopbackHost(r.Host) {
			refusePage(w, r, http.StatusForbidden, "askuser serves this page on a loopback address only; open the URL askuser printed")
			return
		}
		if g.serveProbe(w, r) {
			return
		}
		if isStylesheet(r) {
			next.ServeHTTP(w, r)
			return
		}
		if !g.authorised(w, r) {
			return
		}
		if r.Method == http.MethodPost && !g.postAllowed(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorised checks the token: in the query, where a first visit brings it
// (it becomes the cookie, and a page is reloaded without it so the token
// does not stay in the address bar or history), or the cookie. A browser
// on loopback is moved to the server's own host name first (home.go), so
// its cookie never reaches another server on this machine.
func (g *guard) authorised(w http.ResponseWriter, r *http.Request) bool {
	if q := r.URL.Query().Get("token"); q != "" {
		if !sameSecret(q, g.token) {
			refusePage(w, r, http.StatusForbidden, "the token in this URL is wrong; open the URL askuser printed")
			return false
		}
		if g.moveHome(w, r) {
			return false
		}
		g.setCookie(w, r)
		if r.Method == http.MethodGet {
			g.reloadWithoutToken(w, r)
			return false
		}
		return true
	}
	if sameSecret(g.cookieOf(r), g.session) {
		if g.cookieAge > 0 && r.Method == http.MethodGet {
			g.setCookie(w, r) // renewed while in use
		}
		return true
	}
	if g.bounceHome(w, r) {
		return false
	}
	if g.cookieAge > 0 {
		refusePage(w, r, http.StatusForbidden, notOpenedHere)
		return false
	}
	refusePage(w, r, http.StatusForbidden, "this page needs the token in the URL askuser printed (…/?token=…); open that URL")
	return false
}

// notOpenedHere is what a browser without the cookie of a kept token is
// told: it followed a link from a chat or a notification, which carries
// no token (a token handed to a chat platform is handed to its servers
// and to everyone in the chat).
const notOpenedHere = "this browser has not opened this askuser serve yet. Open the URL askuser serve printed when it started " +
	"(http://…/?token=…; it is also in serve.url in its state directory) once on this device: after that, links to its pages " +
	"from chats and notifications open here, for 90 days after the last page you loaded."

// setCookie gives the browser the cookie: the session value, never the
// token, HttpOnly, on the host the request came to (serve's own name for
// a browser on loopback), named __Host- and Secure over https (a reverse
// proxy's). A kept token's cookie (askuser serve's) is SameSite=Lax, so a
// link to a page followed from another site (a chat opened in a browser)
// brings it: Lax sends it with a top-level GET only, every GET here only
// reads, and a POST still needs the page's own form token and the same
// origin. A one-off token's cookie (the card's) stays Strict.
func (g *guard) setCookie(w http.ResponseWriter, r *http.Request) {
	same := http.SameSiteStrictMode
	if g.cookieAge > 0 {
		same = http.SameSiteLaxMode
	}
	name, secure := g.cookie, overHTTPS(r)
	if secure {
		name = "__Host-" + name
	}
	http.SetCookie(w, &http.Cookie{Name: name, Value: g.session, Path: "/", MaxAge: g.cookieAge, HttpOnly: true, SameSite: same, Secure: secure})
}

// cookieOf is the value of the request's cookie of this server, or "".
func (g *guard) cookieOf(r *http.Request) string {
	for _, name := range []string{"__Host-" + g.cookie, g.cookie} {
		if c, err := r.Cookie(name); err == nil {
			return c.Value
		}
	}
	return ""
}

// overHTTPS reports whether the browser reached the server over https:
// directly, or through a reverse proxy that says so.
func overHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// localPath is path if it names a page of this server, else "/": a path
// such as //example.com would send the browser to another host.
func localPath(path string) string {
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") || strings.HasPrefix(path, "/\\") {
		return "/"
	}
	return path
}

// postAllowed checks a POST: same-origin, a form of bounded size, with
// the page's form token.
func (g *guard) postAllowed(w http.ResponseWriter, r *http.Request) bool {
	if err := g.cross.Check(r); err != nil {
		refuse(w, http.StatusForbidden, "cross-origin request refused")
		return false
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		refuse(w, http.StatusUnsupportedMediaType, "send the form as application/x-www-form-urlencoded")
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			refuse(w, http.StatusRequestEntityTooLarge, "the form is larger than askuser accepts (64 KiB)")
		} else {
			refuse(w, http.StatusBadRequest, "the form could not be read")
		}
		return false
	}
	if !sameSecret(r.PostForm.Get("csrf"), g.csrf) {
		refuse(w, http.StatusForbidden, "the form's token is missing or wrong; reload the page and answer again")
		return false
	}
	return true
}

// refuse answers with a plain-text message.
func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte("askuser: " + msg + "\n"))
}

// refusePage is refuse for a request that may come from a person's
// browser: a page load gets the message on a page styled as the rest
// (page.Refused), anything else (a script, curl, a form's fetch) the
// plain text.
func refusePage(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if r.Method != http.MethodGet || !wantsPage(r) {
		refuse(w, code, msg)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, page.Refused(code, http.StatusText(code), upperFirst(msg)))
}

// wantsPage reports whether r is a browser loading a page: it navigates,
// or it takes HTML.
func wantsPage(r *http.Request) bool {
	return r.Header.Get("Sec-Fetch-Mode") == "navigate" || strings.Contains(r.Header.Get("Accept"), "text/html")
}

// upperFirst begins msg with a capital letter, as a sentence on a page.
func upperFirst(msg string) string {
	if msg == "" || msg[0] < 'a' || msg[0] > 'z' {
		return msg
	}
	return string(msg[0]-'a'+'A') + msg[1:]
}

// isStylesheet reports whether r loads the pages' stylesheet, which a
// refused page needs before the browser has the cookie. It is the same
// for everyone and holds nothing of any session; the script and every
// other path still need the cookie.
func isStylesheet(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/assets/page.css"
}

// loopbackHost reports whether a Host header names this machine by a
// loopback address or as localhost.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	// A name under .localhost is this machine to a browser, which never
	// asks a DNS server for it: no other site can be rebound to one.
	if lower := strings.ToLower(host); lower == "localhost" || strings.HasSuffix(lower, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
