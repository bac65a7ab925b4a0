package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/inbox"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/relay"
)

// feElicit asks through the MCP host's own form (askuser mcp only).
const feElicit = "elicit"

// bridgeFlags are the flags of askuser mcp and askuser hook: the frontend
// flags of askuser ask as a, where standard input is not the person's (it
// carries MCP, or the hook event), so stdio is not offered and the person
// is reached at /dev/tty.
func bridgeFlags(a asking, server bool) []cli.Flag {
	return append(frontendFlags(a), stateDirFlag(), storeFlag(),
		askTimeoutFlag(server),
		onTimeoutFlag("when --ask-timeout passes: error (report that nobody answered) or auto (take the recommended options, marked as such; never approves a tool)",
			ask.PolicyError, ask.PolicyAuto),
		&cli.StringFlag{Name: "name", Value: "askuser", Usage: "the `NAME` the host knows askuser's MCP server by, so mcp__NAME__AskUserQuestion is recognised as askuser's own"},
	)
}

// askTimeoutFlag is --ask-timeout of askuser mcp (server) or askuser hook.
// Its default is what bounds a question without it: for the server, the
// bound it puts on a call whose host sends no progress token and so cannot
// be kept from its idle limit (mcp.DefaultUnwatched); for the hook, its
// own --timeout.
func askTimeoutFlag(server bool) cli.Flag {
	f := &cli.DurationFlag{Name: "ask-timeout", Category: catTimeouts, Usage: "bound each question set to `DURATION` (e.g. 10m); see --on-timeout",
		DefaultText: "none; --timeout bounds the whole hook"}
	if server {
		f.Usage += fmt.Sprintf(". Without it, a call whose host sends no progress token is bounded by %s, and the result says nobody answered: "+
			"askuser cannot send such a host progress, and Claude Code 2.1.330 aborts a call after 30 minutes without a reply or progress, "+
			"sending no cancellation, which would leave the question on the person's screen after the host gave up", shortDuration(mcp.DefaultUnwatched))
		f.DefaultText = shortDuration(mcp.DefaultUnwatched) + " for a call without a progress token, none for a call with one"
	}
	return f
}

// bridgeAsker asks for askuser mcp and askuser hook. It chooses the
// frontend for each question set, so a terminal is opened only while a
// question is on it, and a broken answers file or a missing terminal is
// reported in the answer to that set (where the model or the hook's host
// sees it) rather than stopping the server.
type bridgeAsker struct {
	spec      frontendSpec
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
	rel   *relayed
	relFE map[string]ask.Frontend
}

// newBridgeAsker reads the flags; the answers file's approval rules come
// back beside it. The answers file is read until ctx ends (a signal).
func newBridgeAsker(ctx context.Context, c *cli.Context, e *env) (*bridgeAsker, *approval.Policy, error) {
	spec, err := readBridgeSpec(c, e)
	if err != nil {
		return nil, nil, err
	}
	onTimeout, err := ask.ParsePolicy("--on-timeout", c.String("on-timeout"))
	if err != nil || onTimeout == ask.PolicySuspend {
		return nil, nil, usageErrorf("--on-timeout: %s is not valid here; use error or auto", ask.Excerpt(c.String("on-timeout")))
	}
	b := &bridgeAsker{spec: spec, ios: e.ios, timeout: c.Duration("ask-timeout"), onTimeout: onTimeout,
		terminal: make(chan struct{}, 1), log: e.ios.ErrOut}
	if slices.Contains(spec.names, feWeb) {
		if b.web, b.webServer, err = startCard(spec.listen, e.ios.ErrOut); err != nil {
			return nil, nil, err
		}
	}
	if err := b.startRelay(c.Command.Name); err != nil {
		b.close()
		return nil, nil, err
	}
	var rules *approval.Policy
	if spec.answers != "" {
		b.file, rules, b.fileErr = loadAnswersWithApprovals(ctx, spec.answers)
		if b.fileErr != nil && ctx.Err() != nil {
			b.close()
			return nil, nil, b.fileErr // a signal while the file was read
		}
		if b.fileErr == nil && spec.unanswered != "" {
			b.file.SetUnanswered(spec.unanswered)
		}
		if b.fileErr != nil {
			fmt.Fprintf(e.ios.ErrOut, "askuser: %s: %s\n", spec.answersFrom, shortenLongPaths(b.fileErr))
		}
	}
	return b, rules, nil
}

func readBridgeSpec(c *cli.Context, e *env) (frontendSpec, error) {
	s := frontendSpec{verbose: c.Bool("verbose")}
	s.name, s.nameFrom = flagOrEnv(c, e, "frontend", "ASKUSER_FRONTEND")
	var err error
	if s.names, err = bridgeNames(s.nameFrom, s.name, choicesOf(c.Command.Flags, "frontend")); err != nil {
		return s, err
	}
	if s.listen = c.String("listen"); s.listen != "" && !slices.Contains(s.names, feWeb) {
		return s, usageErrorf("--listen is for the web page; add --frontend web")
	}
	if err := s.readPlace(c, e); err != nil {
		return s, err
	}
	if err := s.readRest(c, e, slices.Contains(s.names, feFile)); err != nil {
		return s, err
	}
	if s.answersIn {
		return s, s.stdinTaken("the host's messages cannot come from standard input too", "give the answers file's path")
	}
	if s.unanswered == ask.PolicySuspend {
		return s, usageErrorf("%s suspend needs a session to come back to; use error or auto", s.unansweredFrom)
	}
	return s, nil
}

// bridgeNames reads --frontend for askuser mcp and askuser hook: a name
// the command accepts, or a comma list of them; stdio is refused with why.
func bridgeNames(from, value string, accepted []string) ([]string, error) {
	for _, n := range strings.Split(value, ",") {
		switch n = strings.TrimSpace(n); {
		case value == "", slices.Contains(accepted, n), isRelayName(n):
		case n == feStdio:
			return nil, usageErrorf("%s stdio: standard input carries the host's messages here, not answers; use survey (the terminal), file (--answers FILE) or auto", from)
		default:
			return nil, usageErrorf("%s: %s is not a frontend here; use %s, or a comma list such as %s", from, ask.Excerpt(n), orList(accepted), listExample(accepted))
		}
	}
	return parseFrontendList(from, value, accepted) // auto in a list, a name twice, a channel not built in
}

// startRelay builds the inbox and channel frontends named, and serves the
// channels this process may hold, for as long as it runs.
func (b *bridgeAsker) startRelay(command string) error {
	if !relayMembers(b.spec.names) {
		return nil
	}
	b.spec.place.title = "askuser " + command
	b.rel, b.relFE = &relayed{place: b.spec.place}, map[string]ask.Frontend{}
	for _, n := range b.spec.names {
		if isRelayName(n) {
			fe, err := b.rel.frontend(n)
			if err != nil {
				return err
			}
			b.relFE[n] = fe
		}
	}
	b.rel.start(b.log)
	return nil
}

// Ask puts req to the chosen frontend, bounded by --ask-timeout; host is
// the MCP host's form, or nil.
func (b *bridgeAsker) Ask(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error) {
	fe, release, err := b.frontend(ctx, host)
	if err != nil {
		return nil, err
	}
	defer release()
	var fallback ask.Frontend = frontend.Auto{Reason: ask.TimeoutReason(b.timeout)}
	if b.rel != nil {
		// One asking, whichever of the two answers it: one mailbox.
		var release func()
		ctx, release = relay.Claim(ctx, b.spec.place.store.Mailbox(), b.spec.place.store.Registry(), req, time.Now())
		defer release()
		fe, fallback = b.mailboxed(fe), b.mailboxed(fallback)
		if host := channel.Cut(ask.Display(mcp.ClientName(ctx)), 40); host != "" {
			ctx = relay.WithTitle(ctx, b.spec.place.title+" · "+host) // "askuser mcp · claude-code"
		}
	}
	answers, err := ask.AskWithin(ctx, fe, req, b.timeout, b.onTimeout, fallback)
	if err != nil && b.timeout > 0 && errors.Is(err, ask.ErrTimeout) && ctx.Err() == nil {
		err = fmt.Errorf("%w: nobody answered within %s (--ask-timeout); --on-timeout auto would take the recommended options", ask.ErrTimeout, b.timeout)
	}
	return answers, err
}

func (b *bridgeAsker) mailboxed(fe ask.Frontend) ask.Frontend {
	return mailboxed(fe, b.spec.place.store, "", b.log)
}

// names are the frontends each set is asked through, and why.
func (b *bridgeAsker) names() ([]string, string) {
	switch names := b.spec.names; {
	case len(names) > 0:
		return names, "chosen with " + b.spec.nameFrom
	case b.spec.answers != "":
		return []string{feFile}, "an answers file was given with " + b.spec.answersFrom
	}
	return []string{feSurvey}, "no answers file was given, so a person is asked at the terminal"
}

// instant reports whether every set is answered without waiting on a
// person: by the answers file, or the recommended-option policy.
func (b *bridgeAsker) instant() bool {
	names, _ := b.names()
	return !slices.ContainsFunc(names, func(n string) bool { return n != feFile && n != feAuto })
}

// frontend picks the frontend for one set: --frontend (several race),
// else the answers file, else the terminal.
func (b *bridgeAsker) frontend(ctx context.Context, host ask.Frontend) (ask.Frontend, func(), error) {
	names, why := b.names()
	if b.spec.verbose {
		fmt.Fprintf(b.log, "askuser: asking through %s: %s\n", strings.Join(names, ","), why)
	}
	if len(names) == 1 {
		return b.one(ctx, names[0], host)
	}
	var racers []frontend.Racer
	var left []string
	for _, n := range names {
		if n == feSurvey {
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
func (b *bridgeAsker) one(ctx context.Context, name string, host ask.Frontend) (ask.Frontend, func(), error) {
	nothing := func() {}
	switch name {
	case feElicit:
		if host == nil {
			return nil, nil, fmt.Errorf("%w: --frontend elicit asks through the host's own form, and this host did not declare the elicitation capability; use --frontend survey or --answers FILE", ask.ErrNoAnswer)
		}
		return host, nothing, nil
	case feFile:
		if b.fileErr != nil {
			return nil, nil, fmt.Errorf("%w: the answers file %s cannot be used: %v", ask.ErrNoAnswer, b.spec.answers, b.fileErr)
		}
		return b.file, nothing, nil
	case feAuto:
		return frontend.Auto{}, nothing, nil
	case feWeb:
		return b.web, nothing, nil
	case feSurvey:
		return b.survey(ctx)
	}
	return b.relFE[name], nothing, nil
}

// lazySurvey opens the terminal when its set's turn comes, in a race.
type lazySurvey struct{ b *bridgeAsker }

func (l lazySurvey) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	fe, release, err := l.b.survey(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return fe.Ask(ctx, req)
}

// survey opens the terminal for one set, waiting for a set already on it.
func (b *bridgeAsker) survey(ctx context.Context) (ask.Frontend, func(), error) {
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
	sv.Plain = b.spec.plain || b.ios.IsDumb()
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
