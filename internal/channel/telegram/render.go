package telegram

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// maxText is Telegram's limit on a message's text, in UTF-16 code units
// after entity parsing.
const maxText = 4096

// Bounds of what a message shows of model-written text; the approval's
// input takes what is left.
const (
	titleChars    = 100
	questionChars = 1000
	labelChars    = 150
	descChars     = 300
	buttonChars   = 60
)

// keyboard is an inline keyboard. The library's button type always
// sends a copy_text field, and a button must have exactly one action.
type keyboard struct {
	InlineKeyboard [][]button `json:"inline_keyboard"`
}

type button struct {
	Text string `json:"text"`
	Data string `json:"callback_data"`
}

// forceReply asks the person to reply to the prompt.
type forceReply struct {
	ForceReply  bool   `json:"force_reply"`
	Placeholder string `json:"input_field_placeholder,omitempty"`
	Selective   bool   `json:"selective,omitempty"`
}

// Button actions (channel.Token.Action).
const (
	actPick  = "pick"  // choose option O of single-select question Q
	actTick  = "tick"  // tick or untick option O of multi-select question Q
	actDone  = "done"  // end multi-select question Q
	actOther = "other" // answer question Q with typed text
	actReply = "reply" // the Other prompt of question Q (not a button)
	actNone  = "none"  // end multi-select question Q with nothing ticked, once Done asked
)

// noneLabel is the button that ends a multi-select with nothing ticked:
// offered only after Done was pressed with nothing ticked, so no single
// stray press sends an empty answer (the terminal asks "Submit with
// nothing selected? y/N").
const noneLabel = "Submit with nothing selected"

// rendering is a message: its HTML text and keyboard.
type rendering struct {
	text string
	kb   *keyboard
}

// render shows question st.Q of set s: where it comes from, the answers
// so far, the question and its options, an approval's input, and the
// keyboard.
func render(s channel.Set, st *state) rendering {
	qs := s.Request.Questions
	q := qs[st.Q]
	var b strings.Builder
	if t := title(s); t != "" {
		b.WriteString("<b>" + esc(t) + "</b>\n")
	}
	if s.Resent && st.Q == 0 {
		b.WriteString("<i>" + esc(channel.ResentNote) + "</i>\n")
	}
	for i := 0; i < st.Q; i++ {
		b.WriteString("✓ " + esc(ask.Display(qs[i].Header)) + ": " + esc(pickSummary(qs[i], st.Picks[i])) + "\n")
	}
	if len(qs) > 1 {
		fmt.Fprintf(&b, "Question %d of %d · ", st.Q+1, len(qs))
	}
	b.WriteString("<b>" + esc(ask.Display(q.Header)) + "</b>\n")
	b.WriteString(esc(channel.Cut(strings.TrimSpace(ask.DisplayBlock(q.Question)), questionChars)) + "\n\n")
	for _, o := range q.Options {
		b.WriteString("• <b>" + esc(channel.Cut(ask.Display(ask.BareLabel(o.Label)), labelChars)) + "</b>")
		if ask.IsRecommended(o.Label) {
			b.WriteString(" (Recommended)")
		}
		if d := ask.Display(o.Description); d != "" {
			b.WriteString(" — " + esc(channel.Cut(d, descChars)))
		}
		b.WriteString("\n")
	}
	hint := "Choose one, or Other… to type an answer."
	if q.MultiSelect {
		hint = "Tick all that apply, then Done. Other… adds typed text and ends the question."
	}
	if s.Request.Kind == ask.KindApproval {
		hint = "Allow, deny, or Other… to tell the agent what to do instead."
	}
	text := b.String() + "\n<i>" + esc(hint) + "</i>"
	if s.Request.Detail != "" {
		text = withDetail(text, s.Request.Detail, s.Link)
	}
	return rendering{text: text, kb: buttons(s, st)}
}

// withDetail puts an approval's whole input after the question as a code
// block, cut to fit the message with a link to the inbox page for the
// rest.
func withDetail(text, detail, link string) string {
	room := maxText - units(plain(text)) - len("\n\n")
	block := strings.TrimRight(ask.DisplayBlock(detail), "\n")
	cut := fit(block, room, link)
	return text + "\n\n" + codeBlock(cut, cut != block, link)
}

// codeBlock shows the input in <pre>; CutBlock's note (how much was left
// out, and where all of it is) goes after it, the link as a link.
func codeBlock(s string, wasCut bool, link string) string {
	note := ""
	if i := strings.LastIndex(s, "\n… cut here"); wasCut && i >= 0 {
		s, note = s[:i], s[i+1:]
	}
	out := "<pre>" + esc(s) + "</pre>"
	if note != "" {
		n := esc(note)
		if link != "" {
			n = strings.Replace(n, esc(link), `<a href="`+esc(link)+`">`+esc(link)+`</a>`, 1)
		}
		out += "\n" + n
	}
	return out
}

// buttons is the keyboard of question st.Q.
func buttons(s channel.Set, st *state) *keyboard {
	q := s.Request.Questions[st.Q]
	tok := func(action string, o int) string {
		return channel.Token{Key: s.Key, Rev: s.Rev, Action: action, Q: st.Q, O: o}.String()
	}
	kb := &keyboard{}
	for i, o := range q.Options {
		label := ask.Display(ask.BareLabel(o.Label))
		if ask.IsRecommended(o.Label) {
			label += " (Recommended)"
		}
		label = channel.Cut(label, buttonChars)
		b := button{Text: label, Data: tok(actPick, i)}
		if q.MultiSelect {
			mark := "☐ "
			if slices.Contains(st.Picks[st.Q].Options, i) {
				mark = "☑ "
			}
			b = button{Text: mark + label, Data: tok(actTick, i)}
		}
		kb.InlineKeyboard = append(kb.InlineKeyboard, []button{b})
	}
	last := []button{{Text: "Other…", Data: tok(actOther, -1)}}
	if q.MultiSelect {
		last = append(last, button{Text: "Done", Data: tok(actDone, -1)})
	}
	kb.InlineKeyboard = append(kb.InlineKeyboard, last)
	if q.MultiSelect && st.confirming() {
		kb.InlineKeyboard = append(kb.InlineKeyboard, []button{{Text: noneLabel, Data: tok(actNone, -1)}})
	}
	return kb
}

// title says where the set comes from.
func title(s channel.Set) string {
	t := channel.Cut(ask.Display(s.Title), titleChars)
	if s.Request.Kind == ask.KindApproval {
		if t == "" {
			return "Approval"
		}
		return "Approval · " + t
	}
	return t
}

// head is the line an outcome is shown under: where the set came from and
// what it asked.
func head(s channel.Set) string {
	var hs []string
	for _, q := range s.Request.Questions {
		hs = append(hs, ask.Display(q.Header))
	}
	h := strings.Join(hs, ", ")
	if t := title(s); t != "" {
		h = t + " — " + h
	}
	return channel.Cut(h, 200)
}

// pickSummary says what a pick chose: "SQLite", "Docs, Tests", "Other: …".
func pickSummary(q ask.Question, p pick) string {
	var parts []string
	for _, o := range p.Options {
		if o >= 0 && o < len(q.Options) {
			parts = append(parts, ask.Display(ask.BareLabel(q.Options[o].Label)))
		}
	}
	if p.Other != "" {
		parts = append(parts, "Other: "+channel.Cut(ask.Display(p.Other), 80))
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

// outcomeText is what a set's message shows once it no longer waits.
func outcomeText(r ref, o channel.Outcome) string {
	icon := "✅"
	switch o.State {
	case channel.Withdrawn:
		icon = "⏹"
	case channel.Cancelled:
		icon = "✖"
	}
	text := icon + " " + esc(channel.Cut(ask.Display(o.Text), 1000))
	if r.Head != "" {
		text = "<b>" + esc(r.Head) + "</b>\n" + text
	}
	return text
}

// promptText is the Other prompt of question st.Q: whom it asks, what to
// do, and the reference a reply is matched by in any process.
func promptText(s channel.Set, st *state, who channel.Who, id int64) string {
	q := s.Request.Questions[st.Q]
	what := "reply to this message with your answer"
	if s.Request.Kind == ask.KindApproval {
		what = "reply to this message with what the agent should do instead"
	}
	tok := channel.Token{Key: s.Key, Rev: s.Rev, Action: actReply, Q: st.Q, O: -1}
	return fmt.Sprintf(`<a href="tg://user?id=%d">%s</a>, %s to <b>%s</b>.`+"\n<i>%s%s</i>",
		id, esc(who.Name), what, esc(ask.Display(q.Header)), refMark, tok)
}

// refMark precedes the reference in a prompt.
const refMark = "askuser ref "

// refPattern finds the reference; compiled at first use, not at the start
// of every askuser process (a hook's included), which links this package.
var refPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(refMark) + `([a-z2-7]{10}\.[0-9]{1,6}\.` + actReply + `\.[0-9]{1,6}\.-1)`)
})

// promptToken finds the reference in a prompt's text, as a reply carries it.
func promptToken(text string) (channel.Token, bool) {
	m := refPattern().FindStringSubmatch(text)
	if m == nil {
		return channel.Token{}, false
	}
	tok, err := channel.ParseToken(m[1])
	return tok, err == nil
}

func esc(s string) string { return html.EscapeString(s) }

// units is the length Telegram counts: UTF-16 code units.
func units(s string) int { return len(utf16.Encode([]rune(s))) }

// tagPattern matches the tags render writes (compiled at first use).
var tagPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^>]*>`) })

// plain is HTML text as Telegram counts it: tags dropped, entities one
// character.
func plain(s string) string { return html.UnescapeString(tagPattern().ReplaceAllString(s, "")) }
