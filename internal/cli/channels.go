package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// feInbox asks wherever askuser serve answers: its page and its channels.
const feInbox = relay.Inbox

// isRelayName reports whether a frontend name asks through the registry:
// the inbox, or a chat channel askuser knows (linked or not).
func isRelayName(name string) bool {
	if name == feInbox {
		return true
	}
	_, ok := channel.Lookup(name)
	return ok
}

// channelNames are the chat channels this askuser has linked in.
func channelNames() []string {
	var out []string
	for _, s := range channel.Specs() {
		if s.New != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// channelFlags are every channel's flags, made from issue 25's table: the
// destination, the allow-list and the API base. Secrets have none: a
// flag's value shows in the process list.
func channelFlags() []cli.Flag {
	var flags []cli.Flag
	for _, s := range channel.Specs() {
		for _, set := range []channel.Setting{s.Dest, s.Users, s.API} {
			flags = append(flags, &cli.StringFlag{Name: set.Flag(), Category: catChannels,
				Usage: set.Usage + " (env " + set.Env + ")"})
		}
	}
	return flags
}

// channelsFile is the config file channels read their settings from:
// ASKUSER_CHANNELS_FILE, else channels.env in askuser's config directory.
// explicit says it was named, so it must exist.
func channelsFile(e *env) (path string, explicit bool) {
	if p := e.getenv("ASKUSER_CHANNELS_FILE"); p != "" {
		return p, true
	}
	dir := e.getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "askuser", "channels.env"), false
}

// channelSources are where the channels' settings are read from: this
// command's flags, the environment, the config file.
func channelSources(c *cli.Context, e *env) (channel.Sources, error) {
	path, explicit := channelsFile(e)
	src := channel.Sources{Env: e.getenv, FilePath: path, File: map[string]string{}}
	if c != nil {
		src.Flag = c.String
	}
	if path == "" {
		return src, nil
	}
	file, err := channel.ReadFile(path, !explicit)
	if err != nil {
		return src, withCode(ExitUsage, err)
	}
	src.File = file
	return src, nil
}

// buildChannel builds channel name from its configuration. A channel that
// is not linked, or not configured, is a usage error naming what to set.
func buildChannel(name string, src channel.Sources) (relay.Served, error) {
	spec, ok := channel.Lookup(name)
	if !ok {
		return relay.Served{}, usageErrorf("%s is not a chat channel; askuser knows %s", ask.Excerpt(name), strings.Join(knownChannels(), ", "))
	}
	if spec.New == nil {
		return relay.Served{}, withCode(ExitUsage, spec.NotLinked())
	}
	cfg, err := spec.Read(src)
	if err != nil {
		return relay.Served{}, withCode(ExitUsage, err)
	}
	ch, err := spec.New(cfg)
	if err != nil {
		return relay.Served{}, withCode(ExitUsage, fmt.Errorf("%s: %w", name, err))
	}
	return relay.Served{Channel: ch, Allow: cfg.Allow}, nil
}

func knownChannels() []string {
	var out []string
	for _, s := range channel.Specs() {
		out = append(out, s.Name)
	}
	return out
}

// relayPlace says where the inbox and channel frontends of a command keep
// their sets: the state directory, the session ("" outside one) and its
// title; a background resume of askuser serve defers every set to serve
// (deferAll), threaded under the messages of the set it was resumed for.
type relayPlace struct {
	store          *session.Store
	session, title string
	src            *channel.Sources
	deferAll       bool
	threads        map[string]channel.Ref
	// errOut is where the person is told where to answer.
	errOut io.Writer
}

// The hidden flags of askuser serve's background resume: register the
// sets the session asks next and stop at once (serve sends them), under
// the messages of the set answered.
const (
	flagRelayDefer  = "relay-defer"
	flagRelayThread = "relay-thread"
)

func relayResumeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: flagRelayDefer, Hidden: true},
		&cli.StringFlag{Name: flagRelayThread, Hidden: true},
	}
}

// threadUnder makes the sets asked next follow up the set with key, on
// every channel that shows it (a thread's root where it is in one).
func (p *relayPlace) threadUnder(key string) error {
	if key == "" {
		return nil
	}
	e, err := p.store.Registry().Get(context.Background(), key)
	if err != nil {
		return nil // pruned, or never sent: the next sets start their own
	}
	p.threads = map[string]channel.Ref{}
	for name, s := range e.Sent {
		switch {
		case len(e.Threads[name]) > 0:
			p.threads[name] = e.Threads[name]
		case len(s.Ref) > 0:
			p.threads[name] = s.Ref
		}
	}
	return nil
}

// relayed is what a process that asks through the inbox or channels
// runs: its frontends, and a relay serving the channels it may hold (it
// holds a channel only when no other process does).
type relayed struct {
	place  relayPlace
	served []relay.Served
	relay  *relay.Relay
	stop   func()
}

// frontend builds the frontend name (the inbox or a channel).
func (x *relayed) frontend(name string) (ask.Frontend, error) {
	if name != feInbox && !x.place.deferAll {
		if x.place.src == nil {
			return nil, usageErrorf("--frontend %s needs the channel's settings", name)
		}
		s, err := buildChannel(name, *x.place.src)
		if err != nil {
			return nil, err
		}
		if err := servedElsewhere(x.place.store, s); err != nil {
			return nil, err
		}
		x.served = append(x.served, s)
	}
	st := x.place.store
	var registered func()
	if name == feInbox && !x.place.deferAll && x.place.errOut != nil {
		// Said once the set waits in the inbox, not before: a process
		// still waiting for the store has no set anybody could answer.
		registered = sync.OnceFunc(func() { sayWhereToAnswer(x.place, x.place.errOut) })
	}
	return &relay.Frontend{Mailbox: st.Mailbox(), Registry: st.Registry(), Session: x.place.session, Title: x.place.title,
		Channels: []string{name}, Threads: x.place.threads, Defer: x.place.deferAll, Wake: x.wake, Registered: registered}, nil
}

func (x *relayed) wake() {
	if x.relay != nil {
		x.relay.Wake()
	}
}

// start serves the channels this process may hold, in the background,
// until stop; what goes wrong is said on errOut.
func (x *relayed) start(errOut io.Writer) {
	x.stop = func() {}
	if len(x.served) == 0 {
		return
	}
	st := x.place.store
	x.relay = relay.New(relay.Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Deliveries: st.Deliveries(), Sessions: st, Channels: x.served,
		Hold: st.HoldChannel, Log: errOut, Link: func(e session.Entry) string { return setLink(st.Dir, e) }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { x.relay.Run(ctx); close(done) }()
	x.stop = func() { cancel(); <-done }
}

// sayWhereToAnswer tells the person where a set asked through the inbox
// can be answered: the session's page in the askuser serve that shows
// the state directory; for a set outside a session (ask, mcp, hook), that
// serve's first page, which lists it; or that none shows it now. A link
// said here names no token: a hook's or an MCP server's standard error
// goes to the agent's host.
func sayWhereToAnswer(p relayPlace, errOut io.Writer) {
	if u := inboxURL(p.store.Dir, p.session); u != "" {
		fmt.Fprintf(errOut, "askuser: answer in the inbox: %s\n", u)
		return
	}
	_, err := os.Stat(filepath.Join(p.store.Dir, serveURLFile))
	serving := err == nil
	switch {
	case serving && p.session == "":
		where := ""
		if u := inboxLink(p.store.Dir, ""); u != "" {
			where = " (" + u + ")"
		}
		fmt.Fprintf(errOut, "askuser: answer on askuser serve's first page, under \"Asked outside a session\"%s, or in a chat channel it holds\n", where)
	case serving:
		// serve shows the session's page; its URL was not readable here.
	case p.store.Backend != nil:
		// No serve here, but one on any machine of the team store shows
		// it: this process cannot know of those.
		fmt.Fprintf(errOut, "askuser: the question waits in the team store %s: askuser serve with that store, on any machine, shows it on its page and in its chat channels\n", p.store.Backend.Where(""))
	default:
		fmt.Fprintf(errOut, "askuser: the question waits in the inbox of %s, which no askuser serve shows now: start askuser serve there to answer it on its page or in its chat channels\n", p.store.Dir)
	}
}

// mailboxed wraps fe so that each set is answered once, wherever the
// answer comes from (relay.Mailboxed); note is told when another answer
// won.
func mailboxed(fe ask.Frontend, st *session.Store, sessionID string, errOut io.Writer) ask.Frontend {
	return &relay.Mailboxed{Inner: fe, Mailbox: st.Mailbox(), Registry: st.Registry(), Session: sessionID,
		Note: func(s string) { fmt.Fprintln(errOut, "askuser: "+s) }}
}

// relayMembers reports whether names include the inbox or a channel.
func relayMembers(names []string) bool { return slices.ContainsFunc(names, isRelayName) }
