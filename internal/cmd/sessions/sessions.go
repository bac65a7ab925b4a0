// Package sessions is askuser sessions: it lists sessions, newest first,
// from every directory, with what each waits on and who answered; its
// subcommands rm (rm.go) and prune (prune.go) delete them. A session
// another askuser process holds is never deleted.
package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// defaultListLimit is how many sessions the table shows without --all.
const defaultListLimit = 20

// Options are askuser sessions' flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Store   cmdutil.StoreFlags
	JSON    bool
	Waiting bool
	All     bool
	// Limit is --limit, when LimitSet.
	Limit    int
	LimitSet bool
	// Dir is --dir, when DirSet.
	Dir    string
	DirSet bool
	Args   []string
}

// NewCmdSessions is askuser sessions, with its subcommands rm and prune.
// runF, when not nil, is called with the options instead of listing (a
// test's).
func NewCmdSessions(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:  "sessions",
		Usage: "list sessions: what waits where; rm and prune delete them",
		Description: `Lists sessions, newest first, from every directory: id, age, status, the directory
it was started in ("." for this one) and its title; under a waiting session, the headers
of the questions it waits on and which sub-agents ask. The table shows the 20 newest
(--all: every one, --limit N) and says how many it hid; --json writes one object per line,
every match unless --limit is given.

  askuser sessions --waiting           what waits on an answer, everywhere
  askuser sessions --dir .             the sessions of this directory
  askuser sessions rm ID...            delete sessions
  askuser sessions prune --older-than 7d [--finished]`,
		HideHelpCommand: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per line"},
			&cli.BoolFlag{Name: "waiting", Usage: "only sessions waiting on a question or an approval"},
			&cli.BoolFlag{Name: "all", Usage: "every session, not only the 20 newest"},
			&cli.IntFlag{Name: "limit", Usage: "show at most `N` sessions", DefaultText: "20 in the table, every one with --json"},
			&cli.StringFlag{Name: "dir", Usage: "only sessions started in `DIR` (. for this directory)"},
			cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		},
		Subcommands: []*cli.Command{NewCmdRm(f, nil), NewCmdPrune(f, nil)},
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Store: cmdutil.ReadStoreFlags(c), JSON: c.Bool("json"), Waiting: c.Bool("waiting"), All: c.Bool("all"),
				Limit: c.Int("limit"), LimitSet: c.IsSet("limit"), Dir: c.String("dir"), DirSet: c.IsSet("dir"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *Options) error {
	f, ios := opts.Factory, opts.Factory.IOStreams
	if len(opts.Args) > 0 {
		use := "use sessions, sessions rm ID... or sessions prune --older-than DURATION"
		if s := cmdutil.DidYouMean(cmdutil.Nearest(opts.Args[0], []string{"rm", "prune"})); s != "" {
			use = s + " (" + use + ")"
		}
		return cmdutil.UsageErrorf("sessions: unknown subcommand %s; %s", ask.Excerpt(opts.Args[0]), use)
	}
	if opts.LimitSet && opts.Limit < 1 {
		return cmdutil.UsageErrorf("--limit must be at least 1, got %d (--all shows every session)", opts.Limit)
	}
	store, err := f.Store(opts.Store)
	if err != nil {
		return err
	}
	list, err := store.List()
	if err != nil {
		return err
	}
	here, _ := os.Getwd()
	machine := f.Machine()
	dir := ""
	if opts.DirSet {
		if dir, err = filepath.Abs(opts.Dir); err != nil || opts.Dir == "" {
			return cmdutil.UsageErrorf("--dir: %s is not a directory", ask.Excerpt(opts.Dir))
		}
	}
	var shown []session.Summary
	for _, s := range list {
		if (opts.Waiting && s.Status != session.StatusWaiting) || (dir != "" && !cmdutil.IsHere(s, dir, machine)) {
			continue
		}
		shown = append(shown, s)
	}
	limit := len(shown)
	switch {
	case opts.LimitSet:
		limit = min(limit, opts.Limit)
	case !opts.JSON && !opts.All:
		limit = min(limit, defaultListLimit)
	}
	hidden := len(shown) - limit
	shown = shown[:limit]
	for _, s := range shown {
		noteAnswers(store, s)
	}
	if opts.JSON {
		for _, s := range shown {
			b, _ := json.Marshal(s)
			fmt.Fprintf(ios.Out, "%s\n", b)
		}
		return nil
	}
	if len(shown) == 0 {
		fmt.Fprintln(ios.ErrOut, noSessionsNote(len(list), opts.Waiting, dir))
		return nil
	}
	writeTable(ios.Out, shown, list, here, machine, time.Now())
	if hidden > 0 {
		fmt.Fprintf(ios.ErrOut, "askuser: %d older session%s not shown; --all shows every one\n", hidden, cmdutil.Plural(hidden))
	}
	return nil
}

// noSessionsNote says why the listing is empty.
func noSessionsNote(total int, waiting bool, dir string) string {
	switch {
	case total == 0:
		return "no sessions yet; askuser run starts one"
	case waiting && dir != "":
		return fmt.Sprintf("no session waits on a question or an approval in %s", dir)
	case waiting:
		return "no session waits on a question or an approval"
	}
	return fmt.Sprintf("no sessions in %s; askuser sessions lists those of every directory", dir)
}

// writeTable writes the listing for people: one row per session, and
// under a waiting one what it waits on (or, cancelled, the reason).
func writeTable(w io.Writer, list, all []session.Summary, here, machine string, now time.Time) {
	ids := shortIDs(list, all)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGE\tSTATUS\tDIRECTORY\tTITLE")
	for i, s := range list {
		title := s.Title
		if s.Err != "" {
			title = damagedNote(s)
		}
		// A damaged entry's id is its file name, which can hold anything.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ask.Display(ids[i]), cmdutil.Ago(now.Sub(s.Updated)), shortStatus(s), showDir(s, here, machine), cmdutil.Clip(ask.Display(title), 60))
		for _, line := range detailLines(s) {
			fmt.Fprintf(tw, "\t\t\t\t  %s\n", line)
		}
	}
	tw.Flush()
}

// noteAnswers fills in who answered each set of s in its answer mailbox
// (a chat channel, the inbox page), when s has not taken the answer yet.
func noteAnswers(store *session.Store, s session.Summary) {
	for i, w := range s.Questions {
		box := session.Box{Session: s.ID, Key: relay.Key(s.ID, w.ID, w.AskedAt)}
		if d, ok, err := store.Mailbox().Get(context.Background(), box); err == nil && ok {
			s.Questions[i].AnsweredBy = d.By
		}
	}
}

// detailLines are the lines under a session's row: the headers of the
// questions it waits on, the main agent's first, then each sub-agent's,
// and who answered a set that waits to be taken; or why it was cancelled.
func detailLines(s session.Summary) []string {
	if s.Status == session.StatusCancelled && s.CancelReason != "" {
		return []string{"reason: " + cmdutil.Clip(ask.Display(s.CancelReason), 70)}
	}
	var answered []string
	for _, w := range s.Questions {
		if w.AnsweredBy != "" {
			answered = append(answered, fmt.Sprintf("answered by %s: %s (taken when it goes on: askuser resume)",
				cmdutil.Clip(ask.Display(w.AnsweredBy), 40), cmdutil.Clip(ask.Display(strings.Join(w.Headers, ", ")), 40)))
		}
	}

	var order []string
	headers := map[string][]string{}
	for _, w := range s.Questions {
		if _, seen := headers[w.Agent]; !seen {
			order = append(order, w.Agent)
		}
		headers[w.Agent] = append(headers[w.Agent], cmdutil.AskedFor(w)...)
	}
	var out []string
	for _, agent := range order {
		who := "asks"
		if agent != "" {
			who = fmt.Sprintf("sub-agent %q asks", cmdutil.Clip(ask.Display(agent), 40))
		}
		out = append(out, fmt.Sprintf("%s: %s", who, cmdutil.Clip(ask.Display(strings.Join(headers[agent], ", ")), 60)))
	}
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("and %d more sub-agents", len(out)-3))
	}
	return append(append(hostLine(s), out...), answered...)
}

// hostLine names the agent program of a host session (askuser run
// --agent, or askuser hook / mcp with --on-timeout suspend): its own
// session id, and what happened to it last.
func hostLine(s session.Summary) []string {
	if s.Host == "" {
		return nil
	}
	line := "agent: " + ask.Display(s.Host)
	if s.HostID != "" {
		line += " session " + cmdutil.Clip(ask.Display(s.HostID), 40)
	}
	if s.HostState != "" {
		line += " (" + ask.Display(string(s.HostState)) + ")"
	}
	return []string{line}
}

// shortStatus is a status in a word for the table.
func shortStatus(s session.Summary) string {
	st := s.Status
	if st == session.StatusWaiting {
		st = "waiting"
	}
	if s.InUse && st != session.StatusRunning {
		st += " (in use)"
	}
	return st
}

// shortIDs returns each listed session's id cut to the shortest prefix
// of at least 8 characters that no other session (of all) shares, which
// resume, cancel and rm accept. A damaged journal's name that is no id
// is shown whole (up to an id's length): rm takes it only whole.
func shortIDs(list, all []session.Summary) []string {
	out := make([]string, len(list))
	for i, s := range list {
		if _, err := session.ParseID(s.ID); err != nil {
			out[i] = cmdutil.Clip(s.ID, 36)
			continue
		}
		n := min(8, len(s.ID))
		for _, o := range all {
			for o.ID != s.ID && n < len(s.ID) && strings.HasPrefix(o.ID, s.ID[:n]) {
				n++
			}
		}
		out[i] = s.ID[:n]
	}
	return out
}

// showDir names a session's directory for the table: "." for the current
// one, ~ for the home directory, "-" when unknown, long ones cut from the
// left, where the name that tells them apart is.
func showDir(s session.Summary, here, machine string) string {
	dir := s.Cwd
	switch {
	case s.Machine != "" && s.Machine != machine:
		// Another machine's (a team store): its name, and the path as
		// that machine knows it.
		return cmdutil.Clip(ask.Display(s.Machine), 20) + ":" + cmdutil.ClipLeft(ask.Display(dir), 30)
	case dir == "":
		return "-"
	case cmdutil.IsHere(s, here, machine):
		return "."
	}
	d := dir
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
			d = filepath.Join("~", rel)
		}
	}
	return cmdutil.ClipLeft(ask.Display(d), 30)
}

// damagedNote words a damaged journal for the listing. The full error
// starts with the journal's path, so clipped to the column it would lose
// the part that matters: what the file is instead of a journal, or the
// line, and how many records are intact (--json has the whole error).
func damagedNote(s session.Summary) string {
	var ce *session.CorruptError
	var nr *statefile.NotRegularError
	var tl *statefile.TooLargeError
	switch err := s.Problem(); {
	case errors.As(err, &nr):
		return nr.Kind + ", not a journal: never read; remove it"
	case errors.As(err, &tl):
		return fmt.Sprintf("%s, over the %s a journal may be: never read", statefile.Size(tl.Size), statefile.Size(tl.Limit))
	case errors.Is(err, session.ErrBadID):
		return "its name is not a session id: never read"
	case errors.As(err, &ce) && ce.Intact == 0:
		return fmt.Sprintf("line %d is damaged: %s", ce.Line, ce.Reason)
	case errors.As(err, &ce):
		return fmt.Sprintf("line %d is damaged; %d records before it are intact", ce.Line, ce.Intact)
	}
	return s.Err
}
