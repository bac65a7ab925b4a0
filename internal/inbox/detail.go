package inbox

import (
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// maxDetailChars bounds what a card shows of a set's detail (an
// approval's whole input): a 1 MB file write must not make every refresh
// of the page a megabyte, on a phone too. The rest is one link away, as
// text (serveDetail), so nothing is approved unseen; 32,000 characters
// hold a long source file or plan whole.
const maxDetailChars = 32000

// detailView is a card's disclosure: the set's detail, an approval's
// whole tool input, as JSON read by a person (ask.ReadJSON), or as text
// when it is not JSON.
type detailView struct {
	// Label is the disclosure's summary.
	Label string
	JSON  *ask.JSONNode
	Text  string
	// Cut: the page shows only the first maxDetailChars characters;
	// Href has the whole detail, of Chars characters, as text.
	Cut   bool
	Chars int
	Limit int
	Href  string
}

// newDetailView shows req's detail, whose whole text is at href; nil when
// req has none.
func newDetailView(req ask.Request, href string) *detailView {
	if req.Detail == "" {
		return nil
	}
	d := &detailView{Label: "Show the details", Chars: utf8.RuneCountInString(req.Detail), Limit: maxDetailChars, Href: href}
	if req.Kind == ask.KindApproval {
		d.Label = "Show the whole input"
	}
	if root, cut, ok := ask.ReadJSON([]byte(req.Detail), maxDetailChars); ok {
		d.JSON, d.Cut = &root, cut
		return d
	}
	text := ask.DisplayBlock(req.Detail)
	if r := []rune(text); len(r) > maxDetailChars {
		text, d.Cut = string(r[:maxDetailChars]), true
	}
	d.Text = text
	return d
}

// serveDetail answers a card's "open the whole input": the detail, made
// safe to show, as plain text (the guard's nosniff keeps it text).
func serveDetail(w http.ResponseWriter, req ask.Request) {
	if req.Detail == "" {
		refuse(w, http.StatusNotFound, "this question set has no details to show")
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	text := ask.DisplayBlock(req.Detail) + "\n"
	w.Header().Set("Content-Length", strconv.Itoa(len(text)))
	_, _ = w.Write([]byte(text))
}
