package channel

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// What a Host may offer beyond the Host interface, and what a channel's
// errors may say beyond their text. A channel asks for the first with a
// type assertion and goes on without it (the relay's Host offers both);
// the relay asks the second of every error with RetryAt.

// Pending is a set waiting on a channel, with the state the channel saved
// for it (nil when none).
type Pending struct {
	Set   Set
	State json.RawMessage
}

// Lister is a Host that lists the sets waiting on its channel: how a
// channel whose replies need not name their set (a typed WhatsApp reply)
// finds the set a reply answers, and what it still has to send, after a
// restart as before.
type Lister interface {
	Waiting(ctx context.Context) ([]Pending, error)
}

// Noticer is a Host that tells whoever runs askuser (askuser serve's log)
// what a channel learnt after the fact: a message the platform took and
// then did not deliver (outside WhatsApp's 24-hour window), a follow-up
// that could not be sent. text is one line, redacted, and says what to
// do; a notice repeated for the same key is said once.
type Noticer interface {
	Notice(key, text string)
}

// Taker is a Host that keeps a record of the deliveries its channel took
// (a WhatsApp message, a Telegram update, a Slack click, by the
// platform's id) in the store every process of the state directory
// shares, durably and for KeepTaken, so one the platform delivers again,
// after askuser serve restarted or to another machine on a team store,
// is recognised. A channel asks Taken before it acts on a delivery and
// calls Take once it has (a delivery left half done by a killed process
// is acted on again, as the set's own state allows); Recent does both,
// with this process's memory in front.
type Taker interface {
	Taken(ctx context.Context, delivery string) (bool, error)
	Take(ctx context.Context, delivery string) error
}

// KeepTaken is how long a delivery taken is remembered: past the longest
// of the platforms' retry windows, with a day to spare. Meta retries a
// WhatsApp webhook delivery for up to 7 days; Telegram keeps an update
// unconfirmed by getUpdates for 24 hours; Slack retries an Events API
// delivery 3 times within about 5 minutes (at once, after a minute,
// after 5 minutes) and does not retry an interaction it was not
// acknowledged for within 3 s. A delivery stamped longer ago than its
// platform's window is not taken at all (WhatsApp: MaxAge).
const KeepTaken = 8 * 24 * time.Hour

// RetryLater is an error that says when the platform lets askuser call
// again: Slack's 429 with Retry-After, Telegram's retry_after, WhatsApp's
// rate limits. A channel's Send, Update and Reply return one when the
// platform said so, and the relay makes its next attempt then: not
// before (the platform would refuse it, and may lengthen the wait), and
// not on its own, longer backoff either.
type RetryLater interface {
	error
	RetryAt() time.Time
}

// RetryAt is when err (or an error it wraps) says to call again; ok is
// false when it says nothing of the kind.
func RetryAt(err error) (at time.Time, ok bool) {
	var rl RetryLater
	if errors.As(err, &rl) {
		at = rl.RetryAt()
	}
	return at, !at.IsZero()
}

// Sleep waits d (a rate limit's wait, a backoff), or until ctx ends, and
// then returns ctx's error: every channel waits this one way, so none
// outlives its context, nor leaves a timer running after it.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Finder is a channel that can find a message it sent: a set's, posted by
// a process that stopped (killed, restarted) after the platform took it
// and before the relay noted it. The relay asks before sending such a set
// again, and adopts the message found (Slack: the message's metadata,
// read back with conversations.history). Find returns the set's message
// of revision s.Rev posted since then; a nil ref and a nil error when
// there is none; an error when it cannot tell (a scope the token lacks),
// and the set is then sent again with Set.Resent.
type Finder interface {
	Find(ctx context.Context, s Set, since time.Time) (Ref, error)
}
