package sessions

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
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// PruneOptions are askuser sessions prune's flags and arguments.
type PruneOptions struct {
	Factory *cmdutil.Factory
	Store   cmdutil.StoreFlags
	// OlderThan is --older-than, when OlderThanSet.
	OlderThan    string
	OlderThanSet bool
	Finished     bool
	DryRun       bool
	Args         []string
}

// NewCmdPrune is askuser sessions prune. runF, when not nil, is called with
// the options instead of pruning (a test's).
func NewCmdPrune(f *cmdutil.Factory, runF func(*PruneOptions) error) *cli.Command {
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
			cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		},
		Action: func(c *cli.Context) error {
			opts := &PruneOptions{Factory: f, Store: cmdutil.ReadStoreFlags(c), OlderThan: c.String("older-than"), OlderThanSet: c.IsSet("older-than"),
				Finished: c.Bool("finished"), DryRun: c.Bool("dry-run"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return pruneRun(opts)
		},
	}
}

func pruneRun(opts *PruneOptions) error {
	ios := opts.Factory.IOStreams
	if len(opts.Args) > 0 {
		return cmdutil.UsageErrorf("sessions prune takes no arguments, got %s; to delete sessions by id use askuser sessions rm ID...", ask.Excerpt(opts.Args[0]))
	}
	if !opts.OlderThanSet {
		return cmdutil.UsageErrorf("sessions prune needs --older-than AGE, e.g. --older-than 7d")
	}
	age, err := parseAge("--older-than", opts.OlderThan)
	if err != nil {
		return err
	}
	store, err := opts.Factory.Store(opts.Store)
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
		if s.Age(now) <= age || (opts.Finished && s.Status != session.StatusFinished) {
			continue
		}
		if s.InUse {
			kept++
			continue
		}
		if opts.DryRun {
			fmt.Fprintf(ios.Out, "%s\t%s\t%s\t%s\n", ask.Display(s.ID), cmdutil.Ago(now.Sub(s.Updated)), s.Status, cmdutil.Clip(ask.Display(s.Title), 60))
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
	if opts.DryRun {
		verb = "would remove"
	}
	note := fmt.Sprintf("askuser: %s %d session%s last updated more than %s ago", verb, removed, cmdutil.Plural(removed), opts.OlderThan)
	if kept > 0 {
		note += fmt.Sprintf("; kept %d in use by another askuser process", kept)
	}
	fmt.Fprintln(ios.ErrOut, note)
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
		return 0, cmdutil.UsageErrorf("%s: %s %s; write an age such as 7d (days), 36h or 90m", flag, ask.Excerpt(s), why)
	}
	if strings.TrimSpace(s) == "" {
		return bad("is not an age")
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		n := cmdutil.UnitExample(s)
		return 0, cmdutil.UsageErrorf("%s: %s has no unit; add a unit, for example %sd (days) or %sh", flag, ask.Excerpt(s), n, n)
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
