package relay

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// pass looks at every registered set once: learns what became of it,
// sends it where it is not yet, shows its outcome where it is, and, in
// askuser serve, takes care of late answers and prunes.
func (r *Relay) pass(ctx context.Context) {
	entries, err := r.cfg.Registry.List(ctx)
	if err != nil {
		r.logf("registry", "askuser: %v", err)
	} else {
		r.logf("registry", "")
	}
	held := r.heldNames()
	v := r.view(ctx, entries, held)
	for i, e := range entries {
		if ctx.Err() != nil {
			return
		}
		if e.Pending() && (r.cfg.Inbox || r.wantsAny(e, held)) {
			e = r.settle(ctx, e, v)
			entries[i] = e
		}
		for _, name := range held {
			if r.wants(e, name) {
				r.show(ctx, name, e)
			}
		}
	}
	if r.cfg.Inbox {
		r.lateAnswers(ctx, entries)
		r.prune(ctx, entries)
	}
	if len(held) > 0 {
		r.pruneTaken(ctx)
	}
}

func (r *Relay) wantsAny(e session.Entry, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return r.wants(e, n) })
}

// passView is what a pass knows of the sets it settles, read for all of
// them at once where the stores can (ManyMailbox, ManyRegistry); nil
// maps are asked set by set.
type passView struct {
	answers map[string]session.Delivery
	held    map[string]bool
}

// view reads the answers of the pending sets this pass settles, and
// whether their askers (outside a session) still wait, at once.
func (r *Relay) view(ctx context.Context, entries []session.Entry, held []string) passView {
	var boxes []session.Box
	var keys []string
	for _, e := range entries {
		if e.Pending() && (r.cfg.Inbox || r.wantsAny(e, held)) {
			boxes = append(boxes, session.Box{Session: e.Session, Key: e.Key})
			if e.Session == "" {
				keys = append(keys, e.Key)
			}
		}
	}
	var v passView
	if mm, ok := r.cfg.Mailbox.(ManyMailbox); ok && len(boxes) > 0 {
		if got, err := mm.GetMany(ctx, boxes); err == nil {
			v.answers = got
		}
	}
	if mr, ok := r.cfg.Registry.(ManyRegistry); ok && len(keys) > 0 {
		v.held = mr.HeldMany(keys)
	}
	return v
}

// settle learns whether waiting set e was answered, withdrawn or
// cancelled: from its mailbox, its asker's lock, or its journal.
func (r *Relay) settle(ctx context.Context, e session.Entry, v passView) session.Entry {
	box := session.Box{Session: e.Session, Key: e.Key}
	d, ok := v.answers[e.Key]
	var err error
	if v.answers == nil {
		d, ok, err = r.cfg.Mailbox.Get(ctx, box)
	}
	switch {
	case err != nil:
		r.logf(e.Key, "askuser: %v", err)
		return e
	case ok:
		// Posted, but not marked: the inbox page or a terminal posted
		// it, or the relay that took a tap was killed in between. A tap
		// taken so is a late answer (a resume that relay started may
		// hold the session now), and so is any answer nobody waits on:
		// the session is resumed for it, and followed up.
		late := e.Session != "" && d.Answers[0].Declined == nil && (d.Who != nil || !r.cfg.Sessions.InUse(e.Session))
		return r.settleWith(ctx, e, d, late, "")
	case e.Session == "":
		held, known := v.held[e.Key]
		if !known {
			held = r.cfg.Registry.Held(e.Key)
		}
		if !held && r.cfg.Now().Sub(e.Updated) > holdGrace {
			return r.settleOutcome(ctx, e, withdrawn("the asking process ended", r.cfg.Now()))
		}
		return e
	}
	return r.settleJournal(ctx, e, false)
}

// settleJournal reads e's session (at most every journalEvery, unless
// now) to learn whether the set was settled another way: answered before
// the mailbox existed, cancelled, or the session removed.
func (r *Relay) settleJournal(ctx context.Context, e session.Entry, now bool) session.Entry {
	r.mu.Lock()
	last := r.checked[e.Key]
	due := now || r.cfg.Now().Sub(last) >= journalEvery
	if due {
		r.checked[e.Key] = r.cfg.Now()
	}
	r.mu.Unlock()
	if !due {
		return e
	}
	sess, err := r.cfg.Sessions.Load(e.Session)
	switch {
	case errors.Is(err, session.ErrNotFound):
		return r.settleOutcome(ctx, e, withdrawn("the session was removed", r.cfg.Now()))
	case err != nil:
		r.logf(e.Key, "askuser: %v", err)
		return e
	case waitsFor(sess, e):
		return e
	case sess.Cancelled != nil:
		why := "the person declined to answer"
		if sess.Cancelled.Reason != "" {
			why += ": " + sess.Cancelled.Reason
		}
		return r.settleOutcome(ctx, e, session.Outcome{State: channel.Cancelled, Why: why, At: sess.Cancelled.At, Text: "Cancelled: " + why + "."})
	}
	return r.settleOutcome(ctx, e, session.Outcome{State: channel.Answered, By: "elsewhere", At: r.cfg.Now(), Text: "Answered elsewhere."})
}

// waitsFor reports whether sess still waits on e's set.
func waitsFor(sess *session.Session, e session.Entry) bool {
	for _, w := range sess.Waiting() {
		if w.ID == e.Request.ID && w.AskedAt.Equal(e.AskedAt) {
			return true
		}
	}
	return false
}

// settleWith marks e answered (or cancelled) by d; late says nobody
// waited on it, so its session is to be resumed; delivery is the tap id
// that carried it ("" for none).
func (r *Relay) settleWith(ctx context.Context, e session.Entry, d session.Delivery, late bool, delivery string) session.Entry {
	out, err := r.cfg.Registry.Update(ctx, e.Key, func(e *session.Entry, found bool) error {
		if !found {
			return session.ErrNoEntry
		}
		e.Deliveries = channel.Remember(e.Deliveries, delivery, maxDeliveries)
		if e.Pending() {
			e.Outcome, e.Late = outcomeOf(d), late
		}
		return nil
	})
	if err != nil {
		r.logf(e.Key, "askuser: %v", err)
		return e
	}
	r.logf(e.Key, "")
	return out
}

// settleOutcome gives waiting set e outcome o.
func (r *Relay) settleOutcome(ctx context.Context, e session.Entry, o session.Outcome) session.Entry {
	out, err := r.cfg.Registry.Update(ctx, e.Key, func(e *session.Entry, found bool) error {
		if !found || !e.Pending() {
			return errNoChange
		}
		e.Outcome = o
		return nil
	})
	if err != nil {
		return e
	}
	return out
}

// show sends e to channel name when it waits and is not there yet (or
// only in an older revision), and shows its outcome on its widget once it
// no longer waits. Failures are retried with backoff.
func (r *Relay) show(ctx context.Context, name string, e session.Entry) {
	s, ok := r.served(name)
	if !ok {
		return
	}
	sent := e.Sent[name]
	if sent == nil {
		sent = &session.Sent{}
	}
	if !sent.NextTry.IsZero() && r.cfg.Now().Before(sent.NextTry) {
		return
	}
	switch {
	case e.Pending() && (len(sent.Ref) == 0 || sent.Rev != e.Rev):
		if len(sent.Ref) > 0 {
			_ = s.Channel.Update(ctx, sent.Ref, channel.Outcome{State: channel.Withdrawn, Text: "Replaced by a newer message."})
		}
		r.send(ctx, s, e, sent)
	case !e.Pending() && len(sent.Ref) > 0 && sent.Shown != e.Outcome.State:
		o := e.Outcome
		err := s.Channel.Update(ctx, sent.Ref, channel.Outcome{State: o.State, Text: o.Text})
		r.record(ctx, e.Key, name, "update", err, func(x *session.Sent) { x.Shown = o.State })
	}
}

// record keeps the result of an attempt on channel name: done on success,
// a retry time with backoff on failure (an hour when the platform refused
// for good), said once in the log. An attempt cut short by the relay
// stopping (ctx ended) was refused by no platform: it is left to the next
// holder of the channel, to make at once.
func (r *Relay) record(ctx context.Context, key, name, what string, err error, done func(*session.Sent)) {
	var tries int
	var next time.Time
	cut := err != nil && ctx.Err() != nil
	_, uerr := r.cfg.Registry.Update(context.WithoutCancel(ctx), key, func(e *session.Entry, found bool) error {
		if !found {
			return session.ErrNoEntry
		}
		x := sentFor(e, name)
		if err == nil {
			done(x)
			x.Tries, x.NextTry, x.Err = 0, time.Time{}, ""
			return nil
		}
		if cut {
			// A send cut short may have happened: its note stays.
			x.NextTry, x.Err = time.Time{}, err.Error()
			return nil
		}
		// The platform answered: the send did not happen.
		x.Sending, x.SendingRev = time.Time{}, 0
		x.Tries++
		x.NextTry, x.Err = r.retryAt(x.Tries, err), err.Error()
		tries, next = x.Tries, x.NextTry
		return nil
	})
	if err != nil && uerr == nil && !cut {
		r.wakeAt(next)
	}
	subject := name + " " + key
	switch {
	case uerr != nil && !errors.Is(uerr, session.ErrNoEntry):
		r.logf(subject, "askuser: %s: %v", name, uerr)
	case cut:
		r.logf(subject, "askuser: %s: could not %s question %s before askuser stopped (%v); the next askuser to serve %s (askuser serve, or a run asking through it) does",
			name, what, key, err, name)
	case err != nil:
		r.logf(subject, "askuser: %s: could not %s question %s (attempt %d, next at %s): %v", name, what, key, tries, next.Local().Format("15:04:05"), err)
	default:
		r.logf(subject, "")
	}
}

// retryAt is when to try again after the n-th failure in a row, err:
// when the platform said (channel.RetryAt), else after a backoff.
func (r *Relay) retryAt(n int, err error) time.Time {
	if at, ok := channel.RetryAt(err); ok {
		return at
	}
	return r.cfg.Now().Add(backoff(r.cfg.RetryBase, n, err))
}

// wakeAt makes the relay look at the registry again at t, so a retry the
// platform timed is made then rather than at the next tick.
func (r *Relay) wakeAt(t time.Time) {
	// A little after: the registry keeps t to the nanosecond, without the
	// monotonic clock a timer runs on.
	time.AfterFunc(t.Sub(r.cfg.Now())+10*time.Millisecond, r.Wake)
}

// backoff is how long to wait after the n-th failure in a row.
func backoff(base time.Duration, n int, err error) time.Duration {
	if errors.Is(err, channel.ErrRefused) {
		return time.Hour
	}
	return min(base<<min(n-1, 9), 5*time.Minute)
}
