package relay

import (
	"context"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Mailbox holds the first answer to each set (session.Mailbox in files).
type Mailbox interface {
	Post(ctx context.Context, box session.Box, d session.Delivery) error
	Get(ctx context.Context, box session.Box) (session.Delivery, bool, error)
	Wait(ctx context.Context, box session.Box) (session.Delivery, error)
}

// Registry holds the sets waiting in the inbox or a channel
// (session.Registry in files).
type Registry interface {
	Get(ctx context.Context, key string) (session.Entry, error)
	Update(ctx context.Context, key string, fn func(e *session.Entry, found bool) error) (session.Entry, error)
	List(ctx context.Context) ([]session.Entry, error)
	Delete(ctx context.Context, key string) error
	Hold(key string) (release func(), err error)
	Held(key string) bool
}

// ManyMailbox is a Mailbox that reads the answers of many sets at once
// (the team store): a pass over a thousand waiting sets reads them in one
// query, not a thousand. Sets without an answer are missing from the map.
type ManyMailbox interface {
	GetMany(ctx context.Context, boxes []session.Box) (map[string]session.Delivery, error)
}

// ManyRegistry is a Registry that says at once which of many sets a
// process waits on (true where it cannot say, as Held).
type ManyRegistry interface {
	HeldMany(keys []string) map[string]bool
}

// Sessions reads sessions (session.Store in files).
type Sessions interface {
	Load(id string) (*session.Session, error)
	InUse(id string) bool
}

// Key names set setID of session sessionID ("" outside one), first asked
// at askedAt (zero outside a session), for the mailbox, the registry and
// the channels' callback data.
func Key(sessionID, setID string, askedAt time.Time) string {
	if !askedAt.IsZero() {
		setID += "\x00" + askedAt.UTC().Format(time.RFC3339Nano)
	}
	return channel.Key(sessionID, setID)
}

// boxFor is the mailbox of req as ctx asks it.
func boxFor(ctx context.Context, sessionID string, req ask.Request) session.Box {
	at, _ := ask.AskedAt(ctx)
	return session.Box{Session: sessionID, Key: Key(sessionID, req.ID, at)}
}

// fit checks that d answers req, question for question, and returns its
// answers.
func fit(d session.Delivery, req ask.Request) ([]ask.Answer, error) {
	if len(d.Answers) != len(req.Questions) {
		return nil, fmt.Errorf("the answer in the mailbox (by %s) has %d answers for %d questions", ask.Display(d.By), len(d.Answers), len(req.Questions))
	}
	for i, a := range d.Answers {
		if a.Question != req.Questions[i].Question {
			return nil, fmt.Errorf("the answer in the mailbox (by %s) answers %s, not %s", ask.Display(d.By),
				ask.Excerpt(ask.Display(a.Question)), ask.Excerpt(ask.Display(req.Questions[i].Question)))
		}
	}
	return d.Answers, nil
}
