package ask

import (
	"context"
	"time"
)

type askedAtKey struct{}

// WithAskedAt returns ctx marked with when the question set it asks was
// first asked: a frontend that keeps a set beyond its own process (a chat
// channel, a mailbox) names it by its id and this time, which stay the
// same when a later process asks it again, so a model that reuses an id in
// a later turn never gets an answer meant for the earlier set.
func WithAskedAt(ctx context.Context, at time.Time) context.Context {
	return context.WithValue(ctx, askedAtKey{}, at)
}

// AskedAt returns when the set ctx asks was first asked, if whoever asks
// said so (WithAskedAt): an agent loop does; askuser ask does not.
func AskedAt(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(askedAtKey{}).(time.Time)
	return t, ok
}
