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

// KeyFor is the key req is asked under with ctx by a frontend of session
// sessionID ("" outside one): Key, with the asking's own name outside a
// session (Asking).
func KeyFor(ctx context.Context, sessionID string, req ask.Request) string {
	return boxFor(ctx, sessionID, req).Key
}

// boxFor is the mailbox of req as ctx asks it: outside a session, the
// asking's own (Asking).
func boxFor(ctx context.Context, sessionID string, req ask.Request) session.Box {
	at, _ := ask.AskedAt(ctx)
	id := req.ID
	if name, ok := ctx.Value(askingKey{}).(string); ok && sessionID == "" {
		id += "\x00" + name
	}
	return session.Box{Session: sessionID, Key: Key(sessionID, id, at)}
}

type askingKey struct{}

// Asking names one asking of a set outside a session (askuser ask, mcp,
// hook): its mailbox and registry entry are its own, named by the set's
// id, a random name and when the asking began. Nothing comes back to a
// set asked outside a session, so its id names no mailbox: two askings of
// one id at once (askuser ask --id deploy on two CI runners, two hooks
// given one tool_use_id, on one machine or on several sharing a team
// store) are two questions, each answered on its own, and an answer an
// earlier asking got is never taken. Mailboxed names each asking it is
// given unnamed; a caller that asks one set through two frontends in turn
// (the frontend, then the timeout's policy) names it first, so both post
// to one mailbox. ctx already naming an asking is returned as it is.
func Asking(ctx context.Context, now time.Time) context.Context {
	if _, ok := ctx.Value(askingKey{}).(string); ok {
		return ctx
	}
	ctx = context.WithValue(ctx, askingKey{}, ask.NewID("asking"))
	if _, said := ask.AskedAt(ctx); !said {
		ctx = ask.WithAskedAt(ctx, now)
	}
	return ctx
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
