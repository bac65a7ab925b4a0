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
	Claim(key string) (release func(), ok bool, err error)
}

// Deliveries records the deliveries the channels took from their
// platforms (session.Deliveries in files), for every process of the
// store: a delivery made again after a restart, or to another machine,
// is taken no second time.
type Deliveries interface {
	Taken(ctx context.Context, id string) (bool, error)
	Take(ctx context.Context, id string, at time.Time) error
	Prune(ctx context.Context, before time.Time) error
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

// KeyFor is the key req is asked under with ctx by a frontend of session
// sessionID ("" outside one): Key, or the asking's own name outside a
// session when Claim gave it one.
func KeyFor(ctx context.Context, sessionID string, req ask.Request) string {
	return boxFor(ctx, sessionID, req).Key
}

// boxFor is the mailbox of req as ctx asks it: outside a session, the one
// Claim chose.
func boxFor(ctx context.Context, sessionID string, req ask.Request) session.Box {
	at, _ := ask.AskedAt(ctx)
	id := req.ID
	if a, ok := ctx.Value(askingKey{}).(asking); ok && sessionID == "" && a.name != "" {
		id += "\x00" + a.name
	}
	return session.Box{Session: sessionID, Key: Key(sessionID, id, at)}
}

type askingKey struct{}

// asking is an asking of a set outside a session, claimed: name is "" when
// it is asked under the set's own key, else its own name.
type asking struct{ name string }

// Claim claims the asking of req outside a session that ctx begins, and
// returns ctx naming it, and what releases it when the asking ends. No
// process comes back to a set outside a session, so no two askings share
// a mailbox:
//   - the set is asked under its own key (its id) when no process asks it
//     now and its mailbox holds no answer (an earlier asking's);
//   - otherwise (askuser ask --id deploy on two CI runners at once, on one
//     machine or several sharing a team store, two hooks given one
//     tool_use_id, or the same id asked again after it was answered) this
//     asking is named anew, by a random name and when it began, and is a
//     question of its own, with its own card and message.
//
// The key is held (Registry.Claim) while the asking lasts, which is how
// another asking of it, and a relay, tell that someone waits on it.
// Mailboxed claims each asking it is given unclaimed; a caller that asks
// one set through two frontends in turn (the frontend, then the timeout's
// policy) claims it first, so both post to one mailbox. ctx already
// claimed is returned as it is, with nothing to release.
func Claim(ctx context.Context, mb Mailbox, reg Registry, req ask.Request, now time.Time) (context.Context, func()) {
	if _, ok := ctx.Value(askingKey{}).(asking); ok || reg == nil {
		return ctx, func() {}
	}
	own := Key("", req.ID, time.Time{})
	if release, ok, err := reg.Claim(own); err == nil && ok {
		if _, answered, err := mb.Get(ctx, session.Box{Key: own}); err == nil && !answered {
			return context.WithValue(ctx, askingKey{}, asking{}), release
		}
		release()
	}
	ctx = context.WithValue(ctx, askingKey{}, asking{name: ask.NewID("asking")})
	if _, said := ask.AskedAt(ctx); !said {
		ctx = ask.WithAskedAt(ctx, now)
	}
	release := func() {}
	if r, err := reg.Hold(boxFor(ctx, "", req).Key); err == nil {
		release = r
	}
	return ctx, release
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
