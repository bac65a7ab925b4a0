package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Texts a person is told, privately.
const (
	stale  = "This question changed: answer the latest message."
	sample = "This is askuser's sample question (askuser channels test): your answer reached askuser, and nothing was recorded."
)

// submitOf finds askuser's Submit among a block_actions payload's actions.
func submitOf(cb slack.InteractionCallback) (channel.Token, *slack.BlockAction, bool) {
	if cb.Type != slack.InteractionTypeBlockActions {
		return channel.Token{}, nil, false
	}
	for _, a := range cb.ActionCallback.BlockActions {
		if t, err := channel.ParseToken(a.ActionID); err == nil && t.Action == actSubmit {
			return t, a, true
		}
	}
	return channel.Token{}, nil, false
}

// who names the person who tapped: "@username", else "@name", else the
// id; cleaned, as anything a platform sends.
func who(u slack.User) channel.Who {
	name := strings.TrimSpace(ask.Display(u.Username))
	if name == "" {
		name = strings.TrimSpace(ask.Display(u.Name))
	}
	if name == "" {
		name = ask.Display(u.ID)
	} else {
		name = "@" + strings.TrimPrefix(channel.Cut(name, 60), "@")
	}
	return channel.Who{Channel: Name, ID: u.ID, Name: name}
}

// problem is why a submitted form does not answer its set; it is told to
// the person, and the set keeps waiting.
type problem struct{ msg string }

func (p *problem) Error() string { return p.msg }

func problemf(format string, args ...any) error { return &problem{msg: fmt.Sprintf(format, args...)} }

// answersOf reads the answers to set s from a submitted form's
// state.values. Choices come as option indexes and are turned into the
// labels s holds, never labels Slack echoes back. A single-select
// question takes its typed text over its radio button (which cannot be
// cleared once chosen); a multiSelect question takes both. Every answer
// is a person's, and names them.
func answersOf(s channel.Set, tok channel.Token, state *slack.BlockActionStates, by channel.Who, now time.Time) ([]ask.Answer, error) {
	forms := map[int]*form{}
	if state != nil {
		for blockID, actions := range state.Values {
			t, err := channel.ParseToken(blockID)
			if err != nil || t.Key != tok.Key || t.Rev != tok.Rev || t.Q < 0 || t.Q >= len(s.Request.Questions) {
				continue
			}
			if forms[t.Q] == nil {
				forms[t.Q] = &form{}
			}
			forms[t.Q].read(t.Action, actions)
		}
	}
	answers := make([]ask.Answer, len(s.Request.Questions))
	for i, q := range s.Request.Questions {
		f := forms[i]
		if f == nil {
			f = &form{}
		}
		a, err := f.answer(q)
		if err != nil {
			return nil, err
		}
		a.Via, a.AnsweredAt = by.Via(), now
		answers[i] = a
	}
	return answers, nil
}

// form is what a person filled in for one question.
type form struct {
	picked []string // option indexes, as Slack sends their values
	typed  string
}

func (f *form) read(action string, actions map[string]slack.BlockAction) {
	switch action {
	case actPick:
		if v := actions[idChoice].SelectedOption.Value; v != "" {
			f.picked = append(f.picked, v)
		}
	case actTick:
		for _, o := range actions[idChoice].SelectedOptions {
			f.picked = append(f.picked, o.Value)
		}
	case actOther:
		f.typed = actions[idOther].Value
	}
}

func (f *form) answer(q ask.Question) (ask.Answer, error) {
	header := ask.Display(q.Header)
	var labels []string
	for _, v := range f.picked {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n >= len(q.Options) || strconv.Itoa(n) != v {
			return ask.Answer{}, problemf("%q: that choice is not one of this question's options; answer the latest message", header)
		}
		labels = append(labels, q.Options[n].Label)
	}
	text := ask.CleanFreeText(f.typed)
	if text != "" && !q.MultiSelect {
		labels = nil
	}
	if !q.MultiSelect && len(labels) == 0 && text == "" {
		return ask.Answer{}, problemf("%q needs an answer: choose one, or type your own under Other, then press Submit again.", header)
	}
	a, err := ask.Selection(q, labels, text, ask.SourcePerson)
	if err != nil {
		return ask.Answer{}, &problem{msg: err.Error()}
	}
	return a, nil
}

// delivery names one click, the same however often Slack sends it: who
// clicked, on which message, when.
func delivery(cb slack.InteractionCallback, a *slack.BlockAction) string {
	return "slack:" + cb.User.ID + ":" + cb.Container.MessageTs + ":" + a.ActionTs
}

// take answers one tap. The envelope is acknowledged as soon as the tap
// is taken or refused, and after Options.AckWithin at the latest; what
// the person is to be told follows, privately.
func (c *Channel) take(serving context.Context, acknowledge func(), h channel.Host, cb slack.InteractionCallback) {
	// A tap taken is answered whole, though serving ends meanwhile; what
	// follows the answer gets a minute, or drainLimit once serving ends.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(serving), time.Minute)
	defer cancel()
	defer context.AfterFunc(serving, func() { time.AfterFunc(drainLimit, cancel) })()
	ack := sync.OnceFunc(acknowledge)
	late := time.AfterFunc(c.opt.AckWithin, ack)
	defer late.Stop()
	defer ack()
	tok, action, ok := submitOf(cb)
	if !ok {
		return
	}
	channelID, thread := cb.Container.ChannelID, cb.Container.ThreadTs
	if channelID == "" {
		channelID = cb.Channel.ID
	}
	if thread == "" {
		thread = cb.Message.ThreadTimestamp
	}
	if !c.cfg.Allow.Allows(cb.User.ID) {
		// Acknowledged at once, told off the person's path, and recorded
		// nowhere: a flood of strangers spends neither the person's time
		// nor chat.postEphemeral's rate limit (Tier 4, about 100 a
		// minute), which the person's own refusals need.
		ack()
		user := cb.User.ID
		c.strangers.Tell(func(ctx context.Context) {
			_ = c.api.do(ctx, mEphemeral, func(ctx context.Context) error {
				return c.postEphemeral(ctx, channelID, thread, user, channel.NotAllowed)
			})
		})
		return
	}
	id := delivery(cb, action)
	// Taken once, in every process of the store: one taken before a
	// restart is not acted on again. Slack sends an envelope again when
	// it doubts its ack arrived (and retries an Events API delivery 3
	// times within about 5 minutes); the record (channel.KeepTaken, 8
	// days) outlasts both.
	if taken, _ := c.seen.Taken(ctx, h, id); taken || !c.seen.Add(id) {
		return // the same click again: it is being, or was, answered
	}
	v, set := c.verdict(ctx, h, tok, cb, id)
	ack()
	_ = c.seen.Take(ctx, h, id)
	if !v.OK {
		if v.Text != "" {
			_ = c.ephemeral(ctx, channelID, thread, cb.User.ID, v.Text)
		}
		return
	}
	// The message tapped shows the outcome at once. The Host updates the
	// message it knows of too, later; the two differ when a process was
	// killed after posting a set and before keeping its reference, and
	// posted the set again: then both show it.
	tapped := ref{Channel: channelID, TS: cb.Container.MessageTs, Thread: thread, Head: head(set), Gist: gist(set)}
	if b, err := json.Marshal(tapped); err == nil && tapped.TS != "" {
		_ = c.Update(ctx, channel.Ref(b), channel.Outcome{State: channel.Answered, Text: v.Text})
	}
}

// verdict is what becomes of a tap, and the set it answered. Nothing is
// delivered for a stranger, a stale rendering or a form that does not
// answer the set: the verdict says what to tell the person.
func (c *Channel) verdict(ctx context.Context, h channel.Host, tok channel.Token, cb slack.InteractionCallback, id string) (channel.Verdict, channel.Set) {
	no := func(text string) (channel.Verdict, channel.Set) { return channel.Verdict{Text: text}, channel.Set{} }
	by := who(cb.User)
	if !c.cfg.Allow.Allows(by.ID) {
		return no(channel.NotAllowed)
	}
	if tok.Key == sampleKey {
		return no(sample)
	}
	set, _, err := h.Lookup(ctx, tok.Key)
	switch {
	case errors.Is(err, channel.ErrUnknownSet):
		return no(notWaiting)
	case err != nil:
		return no(tryAgain)
	case tok.Rev != set.Rev:
		return no(stale)
	}
	answers, err := answersOf(set, tok, cb.BlockActionState, by, c.opt.Now())
	if err != nil {
		return no(err.Error())
	}
	if qs := emptyQuestions(set, answers); len(qs) > 0 && !c.empties.confirmed(by.ID, tok, qs, c.opt.Now()) {
		return no(nothingTicked(set, qs))
	}
	v := h.Deliver(ctx, channel.Tap{Key: tok.Key, Rev: tok.Rev, Answers: answers, Who: by, Delivery: id})
	if v.OK && v.Text == "" {
		v.Text = "Answered by " + by.Via() + "."
	}
	return v, set
}
