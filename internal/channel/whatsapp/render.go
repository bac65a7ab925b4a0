package whatsapp

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// A question goes out as reply buttons when it is a single select of at
// most three options whose message fits their smaller body; as a list
// when it is a single select of at most ten; otherwise as the seed's
// numbered text. Every form numbers the options in its body, so a typed
// number answers whichever was sent, and any other text is Other.

// The Cloud API's limits, in characters.
const (
	maxButtons        = 3
	maxButtonTitle    = 20
	maxButtonBody     = 1024
	maxRows           = 10
	maxRowTitle       = 24
	maxRowDescription = 72
	maxListButton     = 20
	maxBody           = 4096 // a text message, a list's body
	maxHeader         = 60
	maxFooter         = 60
)

// Tokens' actions: "pick" chooses option O of question Q.
const actPick = "pick"

const listButton = "Choose an answer"

type form int

const (
	formText form = iota
	formButtons
	formList
)

// question is the message asking question i of set s, a reply to
// replyTo; noted is the answer to the question before, said back first.
func question(to string, s channel.Set, i int, noted *ask.Answer, replyTo string) message {
	q := s.Request.Questions[i]
	f := formFor(q)
	top := ""
	title := ask.Display(s.Title)
	if f == formText && title != "" {
		top = "*" + channel.Cut(title, maxHeader) + "*\n"
	}
	if s.Resent && i == 0 {
		top += "_" + channel.ResentNote + "_\n\n"
	}
	if noted != nil {
		said := channel.Summary([]ask.Answer{*noted})
		if noted.Header != "" {
			said = ask.Display(noted.Header) + ": " + said
		}
		top += "✓ " + said + "\n\n"
	}
	m := newMessage(to, replyTo)
	if f == formText {
		tail := "\n\n" + hint(s.Request.Kind, q, f)
		body := top + questionBody(s, i, maxBody-utf8.RuneCountInString(top+tail))
		m.Type, m.Text = "text", &textBody{Body: body + tail}
		return m
	}
	body := top + questionBody(s, i, maxBody-utf8.RuneCountInString(top))
	if f == formButtons && utf8.RuneCountInString(body) > maxButtonBody {
		f = formList // the whole input of an approval, say: the list's body is larger
	}
	ix := &interactive{Body: ixText{Text: body}, Footer: &ixText{Text: hint(s.Request.Kind, q, f)}}
	if title != "" {
		ix.Header = &ixHeader{Type: "text", Text: channel.Cut(title, maxHeader)}
	}
	if f == formButtons {
		ix.Type = "button"
		for j, o := range q.Options {
			ix.Action.Buttons = append(ix.Action.Buttons, ixButton{Type: "reply", Reply: ixReply{
				ID: pickToken(s, i, j), Title: channel.Cut(ask.BareLabel(ask.Display(o.Label)), maxButtonTitle)}})
		}
	} else {
		ix.Type, ix.Action.Button = "list", listButton
		rows := make([]ixRow, len(q.Options))
		for j, o := range q.Options {
			rows[j] = ixRow{ID: pickToken(s, i, j), Title: channel.Cut(ask.BareLabel(ask.Display(o.Label)), maxRowTitle),
				Description: channel.Cut(ask.Display(o.Description), maxRowDescription)}
		}
		ix.Action.Sections = []ixSection{{Rows: rows}}
	}
	m.Type, m.Interactive = "interactive", ix
	return m
}

// formFor is the form question q goes out in, before its body is known.
func formFor(q ask.Question) form {
	switch {
	case q.MultiSelect || len(q.Options) > maxRows:
		return formText // buttons and lists pick one
	case len(q.Options) <= maxButtons && uniqueTitles(q):
		return formButtons
	}
	return formList
}

// uniqueTitles: the Cloud API refuses two buttons with one title.
func uniqueTitles(q ask.Question) bool {
	var seen []string
	for _, o := range q.Options {
		t := strings.ToLower(channel.Cut(ask.BareLabel(ask.Display(o.Label)), maxButtonTitle))
		if slices.Contains(seen, t) {
			return false
		}
		seen = append(seen, t)
	}
	return true
}

func pickToken(s channel.Set, q, o int) string {
	return channel.Token{Key: s.Key, Rev: s.Rev, Action: actPick, Q: q, O: o}.String()
}

// questionBody is question i of s as text of at most limit characters:
// its header and place in the set, the question, an approval's whole
// input as a code block (cut to fit, with the inbox's link for the rest),
// and the numbered options.
func questionBody(s channel.Set, i, limit int) string {
	q := s.Request.Questions[i]
	var b strings.Builder
	b.WriteString("*" + ask.Display(q.Header) + "*")
	if n := len(s.Request.Questions); n > 1 {
		fmt.Fprintf(&b, " · question %d of %d", i+1, n)
	}
	b.WriteString("\n" + strings.TrimSpace(ask.DisplayBlock(q.Question)) + "\n")
	var opts strings.Builder
	for j, o := range q.Options {
		fmt.Fprintf(&opts, "\n%d. %s", j+1, ask.Display(strings.TrimSpace(o.Label)))
		if d := strings.TrimSpace(ask.Display(o.Description)); d != "" {
			opts.WriteString(" — " + d)
		}
	}
	if i == 0 && s.Request.Detail != "" {
		room := limit - utf8.RuneCountInString(b.String()) - utf8.RuneCountInString(opts.String()) - len("\n``````\n")
		b.WriteString(codeBlock(s.Request.Detail, room, s.Link))
	}
	return channel.Cut(strings.TrimRight(b.String()+opts.String(), "\n"), limit)
}

// codeBlock shows text (an approval's whole tool input) as WhatsApp
// monospace, cut to room characters with the note, and its link, after
// the block, where the link can be followed.
func codeBlock(text string, room int, link string) string {
	text = strings.ReplaceAll(strings.TrimSpace(ask.DisplayBlock(text)), "```", "` ` `")
	kept, note := channel.CutBlockNote(text, max(room, 0), link)
	return "\n```" + kept + "```" + note + "\n"
}

// hint says how to answer, under the question (a footer: at most
// maxFooter characters). An approval takes no typed reply that does not
// quote it (choose.go), so its hint says to reply to it.
func hint(kind string, q ask.Question, f form) string {
	switch {
	case kind == ask.KindApproval && f == formText:
		return "Reply to this message with a number, or with what to do instead."
	case kind == ask.KindApproval && f == formList:
		return "Choose one or reply to this message with what to do instead."
	case kind == ask.KindApproval:
		return "Tap one, or reply to this message with what to do instead."
	case q.MultiSelect:
		return "Send the numbers of all that apply (e.g. 1,3), or type your own answer."
	case f == formButtons:
		return "Tap one, send its number, or type your own answer."
	case f == formList:
		return "Choose one, send its number, or type your own answer."
	}
	return "Send a number, or type your own answer."
}
