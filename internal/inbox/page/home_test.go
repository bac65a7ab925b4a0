package page

import (
	htmltemplate "html/template"
	"strings"
	"testing"
)

// homeTemplates are the pages of home.go as html/template wrote them,
// kept here, in a test, as the measure of homePage: the binary links no
// template engine of its own (README "Development").
var homeTemplates = htmltemplate.Must(htmltemplate.New("").Parse(`
{{define "head"}}<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>askuser</title>{{end}}
{{define "move"}}{{template "head"}}<noscript><meta http-equiv="refresh" content="0;url={{.To}}"></noscript></head><body>
<p id="move" data-to="{{.To}}" data-here="{{.Here}}" data-home="{{.Home}}" data-probe="{{.Probe}}" data-key="{{.Key}}">Opening askuser at its own address, {{.Home}}, where this browser keeps its cookie from the other servers on this machine…</p>
<script>` + moveScript + `</script></body></html>{{end}}
{{define "reload"}}{{template "head"}}<meta http-equiv="refresh" content="0;url={{.To}}"></head><body><p><a href="{{.To}}">Open askuser</a></p></body></html>{{end}}
{{define "bounce"}}{{template "head"}}</head><body><p id="bounce" data-key="{{.Key}}">{{.Why}}</p>
<script>` + bounceScript + `</script></body></html>{{end}}`))

// Each page, for hostile values in every field, is html/template's byte
// for byte: a URL in the meta refresh filtered (javascript: becomes
// #ZgotmplZ) but not percent-encoded, in href also percent-encoded, and
// text and data attributes escaped.
func TestHomePagesMatchHTMLTemplate(t *testing.T) {
	n := 0
	for i, v := range hostile {
		w := hostile[(i+5)%len(hostile)]
		for _, d := range []MoveData{
			{To: v, Here: w, Home: v, Probe: w, Key: v, Why: w},
			{To: "http://askuser-0123456789abcdef.localhost:8765/s/x?token=" + v, Here: "/?token=t&here=1", Home: "http://askuser-0123456789abcdef.localhost:8765", Probe: w, Key: "askuser-home-8765", Why: v},
		} {
			for _, name := range []string{"move", "reload", "bounce"} {
				var want strings.Builder
				if err := homeTemplates.ExecuteTemplate(&want, name, d); err != nil {
					t.Fatal(err)
				}
				if got := Home(name, d); got != want.String() {
					t.Errorf("%s for %+v:\n got %s\nwant %s", name, d, got, want.String())
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("%d pages compared", n)
	}
}
