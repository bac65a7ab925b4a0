package relay

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Inbox is the frontend name that asks wherever askuser serve answers:
// its page, and every channel it holds.
const Inbox = "inbox"

// Frontend asks through the inbox or chat channels: it registers each set
// with the channels it wants and waits for its answer in the mailbox. It
// sends nothing itself: the process that holds a channel does (a Relay,
// in askuser serve or in this process). It holds several sets at once.
//
// It is used inside Mailboxed, which posts whichever answer wins a race
// and withdraws what was not answered; on its own it only returns when
// the mailbox has an answer or ctx ends. A set of a session stays
// registered when ctx ends without an answer: the session can be resumed
// for it, so it stays answerable in the chat (a late answer).
type Frontend struct {
	Mailbox  Mailbox
	Registry Registry
	// Session is the session's id; "" for sets asked outside one.
	Session string
	// Title says where the sets come from (the session's title, "askuser
	// ask").
	Title string
	// Channels are the channels to send to: Inbox, or channel names.
	Channels []string
	// Threads, per channel, is the message to post sets under (a set of
	// the session answered before).
	Threads map[string]channel.Ref
	// Defer registers each set and returns at once with ask.ErrDeferred:
	// askuser serve's background resume, whose next sets serve sends.
	Defer bool
	// Wake, if set, tells this process's relay a set was registered.
	Wake func()
	// Registered, if set, is told each time a set is registered, and so
	// waits where every process of the store finds it: only then is the
	// person told where to answer.
	Registered func()
	Now        func() time.Time
}

var (
	_ ask.Frontend   = (*Frontend)(nil)
	_ ask.Concurrent = (*Frontend)(nil)
)

// Concurrent reports true: every set is its own message.
func (f *Frontend) Concurrent() bool { return true }

type titleKey struct{}

// WithTitle makes the sets asked with ctx say they come from title rather
// than from the Frontend's Title: askuser mcp names its host once the host
// has connected ("askuser mcp · claude-code").
func WithTitle(ctx context.Context, title string) context.Context {
	return context.WithValue(ctx, titleKey{}, title)
}

func (f *Frontend) title(ctx context.Context) string {
	if t, ok := ctx.Value(titleKey{}).(string); ok && t != "" {
		return t
	}
	return f.Title
}

// Ask registers req and waits for its answer in the mailbox.
func (f *Frontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	box := boxFor(ctx, f.Session, req)
	if d, ok, err := f.Mailbox.Get(ctx, box); err != nil || ok {
		return answered(d, req, err)
	}
	askedAt, _ := ask.AskedAt(ctx)
	if err := f.register(ctx, box.Key, req, askedAt); err != nil {
		return nil, err
	}
	if f.Wake != nil {
		f.Wake()
	}
	if f.Registered != nil {
		f.Registered()
	}
	if f.Defer {
		return nil, fmt.Errorf("%w: waiting for an answer in %s", ask.ErrDeferred, strings.Join(f.Channels, ", "))
	}
	d, err := f.Mailbox.Wait(ctx, box)
	if err != nil {
		// Answered just as ctx ended: the person was told it was taken.
		if d, ok, gerr := f.Mailbox.Get(context.WithoutCancel(ctx), box); gerr == nil && ok {
			return answered(d, req, nil)
		}
		return nil, err
	}
	return answered(d, req, nil)
}

func answered(d session.Delivery, req ask.Request, err error) ([]ask.Answer, error) {
	if err != nil {
		return nil, err
	}
	return fit(d, req)
}

// register adds req to the registry, or brings its entry up to date: a
// set asked again (resumed) keeps its messages, adds the channels asked
// for now, and gets a new revision when its questions changed (a set
// answered in part waits for the rest), so a tap on the old rendering is
// refused. A set that was withdrawn is opened again.
func (f *Frontend) register(ctx context.Context, key string, req ask.Request, askedAt time.Time) error {
	_, err := f.Registry.Update(ctx, key, func(e *session.Entry, found bool) error {
		if !found {
			*e = session.Entry{Session: f.Session, Request: req, Title: f.title(ctx), AskedAt: askedAt,
				Channels: slices.Clone(f.Channels), Rev: 1, Threads: f.Threads}
			return nil
		}
		for _, c := range f.Channels {
			if !slices.Contains(e.Channels, c) {
				e.Channels = append(e.Channels, c)
			}
		}
		if !e.Pending() && e.Outcome.State != channel.Answered {
			e.Outcome, e.Rev, e.Sent = session.Outcome{}, e.Rev+1, nil
		}
		if !sameQuestions(e.Request, req) {
			e.Request, e.Rev = req, e.Rev+1
		}
		if e.Threads == nil {
			e.Threads = f.Threads
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: register the question: %w", strings.Join(f.Channels, ","), err)
	}
	return nil
}

func sameQuestions(a, b ask.Request) bool {
	if len(a.Questions) != len(b.Questions) {
		return false
	}
	for i := range a.Questions {
		if a.Questions[i].Question != b.Questions[i].Question || len(a.Questions[i].Options) != len(b.Questions[i].Options) {
			return false
		}
	}
	return true
}
