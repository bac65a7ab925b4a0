package telegram

import (
	"context"
	"fmt"
	"strconv"

	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// press handles a press on an inline button and says what to answer the
// callback query with.
func (c *Channel) press(ctx context.Context, h channel.Host, q *models.CallbackQuery) channel.Verdict {
	if q.Data == sampleData {
		return channel.Verdict{Text: sampleSaid}
	}
	tok, err := channel.ParseToken(q.Data)
	if err != nil || tok.Action == actReply {
		return channel.Verdict{Text: notOurs}
	}
	who := whoOf(q.From)
	if !c.cfg.Allow.Allows(who.ID) {
		return channel.Verdict{Text: channel.NotAllowed}
	}
	t, v := c.begin(ctx, h, tok, who, "cb:"+q.ID)
	if t == nil {
		return v
	}
	if r := messageOf(q.Message); r.Msg != 0 {
		t.st.Msg = r
	}
	return t.press(ctx, tok)
}

// messageOf is the message a press was made on.
func messageOf(m models.MaybeInaccessibleMessage) ref {
	switch {
	case m.Message != nil:
		return ref{Chat: m.Message.Chat.ID, Msg: m.Message.ID}
	case m.InaccessibleMessage != nil:
		return ref{Chat: m.InaccessibleMessage.Chat.ID, Msg: m.InaccessibleMessage.MessageID}
	}
	return ref{}
}

// press applies a press with tok to the set.
func (t *turn) press(ctx context.Context, tok channel.Token) channel.Verdict {
	st := t.st
	switch {
	case st.seen(t.id) && st.Complete:
		// The last press, delivered again: the Host answers it as it
		// answered it first, or takes it now if it never got it.
		return t.deliver(ctx)
	case st.seen(t.id):
		t.show(ctx)
		return channel.Verdict{OK: true, Text: "Already recorded."}
	}
	if v, ok := t.take(ctx, tok.Q); !ok {
		return v
	}
	if st.Complete {
		// Pressed again after the last answer: the Host says whether
		// the set was taken.
		return t.deliver(ctx)
	}
	n := len(t.set.Request.Questions)
	if tok.Q != st.Q {
		t.show(ctx)
		return channel.Verdict{Text: fmt.Sprintf("Question %d is answered already; now question %d of %d.", tok.Q+1, st.Q+1, n)}
	}
	q := t.set.Request.Questions[st.Q]
	option := tok.O >= 0 && tok.O < len(q.Options)
	switch {
	case tok.Action == actPick && !q.MultiSelect && option:
		st.Picks[st.Q] = pick{Options: []int{tok.O}, At: t.now()}
		return t.advance(ctx)
	case tok.Action == actTick && q.MultiSelect && option:
		st.toggle(tok.O)
		st.see(t.id)
		if err := t.save(ctx); err != nil {
			return channel.Verdict{Text: tryAgain}
		}
		t.showTicks(ctx)
		return channel.Verdict{OK: true}
	case tok.Action == actDone && q.MultiSelect && len(st.Picks[st.Q].Options) == 0:
		return t.askNone(ctx)
	case (tok.Action == actDone || tok.Action == actNone && st.confirming()) && q.MultiSelect:
		st.Picks[st.Q].Other, st.Picks[st.Q].At = "", t.now()
		return t.advance(ctx)
	case tok.Action == actNone && q.MultiSelect:
		return channel.Verdict{Text: "Tick what applies, then Done."}
	case tok.Action == actOther:
		return t.prompt(ctx)
	}
	return channel.Verdict{Text: notOurs}
}

// askNone answers Done pressed with nothing ticked: nothing is sent yet,
// and the keyboard offers noneLabel, so an empty answer takes a second,
// deliberate press.
func (t *turn) askNone(ctx context.Context) channel.Verdict {
	t.st.Empty = true
	t.st.see(t.id)
	if err := t.save(ctx); err != nil {
		return channel.Verdict{Text: tryAgain}
	}
	t.showTicks(ctx)
	return channel.Verdict{OK: true, Text: "Nothing is ticked. Tick what applies, then Done; or press \u201c" + noneLabel + "\u201d."}
}

// showTicks edits the keyboard to show the ticks.
func (t *turn) showTicks(ctx context.Context) {
	if t.st.Msg.Msg == 0 {
		return
	}
	kb := buttons(t.set, t.st)
	t.c.edit(ctx, t.st.Msg, "editMessageReplyMarkup", func(ctx context.Context) error {
		_, err := t.c.api.EditMessageReplyMarkup(ctx, editMarkupParams(t.st.Msg, kb))
		return err
	})
}

// prompt asks for typed text for the question asked now: a ForceReply
// message replying to the set's message.
func (t *turn) prompt(ctx context.Context) channel.Verdict {
	q := t.set.Request.Questions[t.st.Q]
	chat := t.st.Msg.Chat
	if chat == 0 {
		return channel.Verdict{Text: tryAgain}
	}
	id, _ := strconv.ParseInt(t.who.ID, 10, 64)
	fr := forceReply{ForceReply: true, Selective: true, Placeholder: channel.Cut("Your answer: "+ask.Display(q.Header), 64)}
	p := sendParams(chat, promptText(t.set, t.st, t.who, id), fr)
	p.ReplyParameters = &models.ReplyParameters{MessageID: t.st.Msg.Msg, AllowSendingWithoutReply: true}
	err := t.c.do(ctx, "sendMessage", func(ctx context.Context) error {
		_, err := t.c.api.SendMessage(ctx, p)
		return err
	})
	if err != nil {
		return channel.Verdict{Text: "Could not ask for your answer just now; try again."}
	}
	t.st.see(t.id)
	if err := t.save(ctx); err != nil {
		return channel.Verdict{Text: tryAgain}
	}
	return channel.Verdict{OK: true, Text: "Type your answer as a reply to my message."}
}

// onMessage takes a reply to an Other prompt as the answer to its
// question. Other messages are not askuser's business; a stranger's reply
// is ignored, unanswered.
func (c *Channel) onMessage(ctx context.Context, h channel.Host, m *models.Message) {
	to := m.ReplyToMessage
	if to == nil || to.From == nil || to.From.ID != c.botID || m.From == nil {
		return
	}
	tok, ok := promptToken(to.Text)
	if !ok {
		return
	}
	who := whoOf(*m.From)
	if !c.cfg.Allow.Allows(who.ID) {
		return
	}
	v := c.typed(ctx, h, tok, who, m)
	if v.OK || v.Text == "" {
		return
	}
	// Said as a reply to their message: there is no callback to answer.
	p := sendParams(m.Chat.ID, esc(v.Text), nil)
	p.ReplyParameters = &models.ReplyParameters{MessageID: m.ID, AllowSendingWithoutReply: true}
	_ = c.do(ctx, "sendMessage", func(ctx context.Context) error {
		_, err := c.api.SendMessage(ctx, p)
		return err
	})
}

// typed applies a reply to the prompt of tok's question.
func (c *Channel) typed(ctx context.Context, h channel.Host, tok channel.Token, who channel.Who, m *models.Message) channel.Verdict {
	t, v := c.begin(ctx, h, tok, who, "msg:"+strconv.FormatInt(m.Chat.ID, 10)+":"+strconv.Itoa(m.ID))
	if t == nil {
		return v
	}
	st := t.st
	switch {
	case st.seen(t.id) && st.Complete:
		return t.deliver(ctx)
	case st.seen(t.id):
		return channel.Verdict{OK: true}
	case st.Who != nil && st.Who.ID != who.ID:
		return channel.Verdict{Text: st.Who.Name + " is answering this question set: press Other… on it yourself to start over."}
	case st.Complete:
		return channel.Verdict{Text: "This question set is answered already."}
	case tok.Q != st.Q:
		return channel.Verdict{Text: fmt.Sprintf("That was for question %d; the question now is %d.", tok.Q+1, st.Q+1)}
	}
	text := ask.CleanFreeText(m.Text)
	if text == "" {
		return channel.Verdict{Text: "Send your answer as text, replying to my message."}
	}
	st.Who = &who
	p := &st.Picks[st.Q]
	p.Other, p.At = text, t.now()
	if !t.set.Request.Questions[st.Q].MultiSelect {
		p.Options = nil
	}
	return t.advance(ctx)
}
