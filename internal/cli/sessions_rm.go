package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

func sessionsRmCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rm",
		Usage:     "delete sessions, with what they keep beside them (tool logs)",
		ArgsUsage: "ID...",
		Description: `Deletes each session named (an id, or a prefix only it has) and its side directory.
A session another askuser process holds (running, or asking now) is refused.`,
		Flags:  []cli.Flag{stateDirFlag(), storeFlag()},
		Action: func(c *cli.Context) error { return removeSessions(c, e) },
	}
}

func removeSessions(c *cli.Context, e *env) error {
	if c.NArg() == 0 {
		return usageErrorf("sessions rm needs the ids of the sessions to delete (askuser sessions lists them)")
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	var failed []string
	code := ExitOK
	for _, id := range c.Args().Slice() {
		full, err := store.Remove(id)
		if err == nil {
			fmt.Fprintf(e.ios.ErrOut, "askuser: removed session %s\n", full)
			continue
		}
		failed = append(failed, err.Error())
		if c := removeErrCode(err); code == ExitOK || c == ExitUsage {
			code = c
		}
	}
	if len(failed) > 0 {
		return withCode(code, errors.New(strings.Join(failed, "\naskuser: ")))
	}
	return nil
}

// removeErrCode is the exit code of a failed removal: a session id that
// names none (or several) is a usage error, as everywhere; a session held
// by another process, or a failing disk, is an error.
func removeErrCode(err error) int {
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
		return ExitUsage
	}
	return ExitError
}

func sessionsPruneCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "prune",
		Usage: "delete sessions not updated for a while",
		Description: `Deletes every session last updated longer ago than --older-than (7d, 36h, 90m; d is
days): waiting, cancelled, damaged and finished ones alike, or only finished ones with
--finished. Sessions another askuser process holds are kept. --dry-run lists what would go.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "older-than", Usage: "delete sessions last updated more than `AGE` ago (e.g. 7d, 36h)"},
			&cli.BoolFlag{Name: "finished", Usage: "delete only finished sessions"},
			&cli.BoolFlag{Name: "dry-run", Usage: "list what would be deleted, delete nothing"},
			stateDirFlag(), storeFlag(),
		},
		Action: func(c *cli.Context) error { return pruneSessions(c, e) },
	}
}

func pruneSessions(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usageErrorf("sessions prune takes no arguments, got %s; to delete sessions by id use askuser sessions rm ID...", ask.Excerpt(c.Args().First()))
	}
	if !c.IsSet("older-than") {
		return usageErrorf("sessions prune needs --older-than AGE, e.g. --older-than 7d")
	}
	age, err := parseAge("--older-than", c.String("older-than"))
	if err != nil {
		return err
	}
	store, err := sessionStore(c, e)
	if err != nil {
		return err
	}
	list, err := store.List()
	if err != nil {
		return err
	}
	now := time.Now()
	removed, kept := 0, 0
	var failed []string
	for _, s := range list {
		if s.Age(now) <= age || (c.Bool("finished") && s.Status != session.StatusFinished) {
			continue
		}
		if s.InUse {
			kept++
			continue
		}
		if c.Bool("dry-run") {
			fmt.Fprintf(e.ios.Out, "%s\t%s\t%s\t%s\n", s.ID, ago(now.Sub(s.Updated)), s.Status, clip(s.Title, 60))
			removed++
			continue
		}
		if _, err := store.Remove(s.ID); err != nil {
			if errors.Is(err, session.ErrInUse) {
				kept++ // taken by a process since it was listed
				continue
			}
			failed = append(failed, err.Error())
			continue
		}
		removed++
	}
	verb := "removed"
	if c.Bool("dry-run") {
		verb = "would remove"
	}
	note := fmt.Sprintf("askuser: %s %d session%s last updated more than %s ago", verb, removed, plural(removed), c.String("older-than"))
	if kept > 0 {
		note += fmt.Sprintf("; kept %d in use by another askuser process", kept)
	}
	fmt.Fprintln(e.ios.ErrOut, note)
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "\naskuser: "))
	}
	return nil
}

// dayPrefix is the days of an age such as 7d or 1d12h (compiled on first
// use, not at every start).
var dayPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)d(.*)$`) })

// parseAge reads an age such as 7d, 36h, 90m or 1d12h: Go's durations,
// with d for days (24h) in front. flag names the flag in errors.
func parseAge(flag, s string) (time.Duration, error) {
	bad := func(why string) (time.Duration, error) {
		return 0, usageErrorf("%s: %s %s; write an age such as 7d (days), 36h or 90m", flag, ask.Excerpt(s), why)
	}
	if strings.TrimSpace(s) == "" {
		return bad("is not an age")
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		n := unitExample(s)
		return 0, usageErrorf("%s: %s has no unit; add a unit, for example %sd (days) or %sh", flag, ask.Excerpt(s), n, n)
	}
	var d time.Duration
	rest := s
	if m := dayPrefix().FindStringSubmatch(s); m != nil {
		days, err := strconv.Atoi(m[1])
		if err != nil || days > 100000 {
			return bad("is too long")
		}
		d, rest = time.Duration(days)*24*time.Hour, m[2]
	}
	if rest != "" {
		x, err := time.ParseDuration(rest)
		if err != nil {
			return bad("is not an age")
		}
		d += x
	}
	if d <= 0 {
		return bad("is not more than zero")
	}
	return d, nil
}
