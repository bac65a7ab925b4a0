package chooser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// Chosen is a built frontend with the reason it was picked.
type Chosen struct {
	Name, Why string
	FE        ask.Frontend
	Stdio     *frontend.Stdio // set when stdio is (one of) the frontends
	TTY       *os.File        // the terminal drawn on, when survey is
	// URL is the web page's, token included, when web is one of them.
	URL     string
	Members []string
	// Close closes what the frontends opened, last opened first.
	Close func()
	// Rules are the approval rules of the answers file, when one was read.
	Rules *approval.Policy
	// Rel is set when the inbox or a channel is one of the frontends.
	Rel *channelwire.Relayed
}

// WaitsForSomeone reports whether the frontend waits for a person or a
// program (terminal, JSON lines, web page), rather than answering at once.
func (c *Chosen) WaitsForSomeone() bool {
	return slices.ContainsFunc(c.Members, func(n string) bool { return n == Survey || n == Stdio || n == Web || channelwire.IsRelayName(n) })
}

// Choose is the one place that decides how to ask: an explicit --frontend
// (or ASKUSER_FRONTEND) wins; else an answers file selects file; else a
// terminal on stdin selects survey; else a pipe or file on stdin selects
// stdio, configured as given (its In may be the rest of standard input
// after a question set read from it). Several frontends named together
// race: the first answer wins.
func Choose(ctx context.Context, s Spec, ios *iostreams.IOStreams, stdio frontend.StdioConfig) (*Chosen, error) {
	names, why := s.Names, ""
	switch {
	case len(names) > 0:
		why = "chosen with " + s.NameFrom
	case s.Answers != "":
		names, why = []string{File}, "an answers file was given with "+s.AnswersFrom
	case ios.CanPrompt():
		names, why = []string{Survey}, "standard input is a terminal"
	case ios.InKind() == iostreams.InPipe:
		names, why = []string{Stdio}, "standard input is a pipe or file, so answers are read from it as JSON lines"
	default:
		return nil, cmdutil.WithCode(cmdutil.ExitNoAnswer, fmt.Errorf("no way to ask: standard input is %s and no answers file was given; "+
			"give --answers FILE (an answers file), --frontend auto (take the recommended options), "+
			"--frontend web (a page in a browser), or pipe JSON-lines answers on standard input", ios.InKind()))
	}
	c := &Chosen{Why: why, Close: func() {}}
	var racers []frontend.Racer
	for _, name := range names {
		fe, err := c.build(ctx, name, s, ios, stdio)
		if err != nil && len(names) > 1 && cmdutil.ExitCode(err) == cmdutil.ExitNoAnswer {
			// One of several cannot ask here (no terminal): the others can.
			c.Why += "; " + name + " left out: " + err.Error()
			continue
		}
		if err != nil {
			c.Close()
			return nil, err
		}
		racers = append(racers, frontend.Racer{Name: name, FE: fe})
		c.Members = append(c.Members, name)
	}
	if len(racers) == 0 {
		return nil, cmdutil.WithCode(cmdutil.ExitNoAnswer, fmt.Errorf("none of the frontends can ask here: %s", strings.TrimPrefix(c.Why, why+"; ")))
	}
	c.Name = strings.Join(c.Members, ",")
	c.FE = racers[0].FE
	if len(racers) > 1 {
		c.FE = frontend.NewRace(racers...)
	}
	if c.Rel != nil {
		// Answers may come from elsewhere: each set is answered once.
		c.Rel.Start(ios.ErrOut)
		c.OnClose(c.Rel.Stop)
		c.FE = channelwire.Mailboxed(c.FE, s.Place.Store, s.Place.Session, ios.ErrOut)
	}
	return c, nil
}

// build builds one frontend, keeping in c what the run needs of it and how
// to close it.
func (c *Chosen) build(ctx context.Context, name string, s Spec, ios *iostreams.IOStreams, stdio frontend.StdioConfig) (ask.Frontend, error) {
	switch name {
	case Survey:
		in, out, closeTTY, err := ios.Terminal()
		if err != nil {
			return nil, cmdutil.WithCode(cmdutil.ExitNoAnswer, fmt.Errorf("%w; use --answers FILE, --frontend stdio, --frontend web or --frontend auto instead", err))
		}
		sv := frontend.NewSurvey(in, out)
		color := ios.ColorAllowed() // it draws on a terminal, whatever stderr is
		sv.Color = &color
		sv.Plain = s.Plain || ios.IsDumb()
		c.TTY = out
		c.OnClose(closeTTY)
		return sv, nil
	case Stdio:
		// Suspend is "answer what you can, keep the rest": answer lines may
		// come before their set is asked again (askuser serve's resumes).
		stdio.SuspendAtEnd = s.Unanswered == ask.PolicySuspend
		stdio.HoldForLaterSets = stdio.SuspendAtEnd
		c.Stdio = frontend.NewStdio(stdio)
		return c.Stdio, nil
	case File:
		if s.Answers == "" {
			return nil, cmdutil.UsageErrorf("the file frontend needs --answers FILE")
		}
		// A named pipe nobody writes to waits no longer than a signal.
		f, err := frontend.LoadFileContext(ctx, s.Answers)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			if !errors.Is(err, frontend.ErrBadAnswers) {
				return nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("%s: %w", s.AnswersFrom, err))
			}
			return nil, err
		}
		if s.Unanswered != "" {
			f.SetUnanswered(s.Unanswered)
		}
		if c.Rules, err = FileRules(f); err != nil {
			return nil, err
		}
		return f, nil
	case Web:
		return c.buildWeb(s, ios)
	case Auto:
		return frontend.Auto{}, nil
	}
	if c.Rel == nil {
		c.Rel = channelwire.NewRelayed(s.Place)
	}
	return c.Rel.Frontend(name)
}

// buildWeb serves the question card and says where, on stderr.
func (c *Chosen) buildWeb(s Spec, ios *iostreams.IOStreams) (ask.Frontend, error) {
	b, srv, err := StartCard(s.Listen, ios.ErrOut)
	if err != nil {
		return nil, err
	}
	c.URL = srv.URL()
	c.OnClose(func() { CloseCard(srv) })
	return b, nil
}

// OnClose adds f to what Close does, last added first closed.
func (c *Chosen) OnClose(f func()) {
	prev := c.Close
	c.Close = func() { f(); prev() }
}
