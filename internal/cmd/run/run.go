// Package run is askuser run: it runs an agent against a model provider,
// and when the model calls AskUserQuestion asks and continues with the
// answers. The run itself is internal/runflow's, which askuser resume and
// askuser demo drive too; this package holds the command: its flags (a
// run's, runflow.RunFlags, and --resume, --continue) and its arguments.
package run

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/runflow"
)

// Options are askuser run's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context
	// Start is the run asked for: its flags, --resume or --continue, and
	// the prompt's words.
	Start runflow.Start
}

// NewCmdRun is askuser run. runF, when not nil, is called with the options
// instead of running (a test's).
func NewCmdRun(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run an agent; when its model calls AskUserQuestion, ask and continue with the answers",
		ArgsUsage: "[PROMPT]",
		Description: `Runs an agent loop against a model provider. The prompt is the argument, or standard
input when there is none. At a terminal the assistant text streams and questions are asked
with a prompt; with -p the run is headless. Every run is a session on disk: --resume ID or
--continue adds a prompt to one, and askuser resume ID answers a question it stopped on.

Without a key: askuser demo (a scripted model built into askuser).`,
		Flags: append(runflow.RunFlags(),
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Category: cmdutil.CatSession, Usage: "continue session `ID` with a new prompt"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Category: cmdutil.CatSession, Usage: "continue the most recent session of this directory with a new prompt (it says which)"},
		),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Start: runflow.Start{Flags: runflow.ReadFlags(c),
				Resume: c.String("resume"), ResumeSet: c.IsSet("resume"), Continue: c.Bool("continue"), Args: c.Args().Slice()}}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
}

func runRun(opts *Options) error {
	return runflow.Run(opts.Context, opts.Factory, opts.Start)
}
