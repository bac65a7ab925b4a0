package cli

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
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// defaultListLimit is how many sessions the table shows without --all.
const defaultListLimit = 20

func sessionsCommand(e *env) *cli.Command {
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
			stateDirFlag(), storeFlag(),
		},
		Subcommands: []*cli.Command{sessionsRmCommand(e), sessionsPruneCommand(e)},
		Action:      func(c *cli.Context) error { return listSessions(c, e) },
	}
}

func stateDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "state-dir", Usage: "sessions are under `DIR` (env ASKUSER_STATE_DIR)"}
}

func listSessions(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		use := "use sessions, sessions rm ID... or sessions prune --older-than DURATION"
		if s := didYouMean(nearest(c.Args().First(), []string{"rm", "prune"})); s != "" {
			use = s + " (" + use + ")"
		}
		return usageErrorf("sessions: unknown subcommand %s; %s", ask.Excerpt(c.Args().First()), use)
	}
	if c.IsSet("limit") && c.Int("limit") < 1 {
		return usageErrorf("--limit must be at least 1, got %d (--all shows every session)", c.Int("limit"))
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	list, err := store.List()
	if err != nil {
		return err
	}
	here, _ := os.Getwd()
	machine := machineName(e)
	dir := ""
	if c.IsSet("dir") {
		if dir, err = filepath.Abs(c.String("dir")); err != nil || c.String("dir") == "" {
			return usageErrorf("--dir: %s is not a directory", ask.Excerpt(c.String("dir")))
		}
	}
	var shown []session.Summary
	for _, s := range list {
		if (c.Bool("waiting") && s.Status != session.StatusWaiting) || (dir != "" && !isHere(s, dir, machine)) {
			continue
		}
		shown = append(shown, s)
	}
	limit := len(shown)
	switch {
	case c.IsSet("limit"):
		limit = min(limit, c.Int("limit"))
	case !c.Bool("json") && !c.Bool("all"):
		limit = min(limit, defaultListLimit)
	}
	hidden := len(shown) - limit
	shown = shown[:limit]
	for _, s := range shown {
		noteAnswers(store, s)
	}
	if c.Bool("json") {
		for _, s := range shown {
			b, _ := json.Marshal(s)
			fmt.Fprintf(e.ios.Out, "%s\n", b)
		}
		return nil
	}
	if len(shown) == 0 {
		fmt.Fprintln(e.ios.ErrOut, noSessionsNote(len(list), c.Bool("waiting"), dir))
		return nil
	}
	writeTable(e.ios.Out, shown, list, here, machine, time.Now())
	if hidden > 0 {
		fmt.Fprintf(e.ios.ErrOut, "askuser: %d older session%s not shown; --all shows every one\n", hidden, plural(hidden))
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", ids[i], ago(now.Sub(s.Updated)), shortStatus(s), showDir(s, here, machine), clip(ask.Display(title), 60))
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
		return []string{"reason: " + clip(ask.Display(s.CancelReason), 70)}
	}
	var answered []string
	for _, w := range s.Questions {
		if w.AnsweredBy != "" {
			answered = append(answered, fmt.Sprintf("answered by %s: %s (taken when it goes on: askuser resume)",
				clip(ask.Display(w.AnsweredBy), 40), clip(ask.Display(strings.Join(w.Headers, ", ")), 40)))
		}
	}

	var order []string
	headers := map[string][]string{}
	for _, w := range s.Questions {
		if _, seen := headers[w.Agent]; !seen {
			order = append(order, w.Agent)
		}
		headers[w.Agent] = append(headers[w.Agent], askedFor(w)...)
	}
	var out []string
	for _, agent := range order {
		who := "asks"
		if agent != "" {
			who = fmt.Sprintf("sub-agent %q asks", clip(ask.Display(agent), 40))
		}
		out = append(out, fmt.Sprintf("%s: %s", who, clip(ask.Display(strings.Join(headers[agent], ", ")), 60)))
	}
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("and %d more sub-agents", len(out)-3))
	}
	return append(out, answered...)
}

// askedFor is what a waiting set asks, for a listing: its questions'
// headers, or for an approval the tool waiting to run ("approval of
// mcp__fs__write_file"), which its header, Approve, does not say.
func askedFor(w session.Waiting) []string {
	if w.Kind == ask.KindApproval && w.Tool != "" {
		return []string{"approval of " + w.Tool}
	}
	return w.Headers
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
// resume, cancel and rm accept.
func shortIDs(list, all []session.Summary) []string {
	out := make([]string, len(list))
	for i, s := range list {
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
		return clip(ask.Display(s.Machine), 20) + ":" + clipLeft(ask.Display(dir), 30)
	case dir == "":
		return "-"
	case isHere(s, here, machine):
		return "."
	}
	d := dir
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
			d = filepath.Join("~", rel)
		}
	}
	return clipLeft(ask.Display(d), 30)
}

// clipLeft cuts s to n characters by its start, which a path can lose.
func clipLeft(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

// ago words an age for the table: "45s ago", "3m ago", "5h ago", "3d ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
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

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}
