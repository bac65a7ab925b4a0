package telegramfake_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

const token = "4839574812:AAFbq_fake-token-for-tests-0123456789ab"

func newBot(t *testing.T, srv *telegramfake.Server) *bot.Bot {
	t.Helper()
	b, err := bot.New(srv.Token, bot.WithServerURL(srv.URL), bot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The fake refuses what Telegram refuses, so a client mistake fails a
// test instead of a person's chat: bad HTML, text over 4,096 characters,
// callback_data over 64 bytes, a button with two actions (as the
// library's own button type always sends: copy_text beside
// callback_data), a reply to a message that is not there.
func TestRefusesWhatTelegramRefuses(t *testing.T) {
	srv := telegramfake.NewServer(token)
	defer srv.Close()
	srv.AddChat(7, "private")
	b := newBot(t, srv)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		p    *bot.SendMessageParams
		want string
	}{
		{"unknown tag", &bot.SendMessageParams{ChatID: 7, Text: "<blink>hi</blink>", ParseMode: models.ParseModeHTML}, "can't parse entities"},
		{"bare <", &bot.SendMessageParams{ChatID: 7, Text: "a < b", ParseMode: models.ParseModeHTML}, "can't parse entities"},
		{"unclosed", &bot.SendMessageParams{ChatID: 7, Text: "<b>bold", ParseMode: models.ParseModeHTML}, "can't parse entities"},
		{"too long", &bot.SendMessageParams{ChatID: 7, Text: strings.Repeat("😀", 2049)}, "message is too long"},
		{"empty", &bot.SendMessageParams{ChatID: 7, Text: "<b></b>", ParseMode: models.ParseModeHTML}, "message text is empty"},
		{"long data", &bot.SendMessageParams{ChatID: 7, Text: "x", ReplyMarkup: rawKeyboard(strings.Repeat("d", 65))}, "BUTTON_DATA_INVALID"},
		{"library button", &bot.SendMessageParams{ChatID: 7, Text: "x", ReplyMarkup: models.InlineKeyboardMarkup{
			InlineKeyboard: [][]models.InlineKeyboardButton{{{Text: "a", CallbackData: "a"}}}}}, "exactly one of the optional fields"},
		{"reply to nothing", &bot.SendMessageParams{ChatID: 7, Text: "x", ReplyParameters: &models.ReplyParameters{MessageID: 99}}, "message to be replied not found"},
		{"unknown chat", &bot.SendMessageParams{ChatID: 8, Text: "x"}, "chat not found"},
	} {
		if _, err := b.SendMessage(ctx, c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	m, err := b.SendMessage(ctx, &bot.SendMessageParams{ChatID: 7, Text: "<b>a</b> &lt; &#98; &amp;", ParseMode: models.ParseModeHTML,
		ReplyMarkup: rawKeyboard("data")})
	if err != nil || m.Text != "a < b &" {
		t.Fatalf("a good message: %+v, %v", m, err)
	}
	_, err = b.EditMessageReplyMarkup(ctx, &bot.EditMessageReplyMarkupParams{ChatID: 7, MessageID: m.ID, ReplyMarkup: rawKeyboard("data")})
	if err == nil || !strings.Contains(err.Error(), "message is not modified") {
		t.Errorf("an edit that changes nothing: %v", err)
	}
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: 7, MessageID: m.ID, Text: "done"}); err != nil {
		t.Fatal(err)
	}
	if now, _ := srv.Message(m.ID); now.Keyboard != nil || now.Text != "done" || len(now.Edits) != 1 {
		t.Errorf("editMessageText without reply_markup keeps the keyboard: %s", now)
	}
	srv.Delete(m.ID)
	if _, err := b.EditMessageText(ctx, &bot.EditMessageTextParams{ChatID: 7, MessageID: m.ID, Text: "again"}); err == nil || !strings.Contains(err.Error(), "message to edit not found") {
		t.Errorf("editing a deleted message: %v", err)
	}
}

type button struct {
	Text string `json:"text"`
	Data string `json:"callback_data"`
}

func rawKeyboard(data string) any {
	return map[string]any{"inline_keyboard": [][]button{{{Text: "b", Data: data}}}}
}

// One poller per token: a second getUpdates ends the first with 409
// Conflict. An offset confirms the updates before it; a callback query is
// answered once.
func TestPollingAsTelegramDoes(t *testing.T) {
	srv := telegramfake.NewServer(token)
	defer srv.Close()
	srv.AddChat(7, "private")
	b := newBot(t, srv)
	m, err := b.SendMessage(context.Background(), &bot.SendMessageParams{ChatID: 7, Text: "q", ReplyMarkup: rawKeyboard("d")})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var first *result
	wg.Add(1)
	go func() { defer wg.Done(); first = poll(t, srv, 0, 5) }()
	srv.WaitCalls(5*time.Second, func(cs []telegramfake.Call) bool { return len(cs) == 2 })
	second := poll(t, srv, 0, 0)
	wg.Wait()
	if first.code != 409 || !strings.HasPrefix(first.desc, "Conflict: terminated by other getUpdates request") || second.code != 200 {
		t.Errorf("two pollers: %+v, %+v", first, second)
	}
	q, _ := srv.Press(telegramfake.User{ID: 7, FirstName: "P"}, m.ID, "b")
	got := poll(t, srv, 0, 1)
	if len(got.updates) != 1 || got.updates[0].CallbackQuery == nil || got.updates[0].CallbackQuery.Data != "d" ||
		got.updates[0].CallbackQuery.Message.Message.ID != m.ID {
		t.Fatalf("the press: %+v", got)
	}
	if again := poll(t, srv, 0, 0); len(again.updates) != 1 {
		t.Errorf("an unconfirmed update was not delivered again: %+v", again)
	}
	if after := poll(t, srv, got.updates[0].ID+1, 0); len(after.updates) != 0 || srv.Pending() != 0 {
		t.Errorf("an offset did not confirm: %+v", after)
	}
	for i, want := range []bool{true, false} {
		_, err := b.AnswerCallbackQuery(context.Background(), &bot.AnswerCallbackQueryParams{CallbackQueryID: q, Text: "ok"})
		if (err == nil) != want {
			t.Errorf("answer %d: %v", i+1, err)
		}
	}
}

type result struct {
	code    int
	desc    string
	updates []models.Update
}

// poll makes a getUpdates call as a form, as any client may.
func poll(t *testing.T, srv *telegramfake.Server, offset int64, timeout int) *result {
	resp, err := http.PostForm(srv.URL+"/bot"+srv.Token+"/getUpdates", url.Values{
		"offset": {strconv.FormatInt(offset, 10)}, "timeout": {strconv.Itoa(timeout)}})
	if err != nil {
		t.Error(err)
		return &result{}
	}
	defer resp.Body.Close()
	var r struct {
		Result      []models.Update `json:"result"`
		Description string          `json:"description"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&r)
	return &result{code: resp.StatusCode, desc: r.Description, updates: r.Result}
}
