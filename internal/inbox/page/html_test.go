package page

import (
	htmltemplate "html/template"
	"strings"
	"testing"
)

// hostile are values a model or a file could put on a page.
var hostile = []string{
	"", "plain", `<script>alert(1)</script>`, `" onmouseover="x`, `' autofocus onfocus='x`, "a & b + c", "\x00nul",
	"ünï€ 😀", "bad\xffutf8", "javascript:alert(1)", "JavaScript:alert(1)", " javascript:x", "data:text/html,<b>x</b>",
	"vbscript:x", "mailto:a@b.test", "HTTPS://ok.test/a b?q=1&r=2#f", "/s/id?x=1&y='2'(3)", "%zz %41 %", "//evil.test/x",
	"/s/a:b", "\ttab\nline\r", "`backtick`", "{{.}}",
}

// The pages escape as html/template did when it wrote them: text, quoted
// attribute values and whole URLs in href and action, each value as
// html/template escapes it in that place (javascript: and other schemes
// become #ZgotmplZ). html/template is linked into this test only.
func TestEscapesMatchHTMLTemplate(t *testing.T) {
	tpl := htmltemplate.Must(htmltemplate.New("").Parse(`<p title="{{.}}">{{.}}</p><a href="{{.}}">x</a><form action="{{.}}"></form>`))
	for _, v := range hostile {
		var want strings.Builder
		if err := tpl.Execute(&want, v); err != nil {
			t.Fatal(err)
		}
		var h html
		h.s(`<p title="`)
		h.t(v)
		h.s(`">`)
		h.t(v)
		h.s(`</p><a href="`)
		h.url(v)
		h.s(`">x</a><form action="`)
		h.url(v)
		h.s(`"></form>`)
		if got := h.String(); got != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", v, got, want.String())
		}
	}
}

// A card shows a hostile value as text, in every place: nothing of it is
// markup, and a link to it cannot run script.
func TestCardHostileValues(t *testing.T) {
	v := CardView{Key: `k"1`, Action: "javascript:alert(1)", CSRF: `c"><script>`, Kind: "<b>Kind</b>", Name: `n" onclick="x`,
		Agent: "<i>agent</i>", State: StateOpen, Flash: "<script>flash</script>",
		Detail:    &DetailView{Label: "<u>label</u>", Text: "</pre><script>x</script>", Cut: true, Chars: 40000, Limit: 32000, Href: "javascript:evil()"},
		Questions: []QuestionView{{Name: `q"0`, OtherName: "o<0", Header: "<h1>", Text: "Pick & <choose>", Options: []OptionView{{Value: `"0`, Label: "<img src=x>", Description: "d'esc"}}}}}
	body, err := Render("card", v)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<b>", "<i>", "<u>", "<h1>", "<img", "javascript:", `" onclick`, "<choose>", "</pre><"} {
		if strings.Contains(body, bad) {
			t.Errorf("the card holds %q unescaped:\n%s", bad, body)
		}
	}
	for _, want := range []string{`action="#ZgotmplZ"`, `href="#ZgotmplZ"`, "&lt;script&gt;flash&lt;/script&gt;", "Pick &amp; &lt;choose&gt;", "d&#39;esc"} {
		if !strings.Contains(body, want) {
			t.Errorf("the card lacks %s:\n%s", want, body)
		}
	}
}

// A view of the wrong type for its page is an error, not a panic.
func TestRenderWrongView(t *testing.T) {
	if _, err := Render("card", HomeData{}); err == nil || !strings.Contains(err.Error(), `no page "card" for a page.HomeData`) {
		t.Errorf("error %v", err)
	}
	if _, err := Render("nosuch", nil); err == nil {
		t.Error("an unknown page was drawn")
	}
}
