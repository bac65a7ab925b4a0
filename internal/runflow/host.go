package runflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/hostflow"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/session"
)

// Another program's agent (askuser run --agent, and askuser resume of its
// session): askuser asks for it through the frontends a run's flags
// choose, holds its session, and lets internal/hostrun run the program.

// hostMargin is how much longer than --ask-timeout the host waits for one
// askuser call, so askuser answers first.
const hostMargin = 2 * time.Minute

// Agent is askuser run --agent KIND: Args are the agent's own arguments
// (what follows --).
type Agent struct {
	Flags Flags
	Kind  string
	Args  []string
}

// RunAgent runs the agent program a names as a session of askuser's: its
// questions are asked as a run's are, and when nobody answers in time it
// stops the way its contract allows and waits for askuser resume (exit 6).
func RunAgent(ctx context.Context, f *cmdutil.Factory, a Agent) error {
	kind, err := agenthost.ParseKind(a.Kind)
	if err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("--agent: %w", err))
	}
	if err := hostrun.Check(kind, a.Args, "askuser run --agent "+string(kind)); err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	o, err := Check(f, a.Flags)
	if err != nil {
		return err
	}
	store, err := f.Store(a.Flags.Store)
	if err != nil {
		return err
	}
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	first := string(kind) + " " + strings.Join(a.Args, " ")
	sess, err := store.Create(session.Meta{Host: string(kind), Cwd: dir, Machine: f.Machine(), FirstPrompt: first})
	if err != nil {
		return err
	}
	defer sess.Close()
	h, err := newHostAsking(ctx, f, o, store, sess)
	if err != nil {
		return err
	}
	defer h.close()
	serve, err := h.serve(kind, a.Args)
	if err != nil {
		return err
	}
	out := hostrun.Start(ctx, store, sess, h.agent(f, kind, dir), a.Args, h.ask, serve)
	return h.report(f, kind, out)
}

// ResumeHost continues a host session whose call waits, with the answers
// given elsewhere (the mailbox), recorded already, or asked now through
// the frontends the flags choose; extra are the agent's own flags for
// this continue (what follows --).
func ResumeHost(ctx context.Context, f *cmdutil.Factory, o Options, store *session.Store, sess *session.Session, extra []string) error {
	kind := agenthost.Kind(sess.Meta.Host)
	if err := agenthost.CheckExtra(kind, extra); err != nil {
		// Refused before anything is asked or recorded.
		return cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	h, err := newHostAsking(ctx, f, o, store, sess)
	if err != nil {
		return err
	}
	defer h.close()
	serve, err := h.serve(kind, nil)
	if err != nil {
		return err
	}
	dir := sess.Meta.Cwd
	out := hostrun.Continue(ctx, store, sess, h.agent(f, kind, dir), extra, h.ask, serve)
	return h.report(f, kind, out)
}

// hostAsking is how a host run asks: the chosen frontend, bounded by
// --ask-timeout and its policy, in the session's mailbox.
type hostAsking struct {
	o      Options
	sess   *session.Session
	store  *session.Store
	ch     *chooser.Chosen
	notify *notifier
	ask    hostrun.Asker
}

func newHostAsking(ctx context.Context, f *cmdutil.Factory, o Options, store *session.Store, sess *session.Session) (*hostAsking, error) {
	spec := o.frontendSpec
	if spec.Name == chooser.Stdio || spec.AnswersIn {
		return nil, cmdutil.UsageErrorf("with --agent, standard input is the agent's: answer at the terminal, with --answers FILE (a path), --frontend inbox, web or a chat channel")
	}
	spec.Place.Session, spec.Place.Title = string(sess.Meta.ID), sess.Summary().Title
	var ch *chooser.Chosen
	var err error
	if spec.Name == "" && spec.Answers == "" {
		ch, err = promptOnTTY(ctx, f, frontend.StdioConfig{})
		if err == nil && ch.Name == "none" {
			// Nobody can answer here now: each question waits.
			why := "standard input is the agent's, and no terminal is there to ask at"
			ch.Why, ch.FE = why, frontend.Deferred{Reason: why + "; next time give --answers FILE, --frontend inbox (askuser serve's page) " +
				"or a chat channel, or run it at a terminal (askuser asks there, on /dev/tty)"}
		}
	} else {
		ch, err = chooser.Choose(ctx, spec, f.IOStreams, frontend.StdioConfig{})
	}
	if err != nil {
		return nil, err
	}
	id := string(sess.Meta.ID)
	fe, fallback := ch.FE, ask.Frontend(frontend.Auto{Reason: ask.TimeoutReason(o.askTimeout)})
	if ch.Rel == nil {
		// A late answer waits in the mailbox; a set is answered once.
		fe = channelwire.Mailboxed(fe, store, id, f.IOStreams.ErrOut)
	}
	fallback = channelwire.Mailboxed(fallback, store, id, f.IOStreams.ErrOut)
	h := &hostAsking{o: o, sess: sess, store: store, ch: ch}
	h.notify = &notifier{cmd: o.notifyCmd, sessionID: id, errOut: f.IOStreams.ErrOut, url: ch.URL, stateDir: store.Dir}
	w := &watched{inner: fe, waitsForSomeone: ch.WaitsForSomeone(), notify: h.notify, lastInput: time.Now()}
	if ch.Name == chooser.Survey && o.bell != "never" && ch.TTY != nil {
		w.bell = ch.TTY
	}
	if o.frontendSpec.Verbose {
		fmt.Fprintf(f.IOStreams.ErrOut, "askuser: session %s, asking through %s: %s\n", id, ch.Name, ch.Why)
	}
	h.ask = hostflow.Asker(w, fallback, o.askTimeout, o.onTimeout)
	return h, nil
}

func (h *hostAsking) close() {
	h.notify.wait(notifyGrace)
	h.ch.Close()
}

// serve is the holder's wiring: the answers file's rules, with a Claude
// Code run's own permission flags.
func (h *hostAsking) serve(kind agenthost.Kind, args []string) (hostrun.Serve, error) {
	rules, err := hostflow.Rules(h.ch.Rules, kind, args)
	if err != nil {
		return nil, cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	return hostflow.Serve(hostflow.Config{Store: h.store, Rules: rules, Version: build.Current(), Timeout: h.o.askTimeout, Log: nil}), nil
}

// agent is the program to run, in dir, with askuser wired in.
func (h *hostAsking) agent(f *cmdutil.Factory, kind agenthost.Kind, dir string) hostrun.Agent {
	exe, err := os.Executable()
	if err != nil {
		exe = "askuser"
	}
	timeout := time.Duration(0)
	if h.o.askTimeout > 0 {
		timeout = h.o.askTimeout + hostMargin
	}
	return hostrun.Agent{Kind: kind, Dir: dir, Askuser: exe, Matcher: agenthost.ClaudeMatcher, Timeout: timeout,
		Stdin: f.IOStreams.In, Stdout: f.IOStreams.Out, Stderr: f.IOStreams.ErrOut}
}

// report says how a host run or continue ended and returns its exit.
func (h *hostAsking) report(f *cmdutil.Factory, kind agenthost.Kind, out hostrun.Outcome) error {
	id := out.Session
	switch {
	case out.Waiting:
		what := "its question"
		if len(out.Headers) > 0 {
			what = fmt.Sprintf("%q", ask.Display(strings.Join(out.Headers, ", ")))
		}
		fmt.Fprintf(f.IOStreams.ErrOut, "askuser: %s stopped to wait: nobody answered %s in time. Session %s keeps it; "+
			"answer it with askuser resume %s (or on askuser serve's page, or in the chat it was sent to)\n", kind, what, id, id)
		if out.Err != nil && !errors.Is(out.Err, ask.ErrDeferred) {
			fmt.Fprintf(f.IOStreams.ErrOut, "askuser: %v\n", out.Err)
		}
		return cmdutil.WithCode(cmdutil.ExitWaiting, cmdutil.Quiet{Err: fmt.Errorf("session %s waits", id)})
	case out.Err != nil && out.ExitCode != 0:
		return cmdutil.WithCode(cmdutil.ExitAgent, fmt.Errorf("%s exited %d (session %s): %w", kind, out.ExitCode, id, out.Err))
	case out.Err != nil:
		return hostErr(kind, id, out.Err)
	case out.Signaled:
		return cmdutil.WithCode(cmdutil.ExitCancelled, fmt.Errorf("%s was stopped by a signal; session %s records what it did", kind, id))
	case out.ExitCode != 0:
		return cmdutil.WithCode(cmdutil.ExitAgent, fmt.Errorf("%s exited %d (session %s)", kind, out.ExitCode, id))
	}
	return nil
}

// hostErr maps what stopped a host run or continue to the exit table:
// askuser's own reasons (nobody to ask, a timeout, nothing waiting, the
// agent still running) keep theirs; the agent's failure is ExitAgent.
func hostErr(kind agenthost.Kind, id session.ID, err error) error {
	switch {
	case errors.Is(err, hostrun.ErrNothingWaits):
		return cmdutil.WithCode(cmdutil.ExitUsage, err)
	case errors.Is(err, hostrun.ErrAgentRuns):
		return cmdutil.WithCode(cmdutil.ExitError, err)
	case errors.Is(err, ask.ErrTimeout), errors.Is(err, ask.ErrNoAnswer), errors.Is(err, ask.ErrCancelled),
		errors.Is(err, frontend.ErrBadAnswers):
		return fmt.Errorf("session %s still waits: %w", id, err)
	}
	return cmdutil.WithCode(cmdutil.ExitAgent, fmt.Errorf("%s: %w", kind, err))
}
