package relay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// maxDeliveries is how many tap ids an entry remembers, to answer a
// redelivered tap as the first.
const maxDeliveries = 20

// maxNameChars bounds a person's name from a platform.
const maxNameChars = 64

// Verdicts a tap gets.
const (
	notWaiting = "This question is no longer waiting."
	outOfDate  = "This message is out of date: answer the newest one."
	tryAgain   = "Your answer could not be taken just now; try again."
)

// host is a relay's channel.Host for one channel.
type host struct {
	r *Relay
	s Served
}

func (h *host) name() string { return h.s.Channel.Name() }

// entry returns the entry under key if this channel serves it.
func (h *host) entry(ctx context.Context, key string) (session.Entry, error) {
	e, err := h.r.cfg.Registry.Get(ctx, key)
	if err != nil {
		return e, fmt.Errorf("%w: %s", channel.ErrUnknownSet, key)
	}
	if !h.r.wants(e, h.name()) {
		return e, fmt.Errorf("%w: %s is not sent to %s", channel.ErrUnknownSet, key, h.name())
	}
	return e, nil
}

// Lookup implements channel.Host.
func (h *host) Lookup(ctx context.Context, key string) (channel.Set, json.RawMessage, error) {
	e, err := h.entry(ctx, key)
	if err != nil {
		return channel.Set{}, nil, err
	}
	p := h.pending(e)
	return p.Set, p.State, nil
}

// pending is e as this channel shows it, with the state it saved for it.
func (h *host) pending(e session.Entry) channel.Pending {
	var state json.RawMessage
	if s := e.Sent[h.name()]; s != nil {
		state = s.State
	}
	return channel.Pending{Set: h.r.setOf(e, h.name()), State: state}
}

// Save implements channel.Host.
func (h *host) Save(ctx context.Context, key string, state json.RawMessage) error {
	_, err := h.r.cfg.Registry.Update(ctx, key, func(e *session.Entry, found bool) error {
		if !found {
			return fmt.Errorf("%w: %s", channel.ErrUnknownSet, key)
		}
		sentFor(e, h.name()).State = state
		return nil
	})
	return err
}

// sentFor is what channel name did with e, made if need be.
func sentFor(e *session.Entry, name string) *session.Sent {
	if e.Sent == nil {
		e.Sent = map[string]*session.Sent{}
	}
	if e.Sent[name] == nil {
		e.Sent[name] = &session.Sent{}
	}
	return e.Sent[name]
}

// Deliver implements channel.Host: the tap is checked (who, which
// revision, whether the set still waits), its answers posted to the
// mailbox, and the set marked answered. A tap on a set no process waits
// on resumes its session in the background (askuser serve).
func (h *host) Deliver(ctx context.Context, t channel.Tap) channel.Verdict {
	// An answer being taken is taken whole, though the relay stops.
	ctx = context.WithoutCancel(ctx)
	// A name from a platform is shown and stored: made safe, and short.
	t.Who.Name = channel.Cut(ask.Display(t.Who.Name), maxNameChars)
	if !h.s.Allow.Allows(t.Who.ID) {
		return channel.Verdict{Text: channel.NotAllowed}
	}
	e, err := h.entry(ctx, t.Key)
	if err != nil {
		return channel.Verdict{Text: notWaiting}
	}
	if t.Delivery != "" && slices.Contains(e.Deliveries, t.Delivery) || !e.Pending() && e.Outcome.By == t.Who.Via() {
		return h.again(e, t)
	}
	if t.Rev != e.Rev {
		return channel.Verdict{Text: outOfDate}
	}
	if e.Pending() && e.Session != "" {
		e = h.r.settleJournal(ctx, e, true)
	}
	if !e.Pending() {
		return channel.Verdict{Text: refusal(e.Outcome)}
	}
	answers, err := h.answers(e, t)
	if err != nil {
		return channel.Verdict{Text: err.Error()}
	}
	d := session.Delivery{Answers: answers, By: t.Who.Via(), Who: &t.Who, At: h.r.cfg.Now()}
	err = h.r.cfg.Mailbox.Post(ctx, session.Box{Session: e.Session, Key: e.Key}, d)
	var first *session.AnsweredError
	switch {
	case errors.As(err, &first):
		h.r.settleWith(ctx, e, first.First, false, "")
		return channel.Verdict{Text: refusal(outcomeOf(first.First))}
	case err != nil:
		h.r.logf(e.Key, "askuser: %s: could not take an answer to %s: %v", h.name(), e.Key, err)
		return channel.Verdict{Text: tryAgain}
	}
	late := e.Session != "" && !h.r.cfg.Sessions.InUse(e.Session)
	e = h.r.settleWith(ctx, e, d, late, t.Delivery)
	if late {
		h.r.resume(e)
	}
	h.r.Wake()
	return channel.Verdict{OK: true, Text: outcomeOf(d).Text}
}

// again answers a tap delivered a second time as the first was, and a tap
// by whoever answered the set already as their own answer: a platform
// that redelivers a tap whose first delivery was taken just before a
// crash gets no "already answered by" the person who tapped.
func (h *host) again(e session.Entry, t channel.Tap) channel.Verdict {
	if e.Outcome.State == channel.Answered && e.Outcome.By == t.Who.Via() {
		return channel.Verdict{OK: true, Text: e.Outcome.Text}
	}
	return channel.Verdict{Text: refusal(e.Outcome)}
}

// answers checks the tap's answers against the set: one per question, a
// person's, naming who gave them.
func (h *host) answers(e session.Entry, t channel.Tap) ([]ask.Answer, error) {
	answers, err := fit(session.Delivery{Answers: t.Answers, By: t.Who.Via()}, e.Request)
	if err != nil {
		return nil, errors.New("This answer does not fit the question; answer the newest message.")
	}
	out := make([]ask.Answer, len(answers))
	for i, a := range answers {
		if a.Source != ask.SourcePerson || a.Declined != nil || a.Late != nil {
			return nil, errors.New(tryAgain)
		}
		a.Via, a.Custom = t.Who.Via(), ask.CleanFreeText(a.Custom)
		if a.AnsweredAt.IsZero() {
			a.AnsweredAt = h.r.cfg.Now()
		}
		out[i] = a
	}
	return out, nil
}
