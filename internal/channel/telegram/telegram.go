// Package telegram is askuser's Telegram channel: a question set becomes a
// bot's message in one chat, asked one question at a time with an inline
// keyboard, and the buttons people press become answers. It is the only
// importer of github.com/go-telegram/bot, and knows nothing of sessions:
// it talks to askuser through channel.Host.
//
// How a set is asked:
//   - One message per set, showing one question: its header and text, the
//     options with their descriptions, "(Recommended)" marked, and (for an
//     approval) the tool's whole input as a code block, cut at Telegram's
//     4,096 characters with a link to the inbox page for the rest. One
//     button per option, and "Other…".
//   - A single select is answered by a press. A multi-select toggles ticks
//     in the keyboard (editMessageReplyMarkup) and ends with Done; Done
//     with nothing ticked sends nothing, and offers "Submit with nothing
//     selected", so no single stray press answers it empty. Other
//     sends a ForceReply prompt; the person's reply to it is the answer.
//     Each answer moves the message on to the next question
//     (editMessageText); the last one hands the whole set to the Host.
//   - Every callback query of an allowed person is answered
//     (answerCallbackQuery) with what became of the press. A stranger's
//     press records nothing, and is answered "not allowed to answer" off
//     the poller, paced and best effort (channel.Strangers): a flood of
//     strangers' presses never waits in front of the person's.
//
// Invariants:
//   - callback_data is a channel.Token (at most 64 bytes): the set's key,
//     the rendering's revision, the action and the question and option
//     indexes. Answers are built from the options the Host holds, never
//     from what a button's text says.
//   - Who may answer is decided by the user who pressed (from.id), never
//     by the chat: anyone in a group can press a button. One person
//     answers a set: another allowed person who presses half-way starts
//     it over for themselves, so every answer of a set is theirs.
//   - The answers so far live in the Host (Save) before a press is
//     acknowledged, and an update is confirmed to Telegram (the next
//     getUpdates offset) only after it was handled: a process killed in
//     between gets the update again, and a press seen twice counts once
//     (the Host's record of the updates taken, channel.Taker, in every
//     process of the store; the set's Seen; the Host's Deliver).
//   - Tokens never leave this package unredacted: every error goes
//     through channel.Redact, the library's own logging is off, and the
//     long poll is this package's own request, so its URL is redacted too.
//   - Rate limits are kept per method: after a 429 with retry_after, that
//     method is not called again before the time is up. A long poll with
//     no answer past its timeout plus Grace (10 s) is abandoned and made
//     again.
package telegram

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Name is the channel's frontend name.
const Name = "telegram"

func init() {
	channel.Register(channel.Spec{Name: Name, Normalise: userID,
		New: func(c channel.Config) (channel.Channel, error) { return New(c) }})
}

// userID checks an allow-list entry: a Telegram user id is a positive
// number. A group's chat id (negative) or a @username is refused with
// what to use instead.
func userID(s string) (string, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err == nil && n > 0:
		return strconv.FormatInt(n, 10), nil
	case err == nil:
		return "", fmt.Errorf("%s is a chat id, not a user id: list the numeric ids of the people who may answer", ask.Excerpt(s))
	case strings.HasPrefix(s, "@"):
		return "", fmt.Errorf("%s is a username: list numeric user ids (a username can change hands)", ask.Excerpt(ask.Display(s)))
	}
	return "", fmt.Errorf("%s is not a Telegram user id: list numeric user ids, comma-separated", ask.Excerpt(ask.Display(s)))
}

// Timings are how long the channel waits on Telegram.
type Timings struct {
	// Poll is the long poll's timeout, as getUpdates is told; a poll with
	// no answer Grace after that is abandoned and made again.
	Poll, Grace time.Duration
	// Call bounds every other call.
	Call time.Duration
	// InlineWait is the longest a call waits out a rate limit in place;
	// a longer one fails at once, and the caller retries later.
	InlineWait time.Duration
	// RetryMax caps the wait between failed polls.
	RetryMax time.Duration
}

// DefaultTimings are the production timings; the end-to-end build of
// askuser can shorten them (timings_testhook.go).
var DefaultTimings = Timings{Poll: 30 * time.Second, Grace: 10 * time.Second, Call: 30 * time.Second,
	InlineWait: 5 * time.Second, RetryMax: 30 * time.Second}

// timings are what New uses.
var timings = DefaultTimings

// Channel is the Telegram channel for one chat and allow-list.
type Channel struct {
	cfg   channel.Config
	chat  any // the destination: an int64 chat id, or "@channel"
	api   *bot.Bot
	base  string // the Bot API server, without a trailing slash
	token string
	botID int64
	http  *http.Client
	t     Timings
	gate  gate
	now   func() time.Time

	// mu orders edits of a set's message: an outcome (Update) is the
	// last thing a message shows, whatever a press in flight does.
	mu     sync.Mutex
	closed map[ref]time.Time

	// taken are the updates acted on (and the Host's record of them).
	taken *channel.Recent
	// maxUpdates bounds a getUpdates answer (maxUpdatesBytes).
	maxUpdates int64
}

var _ channel.Channel = (*Channel)(nil)

// New builds the channel for cfg. It calls nothing: Check does.
func New(cfg channel.Config) (*Channel, error) {
	return newChannel(cfg, timings)
}

func newChannel(cfg channel.Config, t Timings) (*Channel, error) {
	token := cfg.Secret("TELEGRAM_BOT_TOKEN")
	if !validToken(token) {
		return nil, fmt.Errorf("TELEGRAM_BOT_TOKEN does not look like a bot token (digits, a colon, then letters, digits, - and _): copy it again from @BotFather")
	}
	base := strings.TrimRight(cfg.API, "/") // checked by channel.Spec.Read
	chat, err := chatID(cfg.Dest)
	if err != nil {
		return nil, err
	}
	c := &Channel{cfg: cfg, chat: chat, base: base, token: token, http: &http.Client{}, t: t,
		gate: gate{until: map[string]time.Time{}}, now: time.Now, closed: map[ref]time.Time{}, taken: channel.NewRecent(1024),
		maxUpdates: maxUpdatesBytes}
	c.botID, _ = strconv.ParseInt(token[:strings.IndexByte(token, ':')], 10, 64)
	// The library logs nothing (its default handlers print whole updates
	// and errors), and its client is ours: every call is bounded by its
	// context (Timings.Call), not by a client-wide timeout.
	quiet := func(string, ...any) {}
	c.api, err = bot.New(token, bot.WithSkipGetMe(), bot.WithServerURL(base), bot.WithHTTPClient(t.Poll, c.http),
		bot.WithErrorsHandler(func(error) {}), bot.WithDebugHandler(quiet))
	if err != nil {
		return nil, fmt.Errorf("telegram: %s", channel.Redact(err.Error(), token))
	}
	return c, nil
}

// validToken reports whether s has a bot token's shape; anything else
// (a path, spaces) would change the URL it is put in.
func validToken(s string) bool {
	id, rest, ok := strings.Cut(s, ":")
	if !ok || id == "" || rest == "" || strings.Trim(id, "0123456789") != "" {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// chatID reads ASKUSER_TELEGRAM_CHAT: a numeric chat id, or a public
// channel's @username.
func chatID(s string) (any, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n != 0 {
		return n, nil
	}
	if strings.HasPrefix(s, "@") && len(s) > 1 && strings.Trim(strings.ToLower(s[1:]), "abcdefghijklmnopqrstuvwxyz0123456789_") == "" {
		return s, nil
	}
	return nil, fmt.Errorf("ASKUSER_TELEGRAM_CHAT is %s: give the numeric chat id (a user's id for a private chat, a negative id for a group) or @channelname", ask.Excerpt(ask.Display(s)))
}

// Name implements channel.Channel.
func (c *Channel) Name() string { return Name }
