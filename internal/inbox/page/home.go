package page

import (
	"crypto/sha256"
	"encoding/base64"
)

// MoveData is what the pages that move a browser to the server's own
// name say and link to.
type MoveData struct {
	To, Here, Home, Probe, Key, Why string
}

// The scripts of the pages, allowed by their hashes alone.
const (
	moveScript = `(function(){var d=document.getElementById('move').dataset,done=false;` +
		`function go(u,home){if(done)return;done=true;try{if(home)localStorage.setItem(d.key,home);else localStorage.removeItem(d.key)}catch(e){}location.replace(u)}` +
		`var i=new Image();i.onload=function(){go(d.to,d.home)};i.onerror=function(){go(d.here,'')};i.src=d.probe;` +
		`setTimeout(function(){go(d.here,'')},3000)})();`
	bounceScript = `(function(){var d=document.getElementById('bounce').dataset,h=null;try{h=localStorage.getItem(d.key)}catch(e){}` +
		`if(h&&/^http:\/\/askuser-[0-9a-f]{16}\.localhost:[0-9]+$/.test(h))location.replace(h+location.pathname+location.search+location.hash)})();`
)

var (
	MoveScriptHash   = scriptHash(moveScript)
	BounceScriptHash = scriptHash(bounceScript)
)

func scriptHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Home is the page name (move, reload or bounce) for d, which move a
// browser to the server's own name (package inbox's home.go), written by
// Go code as the rest (html.go), each value escaped as html/template
// escapes it there (TestHomePagesMatchHTMLTemplate holds them to its
// output).
func Home(name string, d MoveData) string {
	var h html
	h.s(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>askuser</title>`)
	switch name {
	case "move":
		h.s(`<noscript><meta http-equiv="refresh" content="0;url=`)
		h.metaURL(d.To)
		h.s("\"></noscript></head><body>\n<p id=\"move\" data-to=\"")
		for _, attr := range []struct{ value, next string }{{d.To, `" data-here="`}, {d.Here, `" data-home="`}, {d.Home, `" data-probe="`}, {d.Probe, `" data-key="`}, {d.Key, `">`}} {
			h.t(attr.value)
			h.s(attr.next)
		}
		h.s(`Opening askuser at its own address, `)
		h.t(d.Home)
		h.s(", where this browser keeps its cookie from the other servers on this machine…</p>\n<script>", moveScript, "</script></body></html>")
	case "reload":
		h.s(`<meta http-equiv="refresh" content="0;url=`)
		h.metaURL(d.To)
		h.s(`"></head><body><p><a href="`)
		h.url(d.To)
		h.s(`">Open askuser</a></p></body></html>`)
	case "bounce":
		h.s(`</head><body><p id="bounce" data-key="`)
		h.t(d.Key)
		h.s(`">`)
		h.t(d.Why)
		h.s("</p>\n<script>", bounceScript, "</script></body></html>")
	}
	return h.String()
}
