package sessions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// RmOptions are askuser sessions rm's flags and arguments.
type RmOptions struct {
	Factory *cmdutil.Factory
	Store   cmdutil.StoreFlags
	// IDs are the sessions to delete, by id or a prefix only each has.
	IDs []string
}

// NewCmdRm is askuser sessions rm. runF, when not nil, is called with the
// options instead of deleting (a test's).
func NewCmdRm(f *cmdutil.Factory, runF func(*RmOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "rm",
		Usage:     "delete sessions, with what they keep beside them (tool logs)",
		ArgsUsage: "ID...",
		Description: `Deletes each session named (an id, or a prefix only it has) and its side directory.
A session another askuser process holds (running, or asking now) is refused.`,
		Flags: []cli.Flag{cmdutil.StateDirFlag(), cmdutil.StoreFlag()},
		Action: func(c *cli.Context) error {
			opts := &RmOptions{Factory: f, Store: cmdutil.ReadStoreFlags(c), IDs: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return rmRun(opts)
		},
	}
}

func rmRun(opts *RmOptions) error {
	if len(opts.IDs) == 0 {
		return cmdutil.UsageErrorf("sessions rm needs the ids of the sessions to delete (askuser sessions lists them)")
	}
	store, err := opts.Factory.Store(opts.Store)
	if err != nil {
		return err
	}
	var failed []string
	code := cmdutil.ExitOK
	for _, id := range opts.IDs {
		full, err := store.Remove(id)
		if err == nil {
			fmt.Fprintf(opts.Factory.IOStreams.ErrOut, "askuser: removed session %s\n", ask.Display(full))
			continue
		}
		failed = append(failed, err.Error())
		if c := removeErrCode(err); code == cmdutil.ExitOK || c == cmdutil.ExitUsage {
			code = c
		}
	}
	if len(failed) > 0 {
		return cmdutil.WithCode(code, errors.New(strings.Join(failed, "\naskuser: ")))
	}
	return nil
}

// removeErrCode is the exit code of a failed removal: a session id that
// names none (or several) is a usage error, as everywhere; a session held
// by another process, or a failing disk, is an error.
func removeErrCode(err error) int {
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
		return cmdutil.ExitUsage
	}
	return cmdutil.ExitError
}
