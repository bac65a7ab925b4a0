package cli

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/iostreams"
)

func resumeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "answer the questions a session stopped on, then let the agent continue",
		ArgsUsage: "[ID]",
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
it passes, askuser exits 7 and the session still waits.`,
		Flags: append(append(withoutFlags(runFlags(), "input-format"), relayResumeFlags()...), // resume answers the pending questions only
			&cli.BoolFlag{Name: "wait", Category: catAsking, Usage: "block until the pending questions are answered elsewhere (the inbox, a chat channel, another machine), then continue"},
			&cli.DurationFlag{Name: "timeout", Category: catTimeouts, Usage: "with --wait: stop waiting after `DURATION` (exit 7); the session still waits"}),
		Action: func(c *cli.Context) error { return runResume(c, e) },
	}
}

func runResume(c *cli.Context, e *env) error {
	if c.NArg() > 1 {
		return usageErrorf("resume takes one session id, got %d arguments", c.NArg())
	}
	if c.NArg() == 1 && c.Args().First() == "" {
		// Most likely "$ID" with ID unset: resuming another session
		// instead could answer someone else's question.
		return usageErrorf("resume: the session id is empty; give one (askuser sessions lists them), or no argument for the most recent session waiting here")
	}
	if err := waitOptions(c); err != nil {
		return err
	}
	o, err := readRunOptions(c, e)
	if err != nil {
		return err
	}
	if o.streamInput {
		return usageErrorf("--input-format stream-json is for askuser run; resume answers the pending questions only")
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	id := c.Args().First()
	if id == "" {
		var said string
		if id, said, err = pickWaiting(store, machineName(e)); err != nil {
			return err
		}
		fmt.Fprintln(e.ios.ErrOut, said)
	}
	sess, err := openSession(store, id)
	if err != nil {
		return err
	}
	defer sess.Close()
	if sess.Recovered != "" {
		fmt.Fprintf(e.ios.ErrOut, "askuser: session %s: %s\n", sess.Meta.ID, sess.Recovered)
	}
	if !sess.State.Unfinished() {
		return usageErrorf("session %s is not waiting on a question (%s); to add a prompt use askuser run --resume %s \"...\"",
			sess.Meta.ID, sess.Summary().Status, sess.Meta.ID)
	}
	switch {
	case sess.Cancelled != nil:
		fmt.Fprintf(e.ios.ErrOut, "askuser: session %s was cancelled; the model is told you declined to answer, and goes on\n", sess.Meta.ID)
	case len(sess.State.Pending()) == 0:
		fmt.Fprintf(e.ios.ErrOut, "askuser: session %s has no question pending, but its last run stopped before the model answered; continuing from there\n", sess.Meta.ID)
	}
	if !c.IsSet("system-prompt") && !c.IsSet("append-system-prompt") && sess.Meta.System != "" {
		o.system = sess.Meta.System
	}
	spec := readProviderSpec(c, e, &sess.Meta)
	prov, err := newProvider(c.Context, spec, e)
	if err != nil {
		return err
	}
	sub, _, err := subProvider(c, e, spec, &sess.Meta)
	if err != nil {
		return err
	}
	r := &runner{e: e, o: o, sess: sess, prov: prov, sub: sub, tools: readToolSpec(c, &sess.Meta), store: store, late: true}
	r.intro = func(ch *chosen) {
		if ch.name == feSurvey && ch.tty != nil {
			// The person is at the terminal the prompt draws on: first
			// what they are answering, then the question.
			showContext(iostreams.WordWrap(ch.tty), sess, time.Now())
		}
	}
	return r.once(c.Context, nil, false)
}

// waitOptions turns --wait and --timeout into what they mean: ask
// through the inbox (unless --frontend is given), and bound each wait as
// --ask-timeout with --on-timeout error does (exit 7, still pending).
func waitOptions(c *cli.Context) error {
	if !c.Bool("wait") {
		if c.IsSet("timeout") {
			return usageErrorf("--timeout is for --wait; to bound each question otherwise, use --ask-timeout")
		}
		return nil
	}
	if !c.IsSet("frontend") {
		if err := c.Set("frontend", feInbox); err != nil {
			return err
		}
	}
	if !c.IsSet("timeout") {
		return nil
	}
	if c.IsSet("ask-timeout") || c.IsSet("on-timeout") {
		return usageErrorf("give --timeout or --ask-timeout/--on-timeout with --wait, not both")
	}
	if c.Duration("timeout") <= 0 {
		return usageErrorf("--timeout must be more than 0, got %s", c.Duration("timeout"))
	}
	if err := c.Set("ask-timeout", c.Duration("timeout").String()); err != nil {
		return err
	}
	return c.Set("on-timeout", string(ask.PolicyError))
}
