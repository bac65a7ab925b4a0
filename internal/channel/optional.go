package channel

import (
	"context"
	"encoding/json"
)

// What a Host may offer beyond the Host interface. A channel asks for it
// with a type assertion and goes on without it; the relay's Host offers
// both.

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
