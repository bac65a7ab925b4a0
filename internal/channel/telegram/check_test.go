package telegram_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/telegram"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// askuser channels test telegram: a sample question is sent, or one line
// says what to fix: a bad token, a chat the bot cannot see, a person who
// blocked the bot or never started it, a group the bot is not in.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, want string
		setup      func(*telegramfake.Server)
		token      string
	}{
		{name: "ok", setup: func(s *telegramfake.Server) { s.AddChat(1001, "private") }},
		{name: "bad token", token: "1:not-this-bots-token-at-all-0123456789", want: "bad token: Telegram refused TELEGRAM_BOT_TOKEN (Unauthorized): copy the token again from @BotFather"},
		{name: "unknown chat", want: "unknown chat: ASKUSER_TELEGRAM_CHAT is not a chat this bot can write to"},
		{name: "blocked", want: "the user blocked the bot: open the bot in Telegram, unblock it and press Start",
			setup: func(s *telegramfake.Server) {
				s.AddChat(1001, "private")
				s.Refuse(1001, "bot was blocked by the user")
			}},
		{name: "never started", want: "the bot may not write first to this user: open the bot in Telegram and press Start",
			setup: func(s *telegramfake.Server) {
				s.AddChat(1001, "private")
				s.Refuse(1001, "bot can't initiate conversation with a user")
			}},
		{name: "not in the group", want: "the bot is not in that group: add it to the group",
			setup: func(s *telegramfake.Server) {
				s.AddChat(1001, "group")
				s.Refuse(1001, "bot is not a member of the group chat")
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := telegramfake.NewServer(token)
			defer srv.Close()
			srv.EchoToken()
			if c.setup != nil {
				c.setup(srv)
			}
			tok := token
			if c.token != "" {
				tok = c.token
			}
			cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": tok, "ASKUSER_TELEGRAM_CHAT": "1001",
				"ASKUSER_TELEGRAM_USERS": "1001", "ASKUSER_TELEGRAM_API_URL": srv.URL + "/"})
			ch, err := telegram.NewWithTimings(cfg, testTimings)
			if err != nil {
				t.Fatal(err)
			}
			err = ch.Check(context.Background())
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				ms := srv.Messages()
				if len(ms) != 1 || ms[0].Chat != 1001 || !strings.Contains(ms[0].Text, "A sample question from @askuser_fake_bot") || len(ms[0].Keyboard) != 1 {
					t.Errorf("the sample: %+v", ms)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Check: %v\nwant a line starting %q", err, c.want)
			}
			if err != nil {
				noToken(t, "the error", err.Error())
				noToken(t, "the error", strings.ReplaceAll(err.Error(), tok, ""))
				if strings.Contains(err.Error(), tok) {
					t.Errorf("the error quotes the token: %v", err)
				}
			}
		})
	}
}

// The allow-list holds user ids: a group's chat id or a @username is
// refused with what to use instead, and the list is required.
func TestAllowListIsUserIDs(t *testing.T) {
	spec, _ := channel.Lookup(telegram.Name)
	base := map[string]string{"TELEGRAM_BOT_TOKEN": token, "ASKUSER_TELEGRAM_CHAT": "-100500"}
	for users, want := range map[string]string{
		"":             "ASKUSER_TELEGRAM_USERS (or --telegram-users) is empty",
		"1001,-100500": "is a chat id, not a user id",
		"@alice":       "is a username: list numeric user ids",
		"alice":        "is not a Telegram user id",
	} {
		env := map[string]string{"ASKUSER_TELEGRAM_USERS": users}
		for k, v := range base {
			env[k] = v
		}
		_, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("users %q: %v, want %q", users, err, want)
		}
	}
	cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": token, "ASKUSER_TELEGRAM_CHAT": "-100500", "ASKUSER_TELEGRAM_USERS": "1001, 0042"})
	if !cfg.Allow.Allows("1001") || !cfg.Allow.Allows("42") || cfg.Allow.Allows("100") || cfg.Allow.Allows("10011") {
		t.Errorf("the allow-list compares ids wrongly: %+v", cfg.Allow)
	}
}

// A token or a destination that cannot be right is refused when the
// channel is built, without quoting the token.
func TestBadSettingsAreRefused(t *testing.T) {
	for _, c := range []struct{ tok, chat, api, want string }{
		{"123:abc/../../x", "1001", "http://127.0.0.1:1", "TELEGRAM_BOT_TOKEN does not look like a bot token"},
		{token, "my-group", "http://127.0.0.1:1", "ASKUSER_TELEGRAM_CHAT is \"my-group\": give the numeric chat id"},
	} {
		cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": c.tok, "ASKUSER_TELEGRAM_CHAT": c.chat,
			"ASKUSER_TELEGRAM_USERS": "1001", "ASKUSER_TELEGRAM_API_URL": c.api})
		_, err := telegram.New(cfg)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), c.tok) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestParseTimings(t *testing.T) {
	got, err := telegram.ParseTimings("poll=2s, grace=500ms,call=1s,inline=3s,retry=100ms", telegram.DefaultTimings)
	want := telegram.Timings{Poll: 2 * time.Second, Grace: 500 * time.Millisecond, Call: time.Second, InlineWait: 3 * time.Second, RetryMax: 100 * time.Millisecond}
	if err != nil || got != want {
		t.Errorf("%+v, %v", got, err)
	}
	for _, bad := range []string{"poll=500ms", "grace=-1s", "sleep=1s", "poll", "call=soon"} {
		if _, err := telegram.ParseTimings(bad, telegram.DefaultTimings); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}
