// Package cancel is askuser cancel: it ends a waiting session for good,
// recording for every set it waits on that the person declined to answer
// (with a reason, if given), and tells each set's mailbox, so a chat
// channel that shows the set says it was cancelled and takes no tap.
package cancel

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// Options are askuser cancel's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Store   cmdutil.StoreFlags
	Reason  string
	// Args are the arguments: the session's id.
	Args []string
}

// NewCmdCancel is askuser cancel. runF, when not nil, is called with the
// options instead of cancelling (a test's).
func NewCmdCancel(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "cancel",
		Usage:     "end a waiting session for good: record that you decline to answer its questions",
		ArgsUsage: "ID",
		Description: `Records, for every question set session ID waits on (its sub-agents' included), that
you declined to answer, with --reason if given, and lists the session as cancelled.
Nothing runs now. If the session is resumed later (askuser resume ID), the model is
told you declined to answer, with your reason, and carries on without the answers.
ID may be a prefix only it has.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Usage: "why you decline, in a sentence; the model reads it (cleaned, at most 500 characters)"},
			cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		},
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Store: cmdutil.ReadStoreFlags(c), Reason: c.String("reason"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return cancelRun(opts)
		},
	}
}

func cancelRun(opts *Options) error {
	if len(opts.Args) != 1 || opts.Args[0] == "" {
		return cmdutil.UsageErrorf("cancel takes one session id, got %d arguments (askuser sessions --waiting lists the waiting ones)", len(opts.Args))
	}
	store, err := opts.Factory.Store(opts.Store)
	if err != nil {
		return err
	}
	sess, err := cmdutil.OpenSession(store, opts.Args[0])
	if err != nil {
		return err
	}
	defer sess.Close()
	sum := sess.Summary()
	switch {
	case sum.Status == session.StatusCancelled:
		return cmdutil.UsageErrorf("session %s is already cancelled; askuser resume %s lets the model go on without the answers", sess.Meta.ID, sess.Meta.ID)
	case len(sum.Questions) == 0 && sum.Status == session.StatusWaiting:
		return cmdutil.UsageErrorf("session %s stopped before it asked anything; nothing to decline (askuser resume %s continues it, askuser sessions rm %s deletes it)",
			sess.Meta.ID, sess.Meta.ID, sess.Meta.ID)
	case len(sum.Questions) == 0:
		return cmdutil.UsageErrorf("session %s is not waiting on a question (%s); nothing to cancel", sess.Meta.ID, sum.Status)
	}
	declined, err := sess.Cancel(opts.Reason)
	if err != nil {
		return err
	}
	postDeclines(store, string(sess.Meta.ID), sum.Questions, opts.Reason)
	fmt.Fprintf(opts.Factory.IOStreams.ErrOut, "askuser: cancelled session %s: declined %s; if it is resumed (askuser resume %s), the model is told you declined to answer\n",
		sess.Meta.ID, declinedWhat(declined, sum.Questions), sess.Meta.ID)
	return nil
}

// declinedWhat says what was declined: the questions by their headers,
// approvals and forms by their tool ("2 questions (Auth Method,
// Providers) and an approval of mcp__fs__write_file"). waiting names the
// tools of sets recorded before sets named their own.
func declinedWhat(declined []ask.Request, waiting []session.Waiting) string {
	tools := map[string]string{}
	for _, w := range waiting {
		tools[w.ID] = w.Tool
	}
	var sets []session.Waiting
	var headers []string
	for _, req := range declined {
		tool := req.Tool
		if tool == "" {
			tool = tools[req.ID]
		}
		sets = append(sets, session.Waiting{Kind: req.Kind, Tool: tool})
		if req.Kind == "" {
			for _, q := range req.Questions {
				headers = append(headers, ask.Display(q.Header))
			}
		}
	}
	return session.WaitingWhat(sets, func(int) string {
		return fmt.Sprintf("%d question%s (%s)", len(headers), cmdutil.Plural(len(headers)), cmdutil.Clip(strings.Join(headers, ", "), 80))
	})
}

// postDeclines gives each declined set's mailbox the declination, so a set
// sent to a chat channel says it was cancelled there, takes no tap, and is
// not resumed for. A set answered there first keeps that answer in its
// mailbox; the journal, which the model reads, says declined.
func postDeclines(st *session.Store, id string, sets []session.Waiting, reason string) {
	now := time.Now()
	for _, w := range sets {
		declines := make([]ask.Answer, len(w.Request.Questions))
		for i, q := range w.Request.Questions {
			declines[i] = ask.Decline(q, reason, now)
		}
		box := session.Box{Session: id, Key: relay.Key(id, w.ID, w.AskedAt)}
		_ = st.Mailbox().Post(context.Background(), box, session.Delivery{Answers: declines, By: "askuser cancel", At: now})
	}
}
