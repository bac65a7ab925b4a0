package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/iostreams"
)

// Frontend names.
const (
	feSurvey = "survey"
	feStdio  = "stdio"
	feFile   = "file"
	feAuto   = "auto"
	feWeb    = "web"
)

// frontendSpec is the frontend the flags and environment ask for.
type frontendSpec struct {
	// name is the frontend, or a comma list of them (names).
	name, nameFrom       string
	names                []string
	listen               string
	answers, answersFrom string
	unanswered           ask.Policy // "" = the file's own setting
	unansweredFrom       string     // the flag or variable that set it
	verbose              bool
	plain                bool // --plain or ASKUSER_PLAIN
	// place is where the inbox and channel frontends keep their sets.
	place relayPlace

	// answersIn says the answers file is standard input itself
	// (--answers /dev/stdin): then nothing else may read standard input.
	answersIn bool
}

func readFrontendSpec(c *cli.Context, e *env) (frontendSpec, error) {
	s := frontendSpec{verbose: c.Bool("verbose")}
	s.name, s.nameFrom = flagOrEnv(c, e, "frontend", "ASKUSER_FRONTEND")
	var err error
	if s.names, err = parseFrontendList(s.nameFrom, s.name, choicesOf(c.Command.Flags, "frontend")); err != nil {
		return s, err
	}
	s.listen = c.String("listen")
	if s.listen != "" && !slices.Contains(s.names, feWeb) {
		return s, usageErrorf("--listen is for the web page; add --frontend web")
	}
	if err := s.readPlace(c, e); err != nil {
		return s, err
	}
	return s, s.readRest(c, e, slices.Contains(s.names, feFile))
}

// readPlace reads where the inbox and channel frontends keep their sets,
// and the channels' settings when a channel is named.
func (s *frontendSpec) readPlace(c *cli.Context, e *env) error {
	if !relayMembers(s.names) {
		return nil
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	s.place.store, s.place.errOut = store, e.ios.ErrOut
	if c.Bool(flagRelayDefer) {
		// askuser serve's background resume: serve sends the sets.
		s.place.deferAll = true
		return s.place.threadUnder(c.String(flagRelayThread))
	}
	if slices.ContainsFunc(s.names, func(n string) bool { return n != feInbox && isRelayName(n) }) {
		src, err := channelSources(c, e)
		if err != nil {
			return err
		}
		s.place.src = &src
	}
	return nil
}

// readRest reads what every choice of frontend shares after its name:
// --plain (or ASKUSER_PLAIN), --answers (or ASKUSER_ANSWERS), which the
// file frontend needs, and --on-unanswered (or ASKUSER_ON_UNANSWERED).
func (s *frontendSpec) readRest(c *cli.Context, e *env, fileChosen bool) error {
	s.plain = c.Bool("plain")
	if v := e.getenv("ASKUSER_PLAIN"); v != "" && v != "0" && !c.IsSet("plain") {
		s.plain = true
	}
	s.answers, s.answersFrom = flagOrEnv(c, e, "answers", "ASKUSER_ANSWERS")
	if fileChosen && s.answers == "" {
		return usageErrorf("%s file needs an answers file: give --answers FILE (or ASKUSER_ANSWERS)", s.nameFrom)
	}
	s.answersIn = e.ios.IsIn(s.answers)
	if s.answersIn && fileChosen && slices.Contains(s.names, feStdio) {
		return s.stdinTaken("the stdio frontend cannot read answers from standard input too",
			"drop stdio from "+s.nameFrom+", or give the answers file another way (a path, or <(…))")
	}
	if v, from := flagOrEnv(c, e, "on-unanswered", "ASKUSER_ON_UNANSWERED"); v != "" {
		p, err := ask.ParsePolicy(from, v)
		if err != nil {
			return withCode(ExitUsage, err)
		}
		s.unanswered, s.unansweredFrom = p, from
	}
	return nil
}

// stdinTaken is the usage error for something (what) that would read
// standard input when the answers file is standard input: it would find
// nothing, or take the file's bytes. fix says what to do instead.
func (s frontendSpec) stdinTaken(what, fix string) error {
	return usageErrorf("%s %s is standard input, so %s; %s", s.answersFrom, ask.Display(s.answers), what, fix)
}

// flagOrEnv returns the flag's value, else the environment variable's, and
// names where it came from.
func flagOrEnv(c *cli.Context, e *env, flag, envVar string) (value, from string) {
	if v := c.String(flag); v != "" {
		return v, "--" + flag
	}
	if v := e.getenv(envVar); v != "" {
		return v, envVar
	}
	return "", ""
}

// parseFrontendList reads --frontend: one name, or a comma list of
// different names that are offered together (a frontend.Race); accepted
// are the command's names for it.
func parseFrontendList(from, value string, accepted []string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	names := strings.Split(value, ",")
	for i, n := range names {
		n = strings.TrimSpace(n)
		names[i] = n
		switch {
		case isRelayName(n) && !slices.Contains(accepted, n) && slices.Contains(accepted, feInbox):
			spec, _ := channel.Lookup(n)
			return nil, withCode(ExitUsage, fmt.Errorf("%s: %w", from, spec.NotLinked()))
		case !slices.Contains(accepted, n):
			return nil, usageErrorf("%s: %s is not a frontend; use %s, or a comma list such as %s", from, ask.Excerpt(n), orList(accepted), listExample(accepted))
		case n == feAuto && len(names) > 1:
			return nil, usageErrorf("%s: auto answers at once, so in a list it would always win; use --ask-timeout with --on-timeout auto to fall back to it", from)
		case slices.Contains(names[:i], n):
			return nil, usageErrorf("%s: %s is listed twice", from, n)
		}
	}
	return names, nil
}

// chosen is a built frontend with the reason it was picked.
type chosen struct {
	name, why string
	fe        ask.Frontend
	stdio     *frontend.Stdio // set when stdio is (one of) the frontends
	tty       *os.File        // the terminal drawn on, when survey is
	// url is the web page's, token included, when web is one of them.
	url     string
	members []string
	close   func()
	// rules are the approval rules of the answers file, when one was read.
	rules *approval.Policy
	// rel is set when the inbox or a channel is one of the frontends.
	rel *relayed
}

// waitsForSomeone reports whether the frontend waits for a person or a
// program (terminal, JSON lines, web page), rather than answering at once.
func (c *chosen) waitsForSomeone() bool {
	return slices.ContainsFunc(c.members, func(n string) bool { return n == feSurvey || n == feStdio || n == feWeb || isRelayName(n) })
}

// chooseFrontend is the one place that decides how to ask: an explicit
// --frontend (or ASKUSER_FRONTEND) wins; else an answers file selects
// file; else a terminal on stdin selects survey; else a pipe or file on
// stdin selects stdio, configured as given (its In may be the rest of
// standard input after a question set read from it). Several frontends
// named together race: the first answer wins.
func chooseFrontend(ctx context.Context, s frontendSpec, ios *iostreams.IOStreams, stdio frontend.StdioConfig) (*chosen, error) {
	names, why := s.names, ""
	switch {
	case len(names) > 0:
		why = "chosen with " + s.nameFrom
	case s.answers != "":
		names, why = []string{feFile}, "an answers file was given with "+s.answersFrom
	case ios.CanPrompt():
		names, why = []string{feSurvey}, "standard input is a terminal"
	case ios.InKind() == iostreams.InPipe:
		names, why = []string{feStdio}, "standard input is a pipe or file, so answers are read from it as JSON lines"
	default:
		return nil, withCode(ExitNoAnswer, fmt.Errorf("no way to ask: standard input is %s and no answers file was given; "+
			"give --answers FILE (an answers file), --frontend auto (take the recommended options), "+
			"--frontend web (a page in a browser), or pipe JSON-lines answers on standard input", ios.InKind()))
	}
	c := &chosen{why: why, close: func() {}}
	var racers []frontend.Racer
	for _, name := range names {
		fe, err := c.build(ctx, name, s, ios, stdio)
		if err != nil && len(names) > 1 && exitCode(err) == ExitNoAnswer {
			// One of several cannot ask here (no terminal): the others can.
			c.why += "; " + name + " left out: " + err.Error()
			continue
		}
		if err != nil {
			c.close()
			return nil, err
		}
		racers = append(racers, frontend.Racer{Name: name, FE: fe})
		c.members = append(c.members, name)
	}
	if len(racers) == 0 {
		return nil, withCode(ExitNoAnswer, fmt.Errorf("none of the frontends can ask here: %s", strings.TrimPrefix(c.why, why+"; ")))
	}
	c.name = strings.Join(c.members, ",")
	c.fe = racers[0].FE
	if len(racers) > 1 {
		c.fe = frontend.NewRace(racers...)
	}
	if c.rel != nil {
		// Answers may come from elsewhere: each set is answered once.
		c.rel.start(ios.ErrOut)
		c.onClose(c.rel.stop)
		c.fe = mailboxed(c.fe, s.place.store, s.place.session, ios.ErrOut)
	}
	return c, nil
}

// build builds one frontend, keeping in c what the run needs of it and how
// to close it.
func (c *chosen) build(ctx context.Context, name string, s frontendSpec, ios *iostreams.IOStreams, stdio frontend.StdioConfig) (ask.Frontend, error) {
	switch name {
	case feSurvey:
		in, out, closeTTY, err := ios.Terminal()
		if err != nil {
			return nil, withCode(ExitNoAnswer, fmt.Errorf("%w; use --answers FILE, --frontend stdio, --frontend web or --frontend auto instead", err))
		}
		sv := frontend.NewSurvey(in, out)
		color := ios.ColorAllowed() // it draws on a terminal, whatever stderr is
		sv.Color = &color
		sv.Plain = s.plain || ios.IsDumb()
		c.tty = out
		c.onClose(closeTTY)
		return sv, nil
	case feStdio:
		// Suspend is "answer what you can, keep the rest": answer lines may
		// come before their set is asked again (askuser serve's resumes).
		stdio.SuspendAtEnd = s.unanswered == ask.PolicySuspend
		stdio.HoldForLaterSets = stdio.SuspendAtEnd
		c.stdio = frontend.NewStdio(stdio)
		return c.stdio, nil
	case feFile:
		if s.answers == "" {
			return nil, usageErrorf("the file frontend needs --answers FILE")
		}
		// A named pipe nobody writes to waits no longer than a signal.
		f, err := frontend.LoadFileContext(ctx, s.answers)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			if !errors.Is(err, frontend.ErrBadAnswers) {
				return nil, withCode(ExitUsage, fmt.Errorf("%s: %w", s.answersFrom, err))
			}
			return nil, err
		}
		if s.unanswered != "" {
			f.SetUnanswered(s.unanswered)
		}
		if c.rules, err = fileRules(f); err != nil {
			return nil, err
		}
		return f, nil
	case feWeb:
		return c.buildWeb(s, ios)
	case feAuto:
		return frontend.Auto{}, nil
	}
	if c.rel == nil {
		c.rel = &relayed{place: s.place}
	}
	return c.rel.frontend(name)
}

// buildWeb serves the question card and says where, on stderr.
func (c *chosen) buildWeb(s frontendSpec, ios *iostreams.IOStreams) (ask.Frontend, error) {
	b, srv, err := startCard(s.listen, ios.ErrOut)
	if err != nil {
		return nil, err
	}
	c.url = srv.URL()
	c.onClose(func() { closeCard(srv) })
	return b, nil
}

// onClose adds f to what close does, last added first closed.
func (c *chosen) onClose(f func()) {
	prev := c.close
	c.close = func() { f(); prev() }
}
