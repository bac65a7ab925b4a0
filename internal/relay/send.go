package relay

import (
	"context"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Sending a set, so that a process killed mid-send does not leave two live
// messages of it, one never updated. Before a send the relay notes in the
// set's entry that it began (Sent.Sending); the note goes once the send
// ended, with its ref or its failure. A note found still there says a
// process stopped (killed, restarted) while the platform may have been
// taking the message. Then the relay asks a channel that can look
// (channel.Finder, Slack) for that message, and adopts it; one that
// cannot, or cannot tell, sends the set again marked as sent again
// (channel.Set.Resent), since the earlier copy, if it reached the person,
// works too (its buttons name the set and its revision) but is never
// updated.

// send sends e to served channel s, which holds sent for it.
func (r *Relay) send(ctx context.Context, s Served, e session.Entry, sent *session.Sent) {
	name := s.Channel.Name()
	set := r.setOf(e, name)
	var ref channel.Ref
	var err error
	found := false
	if !sent.Sending.IsZero() && sent.SendingRev == e.Rev {
		var absent bool
		ref, found, absent = r.earlier(ctx, s, set, sent.Sending)
		set.Resent = !found && !absent
	}
	if !found {
		if !r.noteSending(ctx, e.Key, name, set.Rev) {
			return
		}
		ref, err = s.Channel.Send(ctx, set)
	}
	r.record(ctx, e.Key, name, "send", err, func(x *session.Sent) {
		x.Ref, x.Rev, x.Shown, x.Sending, x.SendingRev = ref, set.Rev, "", time.Time{}, 0
	})
}

// earlier looks for set's message that a stopped process may have sent
// since then: found, it is the ref to adopt; absent says the channel
// looked and there is none, so the set is sent as any other.
func (r *Relay) earlier(ctx context.Context, s Served, set channel.Set, since time.Time) (ref channel.Ref, found, absent bool) {
	f, ok := s.Channel.(channel.Finder)
	if !ok {
		return nil, false, false
	}
	ref, err := f.Find(ctx, set, since)
	if err != nil {
		r.logf(s.Channel.Name()+" find "+set.Key, "askuser: %s: could not look for question %s as sent before askuser stopped (%v); sending it again, marked so",
			s.Channel.Name(), set.Key, err)
		return nil, false, false
	}
	return ref, len(ref) > 0, len(ref) == 0
}

// noteSending notes in the entry under key that a send of revision rev to
// channel name begins now; false when it could not be noted (the set is
// then not sent: a send not noted could be repeated unmarked).
func (r *Relay) noteSending(ctx context.Context, key, name string, rev int) bool {
	_, err := r.cfg.Registry.Update(ctx, key, func(e *session.Entry, found bool) error {
		if !found {
			return session.ErrNoEntry
		}
		x := sentFor(e, name)
		x.Sending, x.SendingRev = r.cfg.Now(), rev
		return nil
	})
	if err != nil {
		r.logf(name+" "+key, "askuser: %s: could not note the send of question %s: %v", name, key, err)
	}
	return err == nil
}
