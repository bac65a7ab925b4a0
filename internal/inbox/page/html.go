package page

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// html builds a page.
type html struct{ b strings.Builder }

// s writes markup as it is.
func (h *html) s(parts ...string) {
	for _, p := range parts {
		h.b.WriteString(p)
	}
}

// t writes text, or a quoted attribute's value, escaped.
func (h *html) t(v string) { h.b.WriteString(esc(v)) }

// n writes a number.
func (h *html) n(v int) { h.b.WriteString(strconv.Itoa(v)) }

// url writes a whole URL as an href or action value.
func (h *html) url(v string) { h.b.WriteString(esc(normalizeURL(filterURL(v)))) }

// metaURL writes the URL after "url=" in a meta refresh's content, which
// html/template filters but does not normalise.
func (h *html) metaURL(v string) { h.b.WriteString(esc(filterURL(v))) }

func (h *html) String() string { return h.b.String() }

// escapes are html/template's replacements in text and quoted attribute
// values.
var escapes = [...]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// esc escapes s for HTML text or a quoted attribute value, as
// html/template does (bytes that are not UTF-8 pass unchanged, as there).
func esc(s string) string {
	var b strings.Builder
	written := 0
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		if int(r) >= len(escapes) || escapes[r] == "" {
			continue
		}
		if written == 0 {
			b.Grow(len(s) + 16)
		}
		b.WriteString(s[written:i])
		b.WriteString(escapes[r])
		written = i + w
	}
	if written == 0 {
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

// filterURL is s when it is relative or its scheme is http, https or
// mailto, else the harmless "#ZgotmplZ" html/template puts there.
func filterURL(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") {
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
			return "#ZgotmplZ"
		}
	}
	return s
}

// normalizeURL percent-encodes the bytes a URL cannot hold as they are,
// keeping its reserved characters and any valid escape.
func normalizeURL(s string) string {
	var b strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if urlKeeps(c) || c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			continue
		}
		b.WriteString(s[written:i])
		fmt.Fprintf(&b, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

// urlKeeps reports the bytes normalizeURL leaves: RFC 3986's reserved and
// unreserved characters, but for the single quote and parentheses.
func urlKeeps(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// The pages' ways of writing a time.
func rfc3339(t time.Time) string   { return t.UTC().Format(time.RFC3339) }
func clock(t time.Time) string     { return t.Local().Format("15:04") }
func pageStamp(t time.Time) string { return t.Local().Format("2006-01-02 15:04") }

// PageData is what the layout renders around a page's body.
type PageData struct {
	Title, Heading string
	// Fragment is where the page fetches its body again when the event
	// stream says something changed.
	Fragment string
	// Body is the page's markup, its values escaped.
	Body string
}

// Layout is the whole page around d.Body.
func Layout(d PageData) string {
	var h html
	h.top(d.Title, d.Heading, true)
	h.s(`
<p id="live" class="live" role="status" aria-live="polite"></p>
<main id="main" data-fragment="`)
	h.t(d.Fragment)
	h.s(`" data-events="/events">
`, d.Body, `
</main>
<noscript><p class="hint">Without JavaScript this page does not update by itself: reload it to see new questions.</p></noscript>
</body>
</html>
`)
	return h.String()
}

// top writes a page's head (its script when script is set) and the
// header every page shows.
func (h *html) top(title, heading string, script bool) {
	h.s(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>`)
	h.t(title)
	h.s(`</title>
<link rel="stylesheet" href="/assets/page.css">
`)
	if script {
		h.s(`<script src="/assets/page.js" defer></script>
`)
	}
	h.s(`</head>
<body>
<header class="top">
<a class="brand" href="/">askuser</a>
<span class="heading">`)
	h.t(heading)
	h.s(`</span>
</header>`)
}

// Render writes the named page body for data, its view.
func Render(name string, data any) (string, error) {
	var h html
	ok := false
	switch name {
	case "card":
		var v CardView
		if v, ok = data.(CardView); ok {
			h.card(v)
		}
	case "cards":
		var v CardsData
		if v, ok = data.(CardsData); ok {
			h.cards(v)
		}
	case "asked":
		var v AskedData
		if v, ok = data.(AskedData); ok {
			h.asked(v)
		}
	case "session":
		var v SessionData
		if v, ok = data.(SessionData); ok {
			h.session(v)
		}
	case "inbox":
		var v HomeData
		if v, ok = data.(HomeData); ok {
			h.inbox(v)
		}
	}
	if !ok {
		return "", fmt.Errorf("no page %q for a %T", name, data)
	}
	return h.String(), nil
}
