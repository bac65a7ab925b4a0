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
	// Agent is --agent: another program's agent to run (its own
	// arguments are Start.Args, what follows --); "" runs askuser's own.
	Agent string
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

Without a key: askuser demo (a scripted model built into askuser).

--agent claude|codex|gemini|opencode runs that program instead, its own arguments after --:
  askuser run --agent claude --ask-timeout 10m --on-timeout suspend -- -p "deploy staging"
Its questions are asked as a run's are (askuser is its hook or MCP server), its standard
output passes through unchanged, and when nobody answers in time it stops, the session
waits (exit 6), and askuser resume ID continues it with the answer.`,
		Flags: append(runflow.RunFlags(),
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Category: cmdutil.CatSession, Usage: "continue session `ID` with a new prompt"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Category: cmdutil.CatSession, Usage: "continue the most recent session of this directory with a new prompt (it says which)"},
			&cli.StringFlag{Name: "agent", Category: cmdutil.CatSession, Usage: "run `PROGRAM` (claude, codex, gemini or opencode) as the agent, its own arguments after --; askuser asks its questions and continues it later with a late answer"},
		),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Start: runflow.Start{Flags: runflow.ReadFlags(c),
				Resume: c.String("resume"), ResumeSet: c.IsSet("resume"), Continue: c.Bool("continue"), Args: c.Args().Slice()}, Agent: c.String("agent")}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
}

func runRun(opts *Options) error {
	if opts.Agent != "" {
		if opts.Start.ResumeSet || opts.Start.Continue {
			return cmdutil.UsageErrorf("--agent runs a new session of the agent; to continue one, use askuser resume ID")
		}
		return runflow.RunAgent(opts.Context, opts.Factory, runflow.Agent{Flags: opts.Start.Flags, Kind: opts.Agent, Args: opts.Start.Args})
	}
	return runflow.Run(opts.Context, opts.Factory, opts.Start)
}
