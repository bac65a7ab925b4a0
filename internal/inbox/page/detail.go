package page

import (
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// MaxDetailChars bounds what a card shows of a set's detail (an
// approval's whole input): a 1 MB file write must not make every refresh
// of the page a megabyte, on a phone too. The rest is one link away, as
// text (serveDetail), so nothing is approved unseen; 32,000 characters
// hold a long source file or plan whole.
const MaxDetailChars = 32000

// DetailView is a card's disclosure: the set's detail, an approval's
// whole tool input, as JSON read by a person (ask.ReadJSON), or as text
// when it is not JSON.
type DetailView struct {
	// Label is the disclosure's summary.
	Label string
	JSON  *ask.JSONNode
	Text  string
	// Cut: the page shows only the first MaxDetailChars characters;
	// Href has the whole detail, of Chars characters, as text.
	Cut   bool
	Chars int
	Limit int
	Href  string
}

// NewDetailView shows req's detail, whose whole text is at href; nil when
// req has none.
func NewDetailView(req ask.Request, href string) *DetailView {
	if req.Detail == "" {
		return nil
	}
	d := &DetailView{Label: "Show the details", Chars: utf8.RuneCountInString(req.Detail), Limit: MaxDetailChars, Href: href}
	if req.Kind == ask.KindApproval {
		d.Label = "Show the whole input"
	}
	if root, cut, ok := ask.ReadJSON([]byte(req.Detail), MaxDetailChars); ok {
		d.JSON, d.Cut = &root, cut
		return d
	}
	text := ask.DisplayBlock(req.Detail)
	if r := []rune(text); len(r) > MaxDetailChars {
		text, d.Cut = string(r[:MaxDetailChars]), true
	}
	d.Text = text
	return d
}
