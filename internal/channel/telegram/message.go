package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Send implements channel.Channel: the set's message, showing its first
// question, as a reply to s.Thread when it follows up an earlier set.
func (c *Channel) Send(ctx context.Context, s channel.Set) (channel.Ref, error) {
	n := len(s.Request.Questions)
	if n == 0 {
		return nil, errors.New("telegram: a question set without questions")
	}
	r := render(s, &state{Rev: s.Rev, Picks: make([]pick, n)})
	p := sendParams(c.chat, r.text, r.kb)
	if th, err := parseRef(s.Thread); len(s.Thread) > 0 && err == nil {
		p.ReplyParameters = &models.ReplyParameters{MessageID: th.Msg, AllowSendingWithoutReply: true}
	}
	var m *models.Message
	err := c.do(ctx, "sendMessage", func(ctx context.Context) (err error) {
		m, err = c.api.SendMessage(ctx, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(ref{Chat: m.Chat.ID, Msg: m.ID, Head: head(s)})
	return channel.Ref(b), nil
}

// closedFor is how long a message is remembered as showing its outcome:
// long past any press in flight when it was edited.
const closedFor = time.Hour

// Update implements channel.Channel: the message shows the outcome under
// its head, and its keyboard goes (editMessageText without a
// reply_markup). A message deleted meanwhile has nothing to update.
func (c *Channel) Update(ctx context.Context, cr channel.Ref, o channel.Outcome) error {
	r, err := parseRef(cr)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, at := range c.closed {
		if c.now().Sub(at) > closedFor {
			delete(c.closed, k)
		}
	}
	c.closed[r.msg()] = c.now()
	err = c.do(ctx, "editMessageText", func(ctx context.Context) error {
		_, err := c.api.EditMessageText(ctx, editTextParams(r, outcomeText(r, o), nil))
		return err
	})
	if is(err, "message is not modified") || is(err, "message to edit not found") {
		return nil
	}
	return err
}

// Reply implements channel.Channel: text, as plain text cut to fit, in
// reply to the set's message (or on its own, if that was deleted).
func (c *Channel) Reply(ctx context.Context, cr channel.Ref, text string) error {
	r, err := parseRef(cr)
	if err != nil {
		return err
	}
	body := strings.TrimSpace(ask.DisplayBlock(text))
	if body == "" {
		body = "(no text)"
	}
	p := &bot.SendMessageParams{ChatID: r.Chat, Text: fit(body, maxText, ""), LinkPreviewOptions: noPreview,
		ReplyParameters: &models.ReplyParameters{MessageID: r.Msg, AllowSendingWithoutReply: true}}
	return c.do(ctx, "sendMessage", func(ctx context.Context) error {
		_, err := c.api.SendMessage(ctx, p)
		return err
	})
}

// fit cuts s to Telegram's count of n (UTF-16 code units) with CutBlock's
// note, which names link when set.
func fit(s string, n int, link string) string {
	room := n
	for range 8 {
		out := channel.CutBlock(s, room, link)
		if units(out) <= n || room <= 0 {
			return out
		}
		room -= units(out) - n
	}
	return channel.Cut(s, n/2)
}

var noPreview = &models.LinkPreviewOptions{IsDisabled: bot.True()}

// sendParams is a message in HTML with markup (nil for none).
func sendParams(chat any, text string, markup any) *bot.SendMessageParams {
	p := &bot.SendMessageParams{ChatID: chat, Text: text, ParseMode: models.ParseModeHTML, LinkPreviewOptions: noPreview}
	if markup != nil {
		p.ReplyMarkup = markup
	}
	return p
}

// editTextParams edits message r to text in HTML with keyboard kb; a nil
// kb removes the keyboard.
func editTextParams(r ref, text string, kb *keyboard) *bot.EditMessageTextParams {
	p := &bot.EditMessageTextParams{ChatID: r.Chat, MessageID: r.Msg, Text: text, ParseMode: models.ParseModeHTML,
		LinkPreviewOptions: noPreview}
	if kb != nil {
		p.ReplyMarkup = kb
	}
	return p
}

func editMarkupParams(r ref, kb *keyboard) *bot.EditMessageReplyMarkupParams {
	return &bot.EditMessageReplyMarkupParams{ChatID: r.Chat, MessageID: r.Msg, ReplyMarkup: kb}
}

func answerParams(id, text string) *bot.AnswerCallbackQueryParams {
	return &bot.AnswerCallbackQueryParams{CallbackQueryID: id, Text: channel.Cut(text, 200)}
}
