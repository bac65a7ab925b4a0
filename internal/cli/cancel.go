package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

func cancelCommand(e *env) *cli.Command {
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
			stateDirFlag(), storeFlag(),
		},
		Action: func(c *cli.Context) error { return runCancel(c, e) },
	}
}

func runCancel(c *cli.Context, e *env) error {
	if c.NArg() != 1 || c.Args().First() == "" {
		return usageErrorf("cancel takes one session id, got %d arguments (askuser sessions --waiting lists the waiting ones)", c.NArg())
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	sess, err := openSession(store, c.Args().First())
	if err != nil {
		return err
	}
	defer sess.Close()
	sum := sess.Summary()
	switch {
	case sum.Status == session.StatusCancelled:
		return usageErrorf("session %s is already cancelled; askuser resume %s lets the model go on without the answers", sess.Meta.ID, sess.Meta.ID)
	case len(sum.Questions) == 0 && sum.Status == session.StatusWaiting:
		return usageErrorf("session %s stopped before it asked anything; nothing to decline (askuser resume %s continues it, askuser sessions rm %s deletes it)",
			sess.Meta.ID, sess.Meta.ID, sess.Meta.ID)
	case len(sum.Questions) == 0:
		return usageErrorf("session %s is not waiting on a question (%s); nothing to cancel", sess.Meta.ID, sum.Status)
	}
	declined, err := sess.Cancel(c.String("reason"))
	if err != nil {
		return err
	}
	postDeclines(store, string(sess.Meta.ID), sum.Questions, c.String("reason"))
	fmt.Fprintf(e.ios.ErrOut, "askuser: cancelled session %s: declined %s; if it is resumed (askuser resume %s), the model is told you declined to answer\n",
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
		return fmt.Sprintf("%d question%s (%s)", len(headers), plural(len(headers)), clip(strings.Join(headers, ", "), 80))
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
