package telegram

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// What a press or a reply is told.
const (
	notWaiting = "This question is no longer waiting."
	outOfDate  = "This message is out of date: answer the newest one."
	tryAgain   = "Your answer could not be taken just now; try again."
	notOurs    = "This button is not one of askuser's current questions."
	sampleSaid = "This was a sample question from askuser channels test: nothing is recorded."
)

// Serve implements channel.Channel: it long-polls for updates and hands
// each to h, one at a time, confirming an update to Telegram (the next
// poll's offset) only once it was handled. A stranger's press is answered
// off that path (channel.Strangers), so no flood of them delays the
// person's answer.
func (c *Channel) Serve(ctx context.Context, h channel.Host) error {
	var offset int64
	unconfirmed := false
	strangers := channel.NewStrangers()
	sctx, stopStrangers := context.WithCancel(ctx)
	go strangers.Run(sctx)
	defer stopStrangers()
	defer func() {
		if unconfirmed {
			c.confirm(offset)
		}
	}()
	for fails := 0; ctx.Err() == nil; {
		if left := c.gate.left("getUpdates"); left > 0 && channel.Sleep(ctx, left) != nil {
			break
		}
		p, err := c.poll(ctx, offset, c.t.Poll)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if err := fatal(err); err != nil {
				return err
			}
			fails++
			notice(h, fails, err)
			if !isRateLimit(err) {
				_ = channel.Sleep(ctx, min(500*time.Millisecond<<min(fails-1, 10), c.t.RetryMax))
			}
			continue
		}
		fails, unconfirmed = 0, false
		for _, why := range p.skipped {
			if n, ok := h.(channel.Noticer); ok {
				n.Notice("getUpdates skipped", "an update Telegram sent could not be taken: "+why)
			}
		}
		for _, u := range p.updates {
			if u.ID < offset {
				continue
			}
			switch {
			case c.stranger(u):
				q := u.CallbackQuery.ID
				strangers.Tell(func(ctx context.Context) { c.answerStranger(ctx, q) })
			case c.ours(u):
				c.handle(ctx, h, u)
			}
			offset, unconfirmed = u.ID+1, true
		}
	}
	return nil
}

// confirm tells Telegram the updates before offset were handled, when
// serving stops: a later poller then does not get them again.
func (c *Channel) confirm(offset int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, _ = c.getUpdates(ctx, offset, 0, 0)
}

// fatal is the error Serve stops with, when a poll failed for a reason
// retrying will not fix.
func fatal(err error) error {
	var ae *apiError
	if !errors.As(err, &ae) {
		return nil
	}
	switch {
	case ae.code == http.StatusUnauthorized || ae.code == http.StatusNotFound:
		return errors.New(ae.text) // worded for the person by apiErr
	case ae.code == http.StatusConflict && strings.Contains(strings.ToLower(ae.text), "webhook"):
		return errors.New("the bot has a webhook set, and askuser polls for updates: remove the webhook (deleteWebhook) or use another bot")
	}
	return nil
}

// notice tells whoever runs askuser (serve's log) that presses are not
// coming in: at once when another program reads the bot's updates (409
// Conflict: Telegram gives each update to one reader), else after a few
// failed polls in a row. The Host says each distinct line once.
func notice(h channel.Host, fails int, err error) {
	n, ok := h.(channel.Noticer)
	var ae *apiError
	switch {
	case !ok:
	case errors.As(err, &ae) && ae.code == http.StatusConflict:
		n.Notice("getUpdates", "another program is reading this bot's updates (409 Conflict), so presses may reach it instead of askuser: give each askuser state directory, and each machine, its own bot")
	case fails == 3:
		n.Notice("getUpdates", "cannot get updates from Telegram, retrying; presses wait until then: "+err.Error())
	}
}

func isRateLimit(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.code == http.StatusTooManyRequests
}

// handle handles one update. It goes on when serving stops meanwhile, so a
// press is not left half done; it is bounded all the same. An update
// taken before (by this process or another of the store, and delivered
// again since: a process killed before its next poll confirmed it) is
// not acted on again, whatever the set's own state remembers; its
// callback query is still answered.
func (c *Channel) handle(ctx context.Context, h channel.Host, u models.Update) {
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*c.t.Call)
	defer cancel()
	id := c.deliveryOf(u)
	// A record that cannot be read takes nothing away: the set's own
	// state (Seen) still counts a press once.
	if taken, _ := c.taken.Taken(hctx, h, id); taken {
		if u.CallbackQuery != nil {
			c.answerQuery(hctx, u.CallbackQuery.ID, channel.Verdict{Text: "Already recorded."})
		}
		return
	}
	defer func() { _ = c.taken.Take(hctx, h, id) }()
	switch {
	case u.CallbackQuery != nil:
		v := c.press(hctx, h, u.CallbackQuery)
		c.answerQuery(hctx, u.CallbackQuery.ID, v)
	case u.Message != nil:
		c.onMessage(hctx, h, u.Message)
	}
}

// answerQuery answers callback query id with v's text: every callback
// query is answered, whatever became of it; a rate limit short enough is
// waited out and the answer made again.
func (c *Channel) answerQuery(ctx context.Context, id string, v channel.Verdict) {
	for range 2 {
		err := c.do(ctx, "answerCallbackQuery", func(ctx context.Context) error {
			_, err := c.api.AnswerCallbackQuery(ctx, answerParams(id, v.Text))
			return err
		})
		if !isRateLimit(err) {
			break
		}
	}
}

// stranger reports whether u is a press by someone not on the
// allow-list.
func (c *Channel) stranger(u models.Update) bool {
	return u.CallbackQuery != nil && !c.cfg.Allow.Allows(strconv.FormatInt(u.CallbackQuery.From.ID, 10))
}

// ours reports whether u is what askuser acts on: an allowed person's
// press, or their reply to one of the bot's messages (an Other prompt).
// Nothing else in the chat is askuser's business, nor recorded.
func (c *Channel) ours(u models.Update) bool {
	switch m := u.Message; {
	case u.CallbackQuery != nil:
		return !c.stranger(u)
	case m != nil:
		return m.From != nil && m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && m.ReplyToMessage.From.ID == c.botID &&
			c.cfg.Allow.Allows(strconv.FormatInt(m.From.ID, 10))
	}
	return false
}

// answerStranger answers a stranger's callback query: "not allowed to
// answer", unless the method is rate-limited now, when the stranger
// hears nothing rather than the person waiting longer.
func (c *Channel) answerStranger(ctx context.Context, id string) {
	if c.gate.left("answerCallbackQuery") > 0 {
		return
	}
	_ = c.do(ctx, "answerCallbackQuery", func(ctx context.Context) error {
		_, err := c.api.AnswerCallbackQuery(ctx, answerParams(id, channel.NotAllowed))
		return err
	})
}

// deliveryOf names update u in the record of deliveries taken: the bot
// and the update's id, which Telegram numbers per bot. Telegram keeps an
// update it was not told was handled for 24 hours, and gives it to the
// next poller: the record (channel.KeepTaken, 8 days) outlasts that.
func (c *Channel) deliveryOf(u models.Update) string {
	return strconv.FormatInt(c.botID, 10) + ":" + strconv.FormatInt(u.ID, 10)
}

// whoOf names the person who pressed or replied: @username, else the id.
func whoOf(u models.User) channel.Who {
	id := strconv.FormatInt(u.ID, 10)
	name := id
	if n := ask.Display(u.Username); n != "" {
		name = "@" + n
	}
	return channel.Who{Channel: Name, ID: id, Name: name}
}

// turn is one press or reply on a set, with what the Host holds for it.
type turn struct {
	c   *Channel
	h   channel.Host
	set channel.Set
	st  *state
	who channel.Who
	// id names the update, so one delivered twice counts once.
	id string
}

// begin looks the set up for a press or a reply with tok: nil and the
// verdict when it cannot go on.
func (c *Channel) begin(ctx context.Context, h channel.Host, tok channel.Token, who channel.Who, id string) (*turn, channel.Verdict) {
	set, raw, err := h.Lookup(ctx, tok.Key)
	switch {
	case errors.Is(err, channel.ErrUnknownSet):
		return nil, channel.Verdict{Text: notWaiting}
	case err != nil:
		return nil, channel.Verdict{Text: tryAgain}
	case tok.Rev != set.Rev:
		return nil, channel.Verdict{Text: outOfDate}
	case tok.Q < 0 || tok.Q >= len(set.Request.Questions):
		return nil, channel.Verdict{Text: notOurs}
	}
	st := loadState(raw, set.Rev, len(set.Request.Questions))
	return &turn{c: c, h: h, set: set, st: st, who: who, id: id}, channel.Verdict{}
}

// take makes t's person the one answering: another allowed person who
// presses half-way starts the set over for themselves. It returns what to
// say when that moved them off the question they pressed.
func (t *turn) take(ctx context.Context, q int) (channel.Verdict, bool) {
	st := t.st
	if st.Who == nil {
		st.Who = &t.who
		return channel.Verdict{}, true
	}
	if st.Who.ID == t.who.ID {
		return channel.Verdict{}, true
	}
	prev, done := st.Who.Name, st.Q
	if st.Complete {
		return channel.Verdict{Text: "This question set was answered by " + prev + "."}, false
	}
	st.restart(t.who)
	if q == 0 {
		return channel.Verdict{}, true
	}
	st.see(t.id)
	if err := t.save(ctx); err != nil {
		return channel.Verdict{Text: tryAgain}, false
	}
	t.show(ctx)
	return channel.Verdict{OK: true, Text: "Starting over from question 1 for you (" + prev + " had answered " +
		strconv.Itoa(done) + " of " + strconv.Itoa(len(st.Picks)) + ")."}, false
}

// save keeps the state in the Host.
func (t *turn) save(ctx context.Context) error { return t.h.Save(ctx, t.set.Key, t.st.marshal()) }

// advance ends the question asked now: the next one is shown, or, after
// the last, the set is handed to the Host.
func (t *turn) advance(ctx context.Context) channel.Verdict {
	st := t.st
	st.Q++
	st.Empty = false
	st.see(t.id)
	n := len(t.set.Request.Questions)
	if st.Q == n {
		st.Complete = true
		if err := t.save(ctx); err != nil {
			return channel.Verdict{Text: tryAgain}
		}
		return t.deliver(ctx)
	}
	if err := t.save(ctx); err != nil {
		return channel.Verdict{Text: tryAgain}
	}
	t.show(ctx)
	return channel.Verdict{OK: true, Text: "Recorded. Question " + strconv.Itoa(st.Q+1) + " of " + strconv.Itoa(n) + " next."}
}

// deliver hands the complete set to the Host.
func (t *turn) deliver(ctx context.Context) channel.Verdict {
	answers, err := t.st.answers(t.set.Request, *t.st.Who)
	if err != nil {
		return channel.Verdict{Text: "This answer does not fit the question: " + channel.Cut(err.Error(), 120)}
	}
	return t.h.Deliver(ctx, channel.Tap{Key: t.set.Key, Rev: t.set.Rev, Answers: answers, Who: *t.st.Who, Delivery: t.id})
}

// show edits the set's message to show the question asked now.
func (t *turn) show(ctx context.Context) {
	if t.st.Msg.Msg == 0 || t.st.Complete {
		return
	}
	r := render(t.set, t.st)
	t.c.edit(ctx, t.st.Msg, "editMessageText", func(ctx context.Context) error {
		_, err := t.c.api.EditMessageText(ctx, editTextParams(t.st.Msg, r.text, r.kb))
		return err
	})
}

// edit makes an edit of message r, unless its outcome is shown already
// (Update); an edit that changes nothing, or of a message deleted, is no
// error.
func (c *Channel) edit(ctx context.Context, r ref, method string, call func(context.Context) error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, done := c.closed[r.msg()]; done {
		return
	}
	_ = c.do(ctx, method, call)
}

// now is when an answer was given.
func (t *turn) now() time.Time { return t.c.now() }
