package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// Asker asks for askuser mcp and askuser hook. It chooses the
// frontend for each question set, so a terminal is opened only while a
// question is on it, and a broken answers file or a missing terminal is
// reported in the answer to that set (where the model or the hook's host
// sees it) rather than stopping the server.
type Asker struct {
	spec      chooser.Spec
	ios       *iostreams.IOStreams
	file      *frontend.File
	fileErr   error
	timeout   time.Duration
	onTimeout ask.Policy
	// terminal is held by the set on the terminal: a prompt draws one set
	// at a time.
	terminal chan struct{}
	log      io.Writer
	// web is the card's broker under --frontend web (askuser mcp).
	web       *inbox.Broker
	webServer *inbox.Server
	// rel serves the inbox and channel frontends, relFE.
	rel   *channelwire.Relayed
	relFE map[string]ask.Frontend
}

// New reads the flags fl of askuser command (mcp or hook); the answers
// file's approval rules come back beside the asker. The answers file is
// read until ctx ends (a signal).
func New(ctx context.Context, f *cmdutil.Factory, fl Flags, command string) (*Asker, *approval.Policy, error) {
	spec, err := readSpec(f, fl)
	if err != nil {
		return nil, nil, err
	}
	onTimeout, err := ask.ParsePolicy("--on-timeout", fl.OnTimeout)
	if err != nil {
		return nil, nil, cmdutil.UsageErrorf("--on-timeout: %s is not valid here; use error, auto or suspend", ask.Excerpt(fl.OnTimeout))
	}
	if onTimeout == ask.PolicySuspend && fl.AskTimeout <= 0 {
		return nil, nil, cmdutil.UsageErrorf("--on-timeout suspend needs --ask-timeout: how long to ask before the call waits for a late answer (e.g. --ask-timeout 10m)")
	}
	ios := f.IOStreams
	b := &Asker{spec: spec, ios: ios, timeout: fl.AskTimeout, onTimeout: onTimeout,
		terminal: make(chan struct{}, 1), log: ios.ErrOut}
	if slices.Contains(spec.Names, chooser.Web) {
		if b.web, b.webServer, err = chooser.StartCard(spec.Listen, ios.ErrOut); err != nil {
			return nil, nil, err
		}
	}
	if err := b.startRelay(command); err != nil {
		b.Close()
		return nil, nil, err
	}
	var rules *approval.Policy
	if spec.Answers != "" {
		b.file, rules, b.fileErr = chooser.LoadAnswersWithApprovals(ctx, spec.Answers)
		if b.fileErr != nil && ctx.Err() != nil {
			b.Close()
			return nil, nil, b.fileErr // a signal while the file was read
		}
		if b.fileErr == nil && spec.Unanswered != "" {
			b.file.SetUnanswered(spec.Unanswered)
		}
		if b.fileErr != nil {
			fmt.Fprintf(ios.ErrOut, "askuser: %s: %s\n", spec.AnswersFrom, cmdutil.ShortenLongPaths(b.fileErr))
		}
	}
	return b, rules, nil
}

func readSpec(f *cmdutil.Factory, fl Flags) (chooser.Spec, error) {
	s := chooser.Spec{Verbose: fl.Asking.Verbose}
	s.Name, s.NameFrom = f.FlagOrEnv(fl.Asking.Frontend, "frontend", "ASKUSER_FRONTEND")
	var err error
	if s.Names, err = names(s.NameFrom, s.Name, fl.Asking.Accepted); err != nil {
		return s, err
	}
	if s.Listen = fl.Asking.Listen; s.Listen != "" && !slices.Contains(s.Names, chooser.Web) {
		return s, cmdutil.UsageErrorf("--listen is for the web page; add --frontend web")
	}
	if err := s.ReadPlace(f, fl.Asking, fl.Store); err != nil {
		return s, err
	}
	if err := s.ReadRest(f, fl.Asking, slices.Contains(s.Names, chooser.File)); err != nil {
		return s, err
	}
	if s.AnswersIn {
		return s, s.StdinTaken("the host's messages cannot come from standard input too", "give the answers file's path")
	}
	return s, nil
}

// names reads --frontend for askuser mcp and askuser hook: a name the
// command accepts, or a comma list of them; stdio is refused with why.
func names(from, value string, accepted []string) ([]string, error) {
	for _, n := range strings.Split(value, ",") {
		switch n = strings.TrimSpace(n); {
		case value == "", slices.Contains(accepted, n), channelwire.IsRelayName(n):
		case n == chooser.Stdio:
			return nil, cmdutil.UsageErrorf("%s stdio: standard input carries the host's messages here, not answers; use survey (the terminal), file (--answers FILE) or auto", from)
		default:
			return nil, cmdutil.UsageErrorf("%s: %s is not a frontend here; use %s, or a comma list such as %s", from, ask.Excerpt(n), cmdutil.OrList(accepted), chooser.ListExample(accepted))
		}
	}
	return chooser.ParseList(from, value, accepted) // auto in a list, a name twice, a channel not built in
}

// startRelay builds the inbox and channel frontends named, and serves the
// channels this process may hold, for as long as it runs.
func (b *Asker) startRelay(command string) error {
	if !channelwire.Members(b.spec.Names) {
		return nil
	}
	b.spec.Place.Title = "askuser " + command
	b.rel, b.relFE = channelwire.NewRelayed(b.spec.Place), map[string]ask.Frontend{}
	for _, n := range b.spec.Names {
		if channelwire.IsRelayName(n) {
			fe, err := b.rel.Frontend(n)
			if err != nil {
				return err
			}
			b.relFE[n] = fe
		}
	}
	b.rel.Start(b.log)
	return nil
}

// Ask puts req to the chosen frontend, bounded by --ask-timeout; host is
// the MCP host's form, or nil.
func (b *Asker) Ask(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error) {
	return b.ask(ctx, req, host, b.onTimeout)
}

// AskNow is Ask for a set that cannot wait for a late answer (a hook event
// other than PreToolUse, which Claude Code cannot defer): under
// --on-timeout suspend it ends, when the bound passes, as error does, so
// nothing is left waiting that no one would take.
func (b *Asker) AskNow(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error) {
	policy := b.onTimeout
	if policy != ask.PolicySuspend {
		return b.ask(ctx, req, host, policy)
	}
	answers, err := b.ask(ctx, req, host, ask.PolicyError)
	if errors.Is(err, ask.ErrTimeout) && ctx.Err() == nil && b.log != nil {
		// Where to answer was said when the set began to wait; it waits
		// no more, and whoever reads this log must not look for it.
		fmt.Fprintf(b.log, "askuser: nobody answered within %s; this call cannot wait for a later answer (--on-timeout suspend keeps only questions and PreToolUse approvals), so it was refused and nothing waits\n", b.timeout)
	}
	return answers, err
}

func (b *Asker) ask(ctx context.Context, req ask.Request, host ask.Frontend, policy ask.Policy) ([]ask.Answer, error) {
	fe, release, err := b.frontend(ctx, host)
	if err != nil {
		return nil, err
	}
	defer release()
	var fallback ask.Frontend = frontend.Auto{Reason: ask.TimeoutReason(b.timeout)}
	if b.rel != nil {
		// One asking, whichever of the two answers it: one mailbox.
		var release func()
		ctx, release = relay.Claim(ctx, b.spec.Place.Store.Mailbox(), b.spec.Place.Store.Registry(), req, time.Now())
		defer release()
		fe, fallback = b.mailboxed(fe), b.mailboxed(fallback)
		if host := channel.Cut(ask.Display(mcp.ClientName(ctx)), 40); host != "" {
			ctx = relay.WithTitle(ctx, b.spec.Place.Title+" · "+host) // "askuser mcp · claude-code"
		}
	}
	answers, err := ask.AskWithin(ctx, fe, req, b.timeout, policy, fallback)
	if err != nil && b.timeout > 0 && errors.Is(err, ask.ErrTimeout) && ctx.Err() == nil {
		err = fmt.Errorf("%w: nobody answered within %s (--ask-timeout); --on-timeout auto would take the recommended options", ask.ErrTimeout, b.timeout)
	}
	return answers, err
}

func (b *Asker) mailboxed(fe ask.Frontend) ask.Frontend {
	return channelwire.Mailboxed(fe, b.spec.Place.Store, "", b.log)
}

// Suspends reports whether a set nobody answered in time waits for a late
// answer (--on-timeout suspend, or the answers file's unanswered:
// suspend): the caller keeps it in an askuser session (internal/hostrun's
// Standalone), and this asker's answers go to that session's mailbox
// (AskIn).
func (b *Asker) Suspends() bool {
	return b.onTimeout == ask.PolicySuspend || b.spec.Unanswered == ask.PolicySuspend ||
		(b.file != nil && b.file.Unanswered() == ask.PolicySuspend)
}

// AskIn asks as Ask does, inside askuser session id of st: each set is
// answered once, whether by the frontend here or by a late answer given
// to that session (askuser resume, serve's page, a chat), so a set asked
// again after a continue takes the answer already given.
func (b *Asker) AskIn(st *session.Store, id session.ID) func(context.Context, ask.Request) ([]ask.Answer, error) {
	return func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		fe, release, err := b.frontend(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer release()
		fe = channelwire.Mailboxed(fe, st, string(id), b.log)
		fallback := channelwire.Mailboxed(frontend.Auto{Reason: ask.TimeoutReason(b.timeout)}, st, string(id), b.log)
		return ask.AskWithin(ctx, fe, req, b.timeout, b.onTimeout, fallback)
	}
}

// names are the frontends each set is asked through, and why.
func (b *Asker) names() ([]string, string) {
	switch names := b.spec.Names; {
	case len(names) > 0:
		return names, "chosen with " + b.spec.NameFrom
	case b.spec.Answers != "":
		return []string{chooser.File}, "an answers file was given with " + b.spec.AnswersFrom
	}
	return []string{chooser.Survey}, "no answers file was given, so a person is asked at the terminal"
}

// Instant reports whether every set is answered without waiting on a
// person: by the answers file, or the recommended-option policy.
func (b *Asker) Instant() bool {
	names, _ := b.names()
	return !slices.ContainsFunc(names, func(n string) bool { return n != chooser.File && n != chooser.Auto })
}

// frontend picks the frontend for one set: --frontend (several race),
// else the answers file, else the terminal.
func (b *Asker) frontend(ctx context.Context, host ask.Frontend) (ask.Frontend, func(), error) {
	names, why := b.names()
	if b.spec.Verbose {
		fmt.Fprintf(b.log, "askuser: asking through %s: %s\n", strings.Join(names, ","), why)
	}
	if len(names) == 1 {
		return b.one(ctx, names[0], host)
	}
	var racers []frontend.Racer
	var left []string
	for _, n := range names {
		if n == chooser.Survey {
			racers = append(racers, frontend.Racer{Name: n, FE: lazySurvey{b}})
			continue
		}
		fe, _, err := b.one(ctx, n, host) // only survey has something to release
		if err != nil {
			left = append(left, n+": "+err.Error())
			continue
		}
		racers = append(racers, frontend.Racer{Name: n, FE: fe})
	}
	if len(racers) == 0 {
		return nil, nil, fmt.Errorf("%w: none of the frontends can ask (%s)", ask.ErrNoAnswer, strings.Join(left, "; "))
	}
	return frontend.NewRace(racers...), func() {}, nil
}

// one is the frontend name for one set, and what releases it.
func (b *Asker) one(ctx context.Context, name string, host ask.Frontend) (ask.Frontend, func(), error) {
	nothing := func() {}
	switch name {
	case chooser.Elicit:
		if host == nil {
			return nil, nil, fmt.Errorf("%w: --frontend elicit asks through the host's own form, and this host did not declare the elicitation capability; use --frontend survey or --answers FILE", ask.ErrNoAnswer)
		}
		return host, nothing, nil
	case chooser.File:
		if b.fileErr != nil {
			return nil, nil, fmt.Errorf("%w: the answers file %s cannot be used: %v", ask.ErrNoAnswer, b.spec.Answers, b.fileErr)
		}
		return b.file, nothing, nil
	case chooser.Auto:
		return frontend.Auto{}, nothing, nil
	case chooser.Web:
		return b.web, nothing, nil
	case chooser.Survey:
		return b.survey(ctx)
	}
	return b.relFE[name], nothing, nil
}

// lazySurvey opens the terminal when its set's turn comes, in a race.
type lazySurvey struct{ b *Asker }

func (l lazySurvey) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	fe, release, err := l.b.survey(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return fe.Ask(ctx, req)
}

// survey opens the terminal for one set, waiting for a set already on it.
func (b *Asker) survey(ctx context.Context) (ask.Frontend, func(), error) {
	select {
	case b.terminal <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ask.CtxErr(ctx)
	}
	in, out, closeTTY, err := b.ios.Terminal()
	if err != nil {
		// Claude Code runs hooks without a controlling terminal; the
		// person is at the one claude was started from.
		var herr error
		if in, out, closeTTY, herr = b.ios.HostTerminal(); herr != nil {
			<-b.terminal
			return nil, nil, fmt.Errorf("%w: nobody can answer now: no answers file was given, %v, and %v; give --answers FILE, or --frontend auto to take the recommended options", ask.ErrNoAnswer, err, herr)
		}
	}
	sv := frontend.NewSurvey(in, out)
	color := b.ios.ColorAllowed()
	sv.Color = &color
	sv.Plain = b.spec.Plain || b.ios.IsDumb()
	return withdrawNotice{sv, out}, func() { closeTTY(); <-b.terminal }, nil
}

// withdrawNotice tells the person when a question they were shown is
// withdrawn (the host cancelled the call or gave up): the prompt is gone
// from their screen and they should know why.
type withdrawNotice struct {
	fe  ask.Frontend
	out io.Writer
}

func (w withdrawNotice) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	answers, err := w.fe.Ask(ctx, req)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(w.out, "askuser: the question was withdrawn: %s\n", ask.Display(ask.CtxErr(ctx).Error()))
	}
	return answers, err
}

// Close stops what the bridge started: askuser mcp's web card, the relay
// serving its channels.
func (b *Asker) Close() {
	if b.webServer != nil {
		chooser.CloseCard(b.webServer)
	}
	if b.rel != nil {
		b.rel.Stop()
	}
}
