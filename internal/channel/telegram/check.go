package telegram

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/internal/channel"
)

// sampleData is what the sample question's buttons carry: not a Token,
// so a press on it is told it was a sample.
const sampleData = "askuser.sample"

// Check implements channel.Channel: getMe proves the token, and a sample
// question sent to the chat proves the bot may write there. Its error
// says in one line what to fix.
func (c *Channel) Check(ctx context.Context) error {
	var me *models.User
	err := c.do(ctx, "getMe", func(ctx context.Context) (err error) {
		me, err = c.api.GetMe(ctx)
		return err
	})
	if err != nil {
		return checkError(err)
	}
	kb := &keyboard{InlineKeyboard: [][]button{{{Text: "Yes", Data: sampleData}, {Text: "No", Data: sampleData}}}}
	text := "<b>askuser channels test</b>\nA sample question from @" + esc(me.Username) +
		": questions will look like this. Would you answer here?\n\n<i>The buttons record nothing.</i>"
	err = c.do(ctx, "sendMessage", func(ctx context.Context) error {
		_, err := c.api.SendMessage(ctx, sendParams(c.chat, text, kb))
		return err
	})
	return checkError(err)
}

// checkError words what went wrong for the person setting the channel up.
func checkError(err error) error {
	var ae *apiError
	if err == nil || !errors.As(err, &ae) {
		return err
	}
	d := strings.ToLower(ae.text)
	var why string
	switch {
	case ae.code == http.StatusUnauthorized:
		return errors.New("bad token: " + ae.text) // apiError words it
	case strings.Contains(d, "chat not found"):
		why = "unknown chat: ASKUSER_TELEGRAM_CHAT is not a chat this bot can write to; for a person's chat, open the bot in Telegram and press Start; for a group, add the bot to it"
	case strings.Contains(d, "bot was blocked by the user"):
		why = "the user blocked the bot: open the bot in Telegram, unblock it and press Start"
	case strings.Contains(d, "can't initiate conversation"):
		why = "the bot may not write first to this user: open the bot in Telegram and press Start"
	case strings.Contains(d, "not a member") || strings.Contains(d, "kicked"):
		why = "the bot is not in that group: add it to the group, then try again"
	case ae.code == 0:
		why = "no proper answer from the Bot API: check ASKUSER_TELEGRAM_API_URL and the network"
	default:
		return err
	}
	return errors.New(why + " (" + channel.Cut(ae.text, 120) + ")")
}
