// Package resume is askuser resume: it answers the questions a session
// stopped on and lets its agent continue from exactly where it stopped
// (internal/runflow's Resume). Without an id it takes the most recent
// session waiting here (pick.go); at a terminal it first shows what the
// person is answering (context.go); with --wait it blocks until the
// answers come from elsewhere.
//
// A session is resumed by its kind: askuser's own agent loop (resumeLoop),
// or another program's agent (askuser run --agent, or askuser hook and mcp
// with --on-timeout suspend), which runflow.ResumeHost continues through
// its host room: Claude Code's very call, the others with a prompt giving
// the question and the answer. Flags after -- are that agent's own, for
// this continue.
package resume

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/runflow"
	"github.com/askuser/askuser/internal/session"
)

// Options are askuser resume's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context

	// Flags are a run's (without --input-format), and serve's hidden
	// resume flags.
	Flags runflow.Flags
	// Wait is --wait; Timeout, when TimeoutSet, bounds each wait.
	Wait       bool
	Timeout    time.Duration
	TimeoutSet bool
	// AskTimeoutSet and OnTimeoutSet say --ask-timeout and --on-timeout
	// were given, which --timeout replaces.
	AskTimeoutSet, OnTimeoutSet bool
	// Args are the arguments: the session's id, or none.
	Args []string
}

// NewCmdResume is askuser resume. runF, when not nil, is called with the
// options instead of resuming (a test's).
func NewCmdResume(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "answer the questions a session stopped on, then let the agent continue",
		ArgsUsage: "[ID] [-- AGENT FLAGS]",
		Description: `Answers the pending questions of session ID through any frontend — at a terminal,
--answers FILE, JSON lines on standard input, --frontend auto — and continues the run
from exactly where it stopped. The tool result tells the model the answer came later,
and from whom. ID may be a prefix only it has. Without ID: the most recent session
waiting on a question or an approval in this directory (it says which on stderr). At a terminal the
original request, when each question was asked and by which agent, and what the agent
last said are shown before the question.

With --wait it blocks until the pending questions are answered elsewhere — on the page
of askuser serve, in a chat channel it holds, by another askuser — and then continues:
it asks through the inbox (unless --frontend says otherwise), holding the session so that
no askuser serve resumes it meanwhile. An answer already given is taken at once. A CI job
can park on it, or a later job pick up a session an earlier one suspended. With a team
store (--store) the answer may come from any machine, and wakes it at once; in the state
directory's files it is looked for ten times a second. --timeout bounds each wait: when
it passes, askuser exits 7 and the session still waits.

A session of another program's agent (askuser run --agent, or askuser hook / mcp with
--on-timeout suspend) is continued by that program in its folder: claude -p --resume, whose
hook answers the very call that waited; codex exec resume, gemini -r, opencode run -s with a
prompt that gives the question and the answer, and who answered. Flags after -- go to it.`,
		Flags: append(append(cmdutil.WithoutFlags(runflow.RunFlags(), "input-format"), channelwire.ResumeFlags()...), // resume answers the pending questions only
			&cli.BoolFlag{Name: "wait", Category: cmdutil.CatAsking, Usage: "block until the pending questions are answered elsewhere (the inbox, a chat channel, another machine), then continue"},
			&cli.DurationFlag{Name: "timeout", Category: cmdutil.CatTimeouts, Usage: "with --wait: stop waiting after `DURATION` (exit 7); the session still waits"}),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Flags: runflow.ReadFlags(c),
				Wait: c.Bool("wait"), Timeout: c.Duration("timeout"), TimeoutSet: c.IsSet("timeout"),
				AskTimeoutSet: c.IsSet("ask-timeout"), OnTimeoutSet: c.IsSet("on-timeout"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return resumeRun(opts)
		},
	}
}

func resumeRun(opts *Options) error {
	f, ios := opts.Factory, opts.Factory.IOStreams
	args, extra := agentFlags(opts.Args)
	if len(args) > 1 {
		return cmdutil.UsageErrorf("resume takes one session id, got %d arguments (flags after -- are for a session of another program's agent, run with askuser run --agent)", len(args))
	}
	if len(args) == 1 && args[0] == "" {
		// Most likely "$ID" with ID unset: resuming another session
		// instead could answer someone else's question.
		return cmdutil.UsageErrorf("resume: the session id is empty; give one (askuser sessions lists them), or no argument for the most recent session waiting here")
	}
	if err := waitOptions(opts); err != nil {
		return err
	}
	o, err := runflow.Check(f, opts.Flags)
	if err != nil {
		return err
	}
	if o.StreamInput() {
		return cmdutil.UsageErrorf("--input-format stream-json is for askuser run; resume answers the pending questions only")
	}
	store, err := f.Store(opts.Flags.Store)
	if err != nil {
		return err
	}
	id := ""
	if len(args) == 1 {
		id = args[0]
	}
	if id == "" {
		var said string
		if id, said, err = pickWaiting(store, f.Machine()); err != nil {
			return err
		}
		fmt.Fprintln(ios.ErrOut, said)
	}
	sess, err := cmdutil.OpenSession(store, id)
	if err != nil {
		return err
	}
	defer sess.Close()
	if sess.Recovered != "" {
		fmt.Fprintf(ios.ErrOut, "askuser: session %s: %s\n", sess.Meta.ID, sess.Recovered)
	}
	if sess.Meta.Host != "" {
		// Another program's agent: its host room continues it.
		return runflow.ResumeHost(opts.Context, f, o, store, sess, extra)
	}
	if len(extra) > 0 {
		return cmdutil.UsageErrorf("flags after -- (%s) are for a session of another program's agent, run with askuser run --agent; session %s is askuser's own", ask.Excerpt(strings.Join(extra, " ")), sess.Meta.ID)
	}
	if !sess.State.Unfinished() {
		return cmdutil.UsageErrorf("session %s is not waiting on a question (%s); to add a prompt use askuser run --resume %s \"...\"",
			sess.Meta.ID, sess.Summary().Status, sess.Meta.ID)
	}
	switch {
	case sess.Cancelled != nil:
		fmt.Fprintf(ios.ErrOut, "askuser: session %s was cancelled; the model is told you declined to answer, and goes on\n", sess.Meta.ID)
	case len(sess.State.Pending()) == 0:
		fmt.Fprintf(ios.ErrOut, "askuser: session %s has no question pending, but its last run stopped before the model answered; continuing from there\n", sess.Meta.ID)
	}
	return resumeLoop(opts, o, store, sess)
}

// agentFlags splits resume's arguments into the session id and the
// agent's own flags, which follow a -- after it (askuser resume ID --
// FLAGS: the command line drops the first --, the one before ID if any, and
// keeps this one). An id after a first -- stays an id, whatever it looks
// like: serve resumes with "-- ID" so that nothing in an id is a flag.
func agentFlags(all []string) (args, extra []string) {
	if i := slices.Index(all, "--"); i >= 0 {
		return all[:i], all[i+1:]
	}
	return all, nil
}

// resumeLoop continues a session of askuser's own agent loop.
func resumeLoop(opts *Options, o runflow.Options, store *session.Store, sess *session.Session) error {
	return runflow.Resume(opts.Context, opts.Factory, o, opts.Flags, store, sess, func(ch *chooser.Chosen) {
		if ch.Name == chooser.Survey && ch.TTY != nil {
			// The person is at the terminal the prompt draws on: first
			// what they are answering, then the question.
			showContext(iostreams.WordWrap(ch.TTY), sess, time.Now())
		}
	})
}

// waitOptions turns --wait and --timeout into what they mean: ask
// through the inbox (unless --frontend is given), and bound each wait as
// --ask-timeout with --on-timeout error does (exit 7, still pending).
func waitOptions(opts *Options) error {
	if !opts.Wait {
		if opts.TimeoutSet {
			return cmdutil.UsageErrorf("--timeout is for --wait; to bound each question otherwise, use --ask-timeout")
		}
		return nil
	}
	if !opts.Flags.Asking.FrontendSet {
		opts.Flags.Asking.Frontend, opts.Flags.Asking.FrontendSet = channelwire.Inbox, true
	}
	if !opts.TimeoutSet {
		return nil
	}
	if opts.AskTimeoutSet || opts.OnTimeoutSet {
		return cmdutil.UsageErrorf("give --timeout or --ask-timeout/--on-timeout with --wait, not both")
	}
	if opts.Timeout <= 0 {
		return cmdutil.UsageErrorf("--timeout must be more than 0, got %s", opts.Timeout)
	}
	opts.Flags.AskTimeout, opts.AskTimeoutSet = opts.Timeout, true
	opts.Flags.OnTimeout, opts.OnTimeoutSet = string(ask.PolicyError), true
	return nil
}
