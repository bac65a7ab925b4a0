package channelwire

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// Place says where the inbox and channel frontends of a command keep
// their sets: the store, the session ("" outside one) and its title; a
// background resume of askuser serve defers every set to serve
// (DeferAll), threaded under the messages of the set it was resumed for.
type Place struct {
	Store          *session.Store
	Session, Title string
	// Src are the channels' settings, when a channel is named.
	Src      *channel.Sources
	DeferAll bool
	Threads  map[string]channel.Ref
	// ErrOut is where the person is told where to answer.
	ErrOut io.Writer
}

// ThreadUnder makes the sets asked next follow up the set with key, on
// every channel that shows it (a thread's root where it is in one).
func (p *Place) ThreadUnder(key string) error {
	if key == "" {
		return nil
	}
	e, err := p.Store.Registry().Get(context.Background(), key)
	if err != nil {
		return nil // pruned, or never sent: the next sets start their own
	}
	p.Threads = map[string]channel.Ref{}
	for name, s := range e.Sent {
		switch {
		case len(e.Threads[name]) > 0:
			p.Threads[name] = e.Threads[name]
		case len(s.Ref) > 0:
			p.Threads[name] = s.Ref
		}
	}
	return nil
}

// Relayed is what a process that asks through the inbox or channels
// runs: its frontends, and a relay serving the channels it may hold (it
// holds a channel only when no other process does).
type Relayed struct {
	place  Place
	served []relay.Served
	relay  *relay.Relay
	stop   func()
}

// NewRelayed is the relay side of a process asking at p.
func NewRelayed(p Place) *Relayed { return &Relayed{place: p} }

// Frontend builds the frontend name (the inbox or a channel).
func (x *Relayed) Frontend(name string) (ask.Frontend, error) {
	if name != Inbox && !x.place.DeferAll {
		if x.place.Src == nil {
			return nil, cmdutil.UsageErrorf("--frontend %s needs the channel's settings", name)
		}
		s, err := Build(name, *x.place.Src)
		if err != nil {
			return nil, err
		}
		if err := servedElsewhere(x.place.Store, s); err != nil {
			return nil, err
		}
		x.served = append(x.served, s)
	}
	st := x.place.Store
	var registered func()
	if name == Inbox && !x.place.DeferAll && x.place.ErrOut != nil {
		// Said once the set waits in the inbox, not before: a process
		// still waiting for the store has no set anybody could answer.
		registered = sync.OnceFunc(func() { sayWhereToAnswer(x.place, x.place.ErrOut) })
	}
	return &relay.Frontend{Mailbox: st.Mailbox(), Registry: st.Registry(), Session: x.place.Session, Title: x.place.Title,
		Channels: []string{name}, Threads: x.place.Threads, Defer: x.place.DeferAll, Wake: x.wake, Registered: registered}, nil
}

func (x *Relayed) wake() {
	if x.relay != nil {
		x.relay.Wake()
	}
}

// Start serves the channels this process may hold, in the background,
// until Stop; what goes wrong is said on errOut.
func (x *Relayed) Start(errOut io.Writer) {
	x.stop = func() {}
	if len(x.served) == 0 {
		return
	}
	st := x.place.Store
	x.relay = relay.New(relay.Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Deliveries: st.Deliveries(), Sessions: st, Channels: x.served,
		Hold: st.HoldChannel, Log: errOut, Link: func(e session.Entry) string { return SetLink(st.Dir, e) }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { x.relay.Run(ctx); close(done) }()
	x.stop = func() { cancel(); <-done }
}

// Stop stops what Start started; it does nothing before Start.
func (x *Relayed) Stop() {
	if x.stop != nil {
		x.stop()
	}
}

// sayWhereToAnswer tells the person where a set asked through the inbox
// can be answered: the session's page in the askuser serve that shows
// the state directory; for a set outside a session (ask, mcp, hook), that
// serve's first page, which lists it; or that none shows it now. A link
// said here names no token: a hook's or an MCP server's standard error
// goes to the agent's host.
func sayWhereToAnswer(p Place, errOut io.Writer) {
	if u := InboxURL(p.Store.Dir, p.Session); u != "" {
		fmt.Fprintf(errOut, "askuser: answer in the inbox: %s\n", u)
		return
	}
	_, err := os.Stat(filepath.Join(p.Store.Dir, AddressFile))
	serving := err == nil
	switch {
	case serving && p.Session == "":
		where := ""
		if u := InboxLink(p.Store.Dir, ""); u != "" {
			where = " (" + u + ")"
		}
		fmt.Fprintf(errOut, "askuser: answer on askuser serve's first page, under \"Asked outside a session\"%s, or in a chat channel it holds\n", where)
	case serving:
		// serve shows the session's page; its URL was not readable here.
	case p.Store.Backend != nil:
		// No serve here, but one on any machine of the team store shows
		// it: this process cannot know of those.
		fmt.Fprintf(errOut, "askuser: the question waits in the team store %s: askuser serve with that store, on any machine, shows it on its page and in its chat channels\n", p.Store.Backend.Where(""))
	default:
		fmt.Fprintf(errOut, "askuser: the question waits in the inbox of %s, which no askuser serve shows now: start askuser serve there to answer it on its page or in its chat channels\n", p.Store.Dir)
	}
}

// Mailboxed wraps fe so that each set is answered once, wherever the
// answer comes from (relay.Mailboxed); errOut is told when another answer
// won.
func Mailboxed(fe ask.Frontend, st *session.Store, sessionID string, errOut io.Writer) ask.Frontend {
	return &relay.Mailboxed{Inner: fe, Mailbox: st.Mailbox(), Registry: st.Registry(), Session: sessionID,
		Note: func(s string) { fmt.Fprintln(errOut, "askuser: "+s) }}
}
