package relay

import (
	"context"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Leaving the channels. A process that answers through a channel often
// ends just after the answer is taken: the run it answered goes on and
// finishes, askuser ask prints the answer and exits. The person who
// tapped must still see on the widget that the answer was taken, so when
// Run's ctx ends:
//   - the relay's calls are not cut then: they run under a context of
//     their own (stopping), cut ExitWait later; an update under way is
//     finished, not abandoned;
//   - the relay then shows on the channels it holds every outcome it
//     learnt (flush), and calls again within that time when the
//     platform failed or said to wait;
//   - an outcome it could not show stays in the registry (the entry's
//     outcome, not marked shown on that channel), and whichever process
//     holds the channel next (askuser serve, another run) shows it on its
//     first pass. A call cut short by the bound was refused by no
//     platform: it sets no backoff, so that process calls at once.

// ExitWait is how long a relay goes on, once told to stop, to finish the
// calls under way and show the outcomes it learnt: enough for three
// attempts at an update under the relay's backoff (at 0, 1 and 3 s) and
// a call's round trip, and no longer than Slack's drain of the taps in
// hand (5 s), which a stopping process waits for already.
const ExitWait = 5 * time.Second

// leaving is when the relay's calls are cut, fixed the first time it is
// asked (once Run's ctx ended).
func (r *Relay) leaving() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.exitAt.IsZero() {
		r.exitAt = r.cfg.Now().Add(r.cfg.ExitWait)
	}
	return r.exitAt
}

// stopping is the context the relay's passes run under: ctx's values,
// not cancelled when ctx ends but when leaving says. release frees it.
func (r *Relay) stopping(ctx context.Context) (work context.Context, release func()) {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var cut *time.Timer
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		cut = time.AfterFunc(r.leaving().Sub(r.cfg.Now()), cancel)
	})
	return work, func() {
		if !stop() {
			<-done
			cut.Stop()
		}
		cancel()
	}
}

// flush shows the outcomes learnt on the channels held, before Run
// returns: a pass, and another each time a widget still owes its outcome
// and the platform may be called again before the relay's calls are cut.
func (r *Relay) flush(ctx context.Context) {
	until := r.leaving()
	for ctx.Err() == nil {
		began := r.cfg.Now()
		r.pass(ctx)
		next, owed := r.owed(ctx, until)
		// A failed update is to be made again later; one due already was
		// not recorded (the registry failing) and is not made in a loop.
		if !owed || !next.After(began) {
			return
		}
		if channel.Sleep(ctx, next.Sub(r.cfg.Now())) != nil {
			return
		}
	}
}

// owed reports whether a widget on a channel held does not show its
// set's outcome yet, and may be updated before until; next is the
// soonest it may.
func (r *Relay) owed(ctx context.Context, until time.Time) (next time.Time, owed bool) {
	entries, err := r.cfg.Registry.List(ctx)
	if session.WithoutEntryDamage(err) != nil {
		return next, false
	}
	held := r.heldNames()
	for _, e := range entries {
		if e.Pending() {
			continue
		}
		for _, name := range held {
			sent := e.Sent[name]
			if !r.wants(e, name) || sent == nil || len(sent.Ref) == 0 || sent.Shown == e.Outcome.State || sent.NextTry.After(until) {
				continue
			}
			if !owed || sent.NextTry.Before(next) {
				next, owed = sent.NextTry, true
			}
		}
	}
	return next, owed
}
