package page

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

// CardView is one question set on a page.
type CardView struct {
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
	Detail *DetailView
	// Agent names the sub-agent that asks; "" is the main agent.
	Agent     string
	State     string
	AskedAt   time.Time
	ClosedAt  time.Time
	Questions []QuestionView
	Answers   []AnswerView
	// Note says why a card closed without an answer, or what happened to
	// an answer sent on (the inbox).
	Note string
	// Flash is said once, in the reply to a submission ("already
	// answered").
	Flash string
}

// Rev changes whenever the card must be drawn again: the page keeps a card
// whose Rev is unchanged, with whatever the person has typed into it.
func (v CardView) Rev() string { return v.State }

// Open reports whether the card still takes an answer.
func (v CardView) Open() bool { return v.State == StateOpen }

type QuestionView struct {
	Index           int
	Name, OtherName string
	// NoneName confirms a multi-select submitted with nothing ticked.
	NoneName         string
	Header, Text     string
	Multi            bool
	Options          []OptionView
	RequiredSelected bool
}

type OptionView struct {
	Value              string
	Label, Description string
	Recommended        bool
	Checked            bool
}

type AnswerView struct {
	Header, Question string
	Summary          string
}

// KindLabel names a set's kind for its chip.
func KindLabel(kind string) string {
	switch kind {
	case ask.KindApproval:
		return "Approval"
	case ask.KindElicitation:
		return "Form"
	}
	return "Question"
}

// KindLabelThis names a set of kind for a sentence: "this question",
// "this approval", "this form".
func KindLabelThis(kind string) string {
	return "this " + strings.ToLower(KindLabel(kind))
}

// NewCardView renders req as an open card: a single select starts on its
// recommended option (the first, if several), as the terminal's cursor
// does; a multi-select starts with nothing ticked, as at the terminal,
// since a tick the person did not make is not their choice ("Recommended"
// still shows beside the options). page is the
// path the card's own addresses hang from ("" for the card page, /s/ID in
// the inbox): it posts to page/answer/KEY, and its whole detail is at
// page/input/KEY.
func NewCardView(req ask.Request, key, page, csrf string, askedAt time.Time) CardView {
	v := CardView{Key: key, Action: page + "/answer/" + key, CSRF: csrf, Kind: KindLabel(req.Kind), Name: cardName(req), Agent: ask.Display(req.Agent),
		Detail: NewDetailView(req, page+"/input/"+key), State: StateOpen, AskedAt: askedAt}
	for i, q := range req.Questions {
		qv := QuestionView{Index: i, Name: ChoiceField(i), OtherName: OtherField(i), NoneName: NoneField(i), Header: ask.Display(q.Header),
			Text: strings.TrimSpace(ask.DisplayBlock(q.Question)), Multi: q.MultiSelect, RequiredSelected: !q.MultiSelect}
		picked := false
		for j, o := range q.Options {
			rec := ask.IsRecommended(o.Label)
			check := rec && !q.MultiSelect && !picked
			picked = picked || check
			qv.Options = append(qv.Options, OptionView{Value: strconv.Itoa(j), Label: ask.Display(ask.BareLabel(o.Label)),
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
	kind := KindLabel(req.Kind)
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

// AnswerViews shows answers as the card's record of what was answered.
func AnswerViews(answers []ask.Answer) []AnswerView {
	out := make([]AnswerView, len(answers))
	for i, a := range answers {
		out[i] = AnswerView{Header: ask.Display(a.Header), Question: ask.Display(a.Question), Summary: AnswerSummary(a)}
	}
	return out
}

// AnswerSummary is one answer on one line: the labels chosen, the free
// text, or that it was skipped.
func AnswerSummary(a ask.Answer) string {
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

// Ago says how long ago t was, coarsely, for a person.
func Ago(now, t time.Time) string {
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

// Digits writes a count for the pages: 1,048,576.
var Digits = ask.GroupDigits
