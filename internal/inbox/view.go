package inbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// The views below are what the pages render (render*.go). Every string in
// them that came from a model has been through ask.Display or
// ask.DisplayBlock here; the page escapes it on the way out.

// cardView is one question set on a page.
type cardView struct {
	Key string
	// Action is where the form posts; CSRF is the page's form token.
	Action, CSRF string
	// Kind is the chip of the card: "Question", "Approval" or "Form".
	Kind string
	// Name is what a screen reader says of the card (its aria-label):
	// "Question: Database", "2 questions: Database and Features",
	// "Approval of mcp__fs__write_file".
	Name string
	// Detail is the set's longer text (an approval's whole input), shown
	// in a disclosure; nil when it has none.
	Detail *detailView
	// Agent names the sub-agent that asks; "" is the main agent.
	Agent     string
	State     string
	AskedAt   time.Time
	ClosedAt  time.Time
	Questions []questionView
	Answers   []answerView
	// Note says why a card closed without an answer, or what happened to
	// an answer sent on (the inbox).
	Note string
	// Flash is said once, in the reply to a submission ("already
	// answered").
	Flash string
}

// Rev changes whenever the card must be drawn again: the page keeps a card
// whose Rev is unchanged, with whatever the person has typed into it.
func (v cardView) Rev() string { return v.State }

// Open reports whether the card still takes an answer.
func (v cardView) Open() bool { return v.State == stateOpen }

type questionView struct {
	Index           int
	Name, OtherName string
	// NoneName confirms a multi-select submitted with nothing ticked.
	NoneName         string
	Header, Text     string
	Multi            bool
	Options          []optionView
	RequiredSelected bool
}

type optionView struct {
	Value              string
	Label, Description string
	Recommended        bool
	Checked            bool
}

type answerView struct {
	Header, Question string
	Summary          string
}

// kindLabel names a set's kind for its chip.
func kindLabel(kind string) string {
	switch kind {
	case ask.KindApproval:
		return "Approval"
	case ask.KindElicitation:
		return "Form"
	}
	return "Question"
}

// kindLabelThis names a set of kind for a sentence: "this question",
// "this approval", "this form".
func kindLabelThis(kind string) string {
	return "this " + strings.ToLower(kindLabel(kind))
}

// newCardView renders req as an open card: a single select starts on its
// recommended option (the first, if several), as the terminal's cursor
// does; a multi-select starts with nothing ticked, as at the terminal,
// since a tick the person did not make is not their choice ("Recommended"
// still shows beside the options). page is the
// path the card's own addresses hang from ("" for the card page, /s/ID in
// the inbox): it posts to page/answer/KEY, and its whole detail is at
// page/input/KEY.
func newCardView(req ask.Request, key, page, csrf string, askedAt time.Time) cardView {
	v := cardView{Key: key, Action: page + "/answer/" + key, CSRF: csrf, Kind: kindLabel(req.Kind), Name: cardName(req), Agent: ask.Display(req.Agent),
		Detail: newDetailView(req, page+"/input/"+key), State: stateOpen, AskedAt: askedAt}
	for i, q := range req.Questions {
		qv := questionView{Index: i, Name: choiceField(i), OtherName: otherField(i), NoneName: noneField(i), Header: ask.Display(q.Header),
			Text: strings.TrimSpace(ask.DisplayBlock(q.Question)), Multi: q.MultiSelect, RequiredSelected: !q.MultiSelect}
		picked := false
		for j, o := range q.Options {
			rec := ask.IsRecommended(o.Label)
			check := rec && !q.MultiSelect && !picked
			picked = picked || check
			qv.Options = append(qv.Options, optionView{Value: strconv.Itoa(j), Label: ask.Display(ask.BareLabel(o.Label)),
				Description: ask.Display(o.Description), Recommended: rec, Checked: check})
		}
		v.Questions = append(v.Questions, qv)
	}
	return v
}

// cardName names a card in a phrase a screen reader can say: its kind
// and its questions' headers ("2 questions: Database and Features"), or
// for an approval the tool it is about, since its one header ("Approve")
// says nothing more than its kind. A question without a header is named
// by the start of its text.
func cardName(req ask.Request) string {
	kind := kindLabel(req.Kind)
	if req.Kind == ask.KindApproval && req.Tool != "" {
		return kind + " of " + ask.Display(req.Tool)
	}
	names := make([]string, len(req.Questions))
	for i, q := range req.Questions {
		names[i] = ask.Display(q.Header)
		if names[i] == "" {
			names[i] = firstWords(ask.Display(q.Question), 60)
		}
	}
	switch {
	case len(names) == 0:
		return kind
	case len(names) == 1:
		return kind + ": " + names[0]
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	if req.Kind == ask.KindElicitation {
		return kind + ": " + list // a form's fields
	}
	return fmt.Sprintf("%d questions: %s", len(names), list)
}

// firstWords is s cut to at most n characters, with "…" when cut.
func firstWords(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n])) + "…"
	}
	return s
}

// answerViews shows answers as the card's record of what was answered.
func answerViews(answers []ask.Answer) []answerView {
	out := make([]answerView, len(answers))
	for i, a := range answers {
		out[i] = answerView{Header: ask.Display(a.Header), Question: ask.Display(a.Question), Summary: answerSummary(a)}
	}
	return out
}

// answerSummary is one answer on one line: the labels chosen, the free
// text, or that it was skipped.
func answerSummary(a ask.Answer) string {
	var parts []string
	for _, l := range a.Selected {
		parts = append(parts, ask.Display(ask.BareLabel(l)))
	}
	if a.Custom != "" {
		parts = append(parts, "Other: "+ask.Display(a.Custom))
	}
	if len(parts) == 0 {
		return "Skipped"
	}
	return strings.Join(parts, ", ")
}

// ago says how long ago t was, coarsely, for a person.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 48*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		return strconv.Itoa(h) + " h " + strconv.Itoa(m) + " min ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
}

// digits writes a count for the pages: 1,048,576.
var digits = ask.GroupDigits
