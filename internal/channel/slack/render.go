package slack

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Slack's documented limits (Block Kit reference), in characters.
const (
	maxText        = 3000 // a section's or a context element's text
	maxOption      = 75   // an option's text, and its description
	maxLabel       = 2000 // an input block's label and hint
	maxPlaceholder = 150
	maxBlocks      = 50  // blocks in one message
	maxFallback    = 300 // the message's own text, for notifications
	maxGistLine    = 200 // a question as an answered message keeps it
)

// Actions a token names (channel.Token.Action).
const (
	actPick   = "pick"   // a single-select question's radio buttons
	actTick   = "tick"   // a multiSelect question's checkboxes
	actOther  = "other"  // a question's text input
	actSubmit = "submit" // the Submit button
)

// Action ids inside a block: the block id carries the token.
const (
	idChoice = "choice"
	idOther  = "other"
)

// recommended is how a recommended option is marked.
const recommended = " (Recommended)"

// render is set s as one message: its blocks, and the plain text Slack
// shows in notifications.
func render(s channel.Set) ([]slack.Block, string) {
	blocks := []slack.Block{slack.NewContextBlock("", mrkdwn(head(s)))}
	if s.Resent {
		blocks = append(blocks, slack.NewContextBlock("", mrkdwn("_"+escape(channel.ResentNote)+"_")))
	}
	for i, q := range s.Request.Questions {
		blocks = append(blocks, slack.NewSectionBlock(mrkdwn(questionText(q)), nil, nil))
		if full := optionsText(q); full != "" {
			blocks = append(blocks, slack.NewSectionBlock(mrkdwn(full), nil, nil))
		}
		if i == 0 && s.Request.Detail != "" {
			blocks = append(blocks, slack.NewSectionBlock(mrkdwn(detailText(s.Request.Detail, s.Link)), nil, nil))
		}
		blocks = append(blocks, choiceBlock(s, i, q), otherBlock(s, i, q))
	}
	submit := channel.Token{Key: s.Key, Rev: s.Rev, Action: actSubmit, Q: -1, O: -1}.String()
	button := slack.NewButtonBlockElement(submit, actSubmit, plain("Submit", maxOption)).WithStyle(slack.StylePrimary)
	blocks = append(blocks, slack.NewActionBlock(submit, button))
	return blocks, fallback(s)
}

// head is the line that says where the set comes from.
func head(s channel.Set) string {
	kind := ":speech_balloon: *Question*"
	if s.Request.Kind == ask.KindApproval {
		kind = ":lock: *Approval*"
	}
	line := kind + " from askuser"
	if t := ask.Display(s.Title); t != "" {
		line += " · " + escape(channel.Cut(t, 200))
	}
	if a := ask.Display(s.Request.Agent); a != "" {
		line += " · agent " + escape(channel.Cut(a, 60))
	}
	return line
}

// questionText is a question's header and text.
func questionText(q ask.Question) string {
	return fitText("*"+escape(ask.Display(q.Header))+"*\n"+escape(strings.TrimSpace(ask.DisplayBlock(q.Question))), maxText)
}

// optionsText lists a question's options in full, when a label or a
// description is too long for Slack's option ("" when none is), so
// nothing the model offered is hidden.
func optionsText(q ask.Question) string {
	if !optionsCut(q) {
		return ""
	}
	var b strings.Builder
	b.WriteString("_The options in full:_")
	for _, o := range q.Options {
		b.WriteString("\n• *" + escape(optionLabel(o)) + "*")
		if d := ask.Display(o.Description); d != "" {
			b.WriteString(" — " + escape(d))
		}
	}
	return fitText(b.String(), maxText)
}

func optionsCut(q ask.Question) bool {
	for _, o := range q.Options {
		if utf8.RuneCountInString(optionLabel(o)) > maxOption || utf8.RuneCountInString(ask.Display(o.Description)) > maxOption {
			return true
		}
	}
	return false
}

// optionLabel is an option's label as shown, "(Recommended)" marked.
func optionLabel(o ask.Option) string {
	l := ask.Display(ask.BareLabel(o.Label))
	if ask.IsRecommended(o.Label) {
		l += recommended
	}
	return l
}

// optionText fits optionLabel into Slack's limit, keeping the mark.
func optionText(o ask.Option) string {
	l := optionLabel(o)
	if utf8.RuneCountInString(l) <= maxOption || !ask.IsRecommended(o.Label) {
		return channel.Cut(l, maxOption)
	}
	return channel.Cut(ask.Display(ask.BareLabel(o.Label)), maxOption-len(recommended)) + recommended
}

// choiceBlock is question i's radio buttons or checkboxes. It sits in an
// input block, so Slack sends nothing until Submit; it is optional to
// Slack because askuser checks the answer itself (Other may stand in).
func choiceBlock(s channel.Set, i int, q ask.Question) slack.Block {
	opts := make([]*slack.OptionBlockObject, len(q.Options))
	for j, o := range q.Options {
		var desc *slack.TextBlockObject
		if d := ask.Display(o.Description); d != "" {
			desc = plain(d, maxOption)
		}
		opts[j] = slack.NewOptionBlockObject(strconv.Itoa(j), plain(optionText(o), maxOption), desc)
	}
	act, label := actPick, "Choose one"
	var el slack.BlockElement = slack.NewRadioButtonsBlockElement(idChoice, opts...)
	if q.MultiSelect {
		act, label = actTick, "Choose any"
		el = slack.NewCheckboxGroupsBlockElement(idChoice, opts...)
	}
	id := channel.Token{Key: s.Key, Rev: s.Rev, Action: act, Q: i, O: -1}.String()
	return slack.NewInputBlock(id, plain(label, maxLabel), nil, el).WithOptional(true)
}

// otherBlock is question i's text input for Other. Radio buttons cannot
// be cleared once chosen, so typed text is what answers a single-select
// question, and the hint says so.
func otherBlock(s channel.Set, i int, q ask.Question) slack.Block {
	label, hint := "Other", "Typing here answers in your own words, instead of the choice above."
	if q.MultiSelect {
		hint = "Typed text is added to what you tick."
	}
	if s.Request.Kind == ask.KindApproval {
		label, hint = "Other: instructions", "Typing here tells the agent what to do instead, whatever is chosen above."
	}
	input := slack.NewPlainTextInputBlockElement(plain("Your own answer (optional)", maxPlaceholder), idOther).
		WithMultiline(true).WithMaxLength(ask.MaxFreeTextChars)
	id := channel.Token{Key: s.Key, Rev: s.Rev, Action: actOther, Q: i, O: -1}.String()
	return slack.NewInputBlock(id, plain(label, maxLabel), plain(hint, maxLabel), input).WithOptional(true)
}

// detailText is an approval's whole tool input as a code block, cut at
// Slack's limit; below it, how much was left out and, when the inbox shows
// the set, a link to all of it.
func detailText(detail, link string) string {
	// Three backticks would end the block early: a word joiner between
	// them keeps the text as it reads and the block whole.
	body := strings.ReplaceAll(ask.DisplayBlock(detail), "```", "`\u2060`\u2060`")
	const fences = 6
	if esc := escape(body); utf8.RuneCountInString(esc)+fences <= maxText {
		return "```" + esc + "```"
	}
	note := "\n_Cut here: %d more characters are not shown in Slack; askuser serve shows all of it on the session's page._"
	if link != "" {
		note = "\n_Cut here: %d more characters; all of it is on <" + escape(link) + "|the inbox page>._"
	}
	total := utf8.RuneCountInString(body)
	kept, n := fitEscaped(body, maxText-fences-utf8.RuneCountInString(fmt.Sprintf(note, total)))
	return "```" + kept + "```" + fmt.Sprintf(note, total-n)
}

// fallback is the message's text, which Slack shows in notifications
// and to screen readers; it is mrkdwn too, so escaped.
func fallback(s channel.Set) string {
	what := "Question"
	if s.Request.Kind == ask.KindApproval {
		what = "Approval"
	}
	if t := ask.Display(s.Title); t != "" {
		what += " from " + channel.Cut(t, 80)
	}
	if len(s.Request.Questions) > 0 {
		what += ": " + ask.Display(s.Request.Questions[0].Question)
	}
	return fitText(escape(what), maxFallback)
}

// gist is what an answered message keeps of its questions.
func gist(s channel.Set) string {
	lines := make([]string, len(s.Request.Questions))
	for i, q := range s.Request.Questions {
		lines[i] = "*" + escape(ask.Display(q.Header)) + "* " + escape(channel.Cut(ask.Display(q.Question), maxGistLine))
	}
	return strings.Join(lines, "\n")
}

func plain(s string, n int) *slack.TextBlockObject {
	if s == "" {
		s = " "
	}
	return slack.NewTextBlockObject(slack.PlainTextType, channel.Cut(s, n), false, false)
}

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

// escape makes text safe in Slack's mrkdwn: &, < and > are the only
// characters Slack reads as markup (links, mentions such as <!channel>).
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// fitEscaped escapes s and keeps as much of it as fits in n characters;
// kept is how many of s's characters that is.
func fitEscaped(s string, n int) (out string, kept int) {
	var b strings.Builder
	used := 0
	for _, r := range s {
		e := escape(string(r))
		w := 1
		if len(e) > 1 && e[0] == '&' {
			w = len(e)
		}
		if used+w > n {
			break
		}
		b.WriteString(e)
		used += w
		kept++
	}
	return b.String(), kept
}

// fitText cuts mrkdwn to n characters without splitting an entity
// (&amp;), ending in "…" when cut.
func fitText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := string([]rune(s)[:max(n-1, 0)])
	if i := strings.LastIndexByte(r, '&'); i >= 0 && !strings.Contains(r[i:], ";") {
		r = r[:i]
	}
	return r + "…"
}
