package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

func resumeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "resume",
		Usage:     "answer the questions a session stopped on, then let the agent continue",
		ArgsUsage: "[ID]",
		Description: `Answers the pending questions of session ID (default: the most recent session) through
any frontend — at a terminal, --answers FILE, JSON lines on standard input, --frontend auto —
and continues the run from exactly where it stopped. The tool result tells the model the
answer came later, and from whom. ID may be a unique prefix.`,
		Flags:  runFlags(),
		Action: func(c *cli.Context) error { return runResume(c, e) },
	}
}

func runResume(c *cli.Context, e *env) error {
	if c.NArg() > 1 {
		return usageErrorf("resume takes one session id, got %d arguments", c.NArg())
	}
	if c.NArg() == 1 && c.Args().First() == "" {
		// Most likely "$ID" with ID unset: resuming the latest session
		// instead could answer someone else's question.
		return usageErrorf("resume: the session id is empty; give one (askuser sessions lists them), or no argument for the most recent session")
	}
	o, err := readRunOptions(c, e)
	if err != nil {
		return err
	}
	if o.streamInput {
		return usageErrorf("--input-format stream-json is for askuser run; resume answers the pending questions only")
	}
	sess, err := openSession(sessionStore(c, e), c.Args().First())
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
	if len(sess.State.Pending()) == 0 {
		fmt.Fprintf(e.ios.ErrOut, "askuser: session %s has no question pending, but its last run stopped before the model answered; continuing from there\n", sess.Meta.ID)
	}
	if !c.IsSet("system-prompt") && !c.IsSet("append-system-prompt") && sess.Meta.System != "" {
		o.system = sess.Meta.System
	}
	spec := readProviderSpec(c, e, &sess.Meta)
	prov, err := newProvider(spec, e)
	if err != nil {
		return err
	}
	sub, _, err := subProvider(c, e, spec, &sess.Meta)
	if err != nil {
		return err
	}
	r := &runner{e: e, o: o, sess: sess, prov: prov, sub: sub, tools: readToolSpec(c, &sess.Meta), store: sessionStore(c, e)}
	return r.once(c.Context, nil, false)
}

func sessionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list sessions: id, last update, status (finished / waiting on a question / ...), first prompt",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per line"},
			&cli.StringFlag{Name: "state-dir", Usage: "sessions are under `DIR` (env ASKUSER_STATE_DIR)"},
		},
		Action: func(c *cli.Context) error {
			store := sessionStore(c, e)
			list, err := store.List()
			if err != nil {
				return err
			}
			if c.Bool("json") {
				for _, s := range list {
					b, _ := json.Marshal(s)
					fmt.Fprintf(e.ios.Out, "%s\n", b)
				}
				return nil
			}
			if len(list) == 0 {
				fmt.Fprintln(e.ios.ErrOut, "no sessions yet; askuser run starts one")
				return nil
			}
			tw := tabwriter.NewWriter(e.ios.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tUPDATED\tSTATUS\tFIRST PROMPT")
			for _, s := range list {
				prompt := s.FirstPrompt
				if s.Err != "" {
					prompt = damagedNote(store, s)
				}
				status := s.Status
				if len(s.Agents) > 0 {
					status += " (sub-agents: " + ask.Display(strings.Join(s.Agents, ", ")) + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format(time.DateTime), status, clip(ask.Display(prompt), 60))
			}
			return tw.Flush()
		},
	}
}

// damagedNote words a damaged journal for the listing. The full error
// starts with the journal's path, so clipped to the column it would lose
// the part that matters: the line, and how many records are intact.
func damagedNote(store *session.Store, s session.Summary) string {
	var ce *session.CorruptError
	if _, err := store.Load(s.ID); errors.As(err, &ce) {
		return fmt.Sprintf("line %d is damaged; %d records before it are intact", ce.Line, ce.Intact)
	}
	return s.Err
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}
