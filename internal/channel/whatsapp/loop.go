package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// window is WhatsApp's customer service window: free-form messages reach
// a person only this long after they last wrote.
const window = 24 * time.Hour

// loop is Serve's: it sends the replies the webhook queued, and the
// questions that are due, until ctx ends.
func (c *Channel) loop(ctx context.Context, h channel.Host) {
	t := time.NewTicker(c.opts.Sweep)
	defer t.Stop()
	c.sweep(ctx, h)
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-c.notes:
			// Best effort: a refusal that cannot be sent loses nothing.
			_, _ = c.sendMessage(ctx, textMessage(n.to, n.replyTo, n.text), true)
		case <-c.kick:
			c.sweep(ctx, h)
		case <-t.C:
			c.sweep(ctx, h)
		}
	}
}

// poke makes the loop look at the sets now.
func (c *Channel) poke() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *Channel) heardNow() {
	c.heardMu.Lock()
	c.heard = c.opts.Now()
	c.heardMu.Unlock()
	c.poke() // a question WhatsApp refused may go out now
}

// windowOpen reports whether the recipient wrote within the window, as far
// as this process heard.
func (c *Channel) windowOpen() bool {
	c.heardMu.Lock()
	defer c.heardMu.Unlock()
	return !c.heard.IsZero() && c.opts.Now().Sub(c.heard) < window
}

// sweep sends every question that is due.
func (c *Channel) sweep(ctx context.Context, h channel.Host) {
	l, ok := h.(channel.Lister)
	if !ok {
		return
	}
	pend, err := l.Waiting(ctx)
	if err != nil {
		return
	}
	for _, p := range pend {
		if ctx.Err() != nil {
			return
		}
		c.advance(ctx, h, p.Set)
	}
}

// advance sends the question set s asks now, when its message is due: the
// next question after an answer, or one WhatsApp refused, once the
// person has written again. The first question is the relay's to send
// (Send), unless WhatsApp refused it.
func (c *Channel) advance(ctx context.Context, h channel.Host, s channel.Set) {
	defer c.locks.lock(s.Key)()
	_, raw, err := h.Lookup(ctx, s.Key)
	if err != nil {
		return
	}
	st := loadState(raw)
	n := len(s.Request.Questions)
	if st.Rev != s.Rev || st.Q >= n || len(st.Msgs) < st.Q {
		return
	}
	due := st.Q > 0 && len(st.Msgs) == st.Q
	again := st.Refused != "" && c.windowOpen()
	if !due && !again {
		return
	}
	var noted *ask.Answer
	if st.Q > 0 && len(st.Answers) >= st.Q {
		noted = &st.Answers[st.Q-1]
	}
	replyTo := refID(s.Thread)
	if len(st.Msgs) > 0 && st.Q > 0 {
		replyTo = st.Msgs[0]
	}
	// A send under way is finished and recorded even when serve stops:
	// a question sent and not recorded would be sent again.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.CallTimeout)
	defer cancel()
	began := c.opts.Now()
	id, err := c.sendMessage(ctx, question(c.to, s, st.Q, noted, replyTo), true)
	var r *refusal
	if errors.As(err, &r) {
		st.Refused = r.text
		_ = c.save(ctx, h, s.Key, st)
	}
	if err != nil {
		notice(h, s.Key, fmt.Sprintf("could not send question %d of %d: %v", st.Q+1, n, err))
		return
	}
	st.Msgs = append(st.Msgs[:st.Q], id)
	st.SentAt, st.Refused = began, ""
	_ = c.save(ctx, h, s.Key, st)
}
