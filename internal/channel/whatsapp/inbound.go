package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// What a person sent, turned into answers. A tap names its set, revision,
// question and option (a channel.Token); a typed reply names its set by
// the message it quotes (choose.go says which set one that quotes
// nothing answers).

// The words a person is told when a reply is not taken.
const (
	notWaiting  = "This question is no longer waiting."
	outOfDate   = "This message is out of date: answer the newest one."
	quotesNone  = "The message you replied to asks nothing now: reply to the newest question, or send your answer without quoting."
	noneWaiting = "No question is waiting for your answer now."
	checkTaken  = "askuser channels test: your tap reached askuser serve, so WhatsApp works both ways."
)

// reply is one message from a person on the allow-list.
type reply struct {
	msg string // its id
	who channel.Who
	// at is when it was written, by WhatsApp's clock; zero when unknown.
	at time.Time
	// tap is a button's or a list row's id; text a typed reply, and
	// quotes the message it replies to.
	tap, text, quotes string
	typed             bool
}

// note is a reply to send from Serve's loop.
type note struct{ to, replyTo, text string }

// take handles one message of a delivery. It reports false when the
// message could not be taken now (WhatsApp is to deliver it again).
func (c *Channel) take(ctx context.Context, m inbound) bool {
	from, err := Normalise(m.From)
	if err != nil || !c.cfg.Allow.Allows(from) {
		return true // a stranger: nothing at all
	}
	if from == c.to {
		// The window this message opens is opened once it has been read:
		// a question WhatsApp refused goes out again then, and had it
		// gone out first, "hello?" would be taken for its answer.
		defer c.heardNow()
	}
	if m.ID == "" {
		return true
	}
	h := c.currentHost()
	if h == nil {
		return false
	}
	// Taken once, by any serve of the store, however often WhatsApp
	// delivers it; one stamped before WhatsApp's retries end is a replay.
	at := stamped(m.Timestamp)
	switch taken, err := c.taken.Taken(ctx, h, m.ID); {
	case err != nil:
		return false
	case taken, !at.IsZero() && c.opts.Now().Sub(at) > channel.KeepTaken:
		return true
	}
	r := reply{msg: m.ID, who: channel.Who{Channel: Name, ID: from, Name: E164(from)}, at: at}
	switch ix := m.Interactive; {
	case ix != nil && ix.ButtonReply != nil:
		r.tap = ix.ButtonReply.ID
	case ix != nil && ix.ListReply != nil:
		r.tap = ix.ListReply.ID
	case m.Text != nil:
		r.text, r.typed = m.Text.Body, true
		if m.Context != nil {
			r.quotes = m.Context.ID
		}
	default:
		// Reactions, media, a message the person deleted (it comes as
		// "unsupported"): none is an answer, and none loses one.
		c.taken.Add(m.ID)
		return true
	}
	// Recorded once acted on: a message left half done by a killed
	// serve is taken again, and the set's own state (Seen) keeps it
	// from counting twice.
	return c.answer(ctx, h, r) && c.taken.Take(ctx, h, m.ID) == nil
}

// answer finds the set r answers and gives it the answer.
func (c *Channel) answer(ctx context.Context, h channel.Host, r reply) bool {
	if strings.HasPrefix(r.tap, checkID) {
		c.tell(r, checkTaken)
		return true
	}
	var tok *channel.Token
	key := ""
	if r.typed {
		k, refuse, err := c.target(ctx, h, r)
		if err != nil {
			return false
		}
		if refuse != "" {
			c.tell(r, refuse)
			return true
		}
		key = k
	} else {
		t, err := channel.ParseToken(r.tap)
		if err != nil || t.Action != actPick {
			return true // another program's button on this number: not ours to answer
		}
		tok, key = &t, t.Key
	}
	defer c.locks.lock(key)()
	return c.apply(ctx, h, key, tok, r)
}

// settled is the state of set key once no send of it is under way.
func (c *Channel) settled(ctx context.Context, h channel.Host, key string) state {
	defer c.locks.lock(key)()
	_, raw, err := h.Lookup(ctx, key)
	if err != nil {
		return state{}
	}
	return loadState(raw)
}

// apply gives the reply to the question set key asks now: the next
// question follows, or, after the last, the whole set goes to the Host.
// It holds the set's lock.
func (c *Channel) apply(ctx context.Context, h channel.Host, key string, tok *channel.Token, r reply) bool {
	set, raw, err := h.Lookup(ctx, key)
	switch {
	case errors.Is(err, channel.ErrUnknownSet):
		c.tell(r, notWaiting)
		return true
	case err != nil:
		return false
	}
	st := loadState(raw)
	qs := set.Request.Questions
	if slices.Contains(st.Seen, r.msg) {
		return true // delivered again
	}
	if why := c.refusal(st, set, tok, r); why != "" {
		c.tell(r, why)
		return true
	}
	a, why := c.read(qs[st.Q], tok, r)
	if why != "" {
		c.tell(r, why)
		return true
	}
	st.By = r.who.ID
	st.seen(r.msg)
	if st.Q < len(qs)-1 {
		st.Answers = append(st.Answers, a)
		st.Q++
		if c.save(ctx, h, key, st) != nil {
			return false
		}
		c.poke() // the next question goes out from Serve's loop
		return true
	}
	v := h.Deliver(ctx, channel.Tap{Key: key, Rev: set.Rev, Answers: append(slices.Clone(st.Answers), a), Who: r.who, Delivery: r.msg})
	if !v.OK {
		c.tell(r, v.Text)
		return true
	}
	st.Q = len(qs)
	_ = c.save(ctx, h, key, st) // the Host has the answer; this only spares a redelivery the lookup
	return true
}

// refusal says why r cannot answer the question set asks now; "" when it
// can.
func (c *Channel) refusal(st state, set channel.Set, tok *channel.Token, r reply) string {
	n := len(set.Request.Questions)
	quoted := st.asks(r.quotes)
	switch {
	case st.Rev != set.Rev || tok != nil && tok.Rev != set.Rev:
		return outOfDate
	case st.Q >= n:
		return "This question set is answered already."
	case tok != nil && tok.Q < st.Q, quoted >= 0 && quoted < st.Q:
		return fmt.Sprintf("You answered that one already: question %d of %d waits now.", st.Q+1, n)
	case tok != nil && tok.Q != st.Q:
		return outOfDate
	case r.typed && (len(st.Msgs) <= st.Q || st.Refused != ""):
		// Not seen yet (not sent, or not delivered): "hello?" is no
		// answer to it.
		if n == 1 {
			return "The question is on its way: answer it when it comes."
		}
		return fmt.Sprintf("Question %d of %d is on its way: answer it when it comes.", st.Q+1, n)
	case st.By != "" && st.By != r.who.ID:
		return E164(st.By) + " is answering this question set: it takes the rest of their answers."
	}
	return ""
}

// read turns r into the answer to q, or says why it cannot.
func (c *Channel) read(q ask.Question, tok *channel.Token, r reply) (ask.Answer, string) {
	var labels []string
	other := ""
	if tok != nil {
		if tok.O < 0 || tok.O >= len(q.Options) {
			return ask.Answer{}, outOfDate
		}
		labels = []string{q.Options[tok.O].Label}
	} else {
		var problem string
		if labels, other, problem = readTyped(q, r.text); problem != "" {
			return ask.Answer{}, problem
		}
	}
	a, err := ask.Selection(q, labels, other, ask.SourcePerson)
	if err != nil {
		return ask.Answer{}, ask.Display(err.Error())
	}
	a.Via, a.AnsweredAt = r.who.Via(), c.opts.Now()
	return a, ""
}

// tell queues text as a reply to r's message; when the queue is full the
// word is dropped, never the answer.
func (c *Channel) tell(r reply, text string) {
	if text == "" {
		return
	}
	select {
	case c.notes <- note{to: r.who.ID, replyTo: r.msg, text: text}:
	default:
	}
}

// status takes what became of a message askuser sent: when WhatsApp did
// not deliver the question a set asks now, that is said (the Host's
// notice) and the question is sent again when the person next writes.
func (c *Channel) status(ctx context.Context, s status) bool {
	if s.Status != "failed" {
		return true
	}
	h := c.currentHost()
	if h == nil {
		return false
	}
	l, ok := h.(channel.Lister)
	if !ok {
		return true
	}
	pend, err := l.Waiting(ctx)
	if err != nil {
		return false
	}
	for _, p := range pend {
		// Under the set's lock: the status may come before the send
		// that it is about was recorded.
		unlock := c.locks.lock(p.Set.Key)
		_, raw, err := h.Lookup(ctx, p.Set.Key)
		st := loadState(raw)
		if err != nil || st.asks(s.ID) < 0 {
			unlock()
			continue
		}
		defer unlock()
		if st.asks(s.ID) != st.Q {
			return true // an earlier question's message: answered since
		}
		st.Refused = c.undelivered(s, st.Q, len(p.Set.Request.Questions))
		if c.save(ctx, h, p.Set.Key, st) != nil {
			return false
		}
		notice(h, p.Set.Key, st.Refused)
		return true
	}
	return true
}

// undelivered says why WhatsApp did not deliver question q of n.
func (c *Channel) undelivered(s status, q, n int) string {
	code, title := 0, "no reason given"
	if len(s.Errors) > 0 {
		code, title = s.Errors[0].Code, c.api.clean(s.Errors[0].Title, 120)
	}
	if code == codeWindow {
		return windowText(c.to) + " (code 131047)"
	}
	return fmt.Sprintf("WhatsApp did not deliver question %d of %d to %s: %s (code %d); askuser sends it again when that number next writes to this one",
		q+1, n, E164(c.to), title, code)
}

func notice(h channel.Host, key, text string) {
	if n, ok := h.(channel.Noticer); ok {
		n.Notice(key, text)
	}
}
